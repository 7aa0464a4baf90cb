package org.picothreads.targets.carriers;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code ThreadPoolExecutor} built with {@code new} and a thread factory of the program's own: its workers are the
 * program's threads and wait for tasks in the JDK's worker loop, where the wait cannot be captured.
 * {@code Future.get} returns each task's value, and after {@code shutdown} the pool terminates. Every wait is
 * bounded so that the program ends either way, and says so.
 */
public final class ThreadPoolExecutorWithProgramFactory {
    private static final int TASKS = 6;
    /** How long the program waits for a task or for the pool to end. */
    private static final long LIMIT_SECONDS = 10;

    private ThreadPoolExecutorWithProgramFactory() {
    }

    public static String run() throws Exception {
        String[] outcome = new String[1];
        Thread caller = new Thread(() -> outcome[0] = useThePool());
        Pause.startAndJoin(caller);
        return outcome[0];
    }

    private static String useThePool() {
        CountingThreadFactory factory = new CountingThreadFactory("program-worker-");
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                factory);
        StringBuilder log = new StringBuilder();
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int task = 1; task <= TASKS; task++) {
                int square = task * task;
                futures.add(pool.submit(() -> {
                    Pause.sleep(10);
                    return square;
                }));
            }
            int sum = 0;
            for (Future<Integer> future : futures) {
                sum += future.get(LIMIT_SECONDS, TimeUnit.SECONDS);
            }
            log.append("sum of squares ").append(sum);
        } catch (InterruptedException | ExecutionException | TimeoutException exception) {
            log.append("failed: ").append(exception);
        } finally {
            pool.shutdown();
        }
        try {
            log.append(", terminated ").append(pool.awaitTermination(LIMIT_SECONDS, TimeUnit.SECONDS));
        } catch (InterruptedException exception) {
            log.append(", interrupted awaiting termination");
        }
        return log.append(", threads made by the factory ").append(factory.made()).toString();
    }
}
