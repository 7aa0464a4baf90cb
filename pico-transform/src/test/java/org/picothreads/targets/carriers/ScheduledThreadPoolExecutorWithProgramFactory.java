package org.picothreads.targets.carriers;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code ScheduledThreadPoolExecutor} built with {@code new} and a thread factory of the program's own, with more
 * workers than carriers: its workers are the program's threads and wait for their tasks' due times inside the JDK's
 * own delay queue, where the runtime does not see the wait, so each waiting worker blocks its carrier for real. No
 * delayed task runs before its due time, each {@code Future.get} returns its task's value, a periodic task runs until
 * it is cancelled, and after {@code shutdown} the pool terminates. Every wait is bounded so that the program ends
 * either way, and says so. (The order in which the workers start tasks due 25 ms apart is the operating system's
 * to decide on a loaded machine, for platform threads as for carriers, so it is not part of the result.)
 */
public final class ScheduledThreadPoolExecutorWithProgramFactory {
    /** Workers, and delayed tasks: more than the carriers of any test run. */
    private static final int WORKERS = 8;
    /** The gap between two delayed tasks' due times. */
    private static final long GAP_MILLIS = 25;
    /** How many times the periodic task runs before it is cancelled. */
    private static final int PERIODIC_RUNS = 3;
    /** How long the program waits for a task, the periodic runs or the pool's end. */
    private static final long LIMIT_SECONDS = 10;

    private ScheduledThreadPoolExecutorWithProgramFactory() {
    }

    public static String run() throws Exception {
        String[] outcome = new String[1];
        Thread caller = new Thread(() -> outcome[0] = useThePool());
        Pause.startAndJoin(caller);
        return outcome[0];
    }

    private static String useThePool() {
        CountingThreadFactory factory = new CountingThreadFactory("scheduled-worker-");
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(WORKERS, factory);
        StringBuilder log = new StringBuilder();
        try {
            Queue<Integer> ranEarly = new ConcurrentLinkedQueue<>();
            List<ScheduledFuture<Integer>> futures = new ArrayList<>();
            for (int task = 0; task < WORKERS; task++) {
                int number = task;
                long delayNanos = TimeUnit.MILLISECONDS.toNanos((WORKERS - task) * GAP_MILLIS);
                long due = System.nanoTime() + delayNanos;
                futures.add(pool.schedule(() -> {
                    if (System.nanoTime() - due < 0) {
                        ranEarly.add(number);
                    }
                    return number * number;
                }, delayNanos, TimeUnit.NANOSECONDS));
            }
            CountDownLatch periodicRuns = new CountDownLatch(PERIODIC_RUNS);
            ScheduledFuture<?> periodic = pool.scheduleWithFixedDelay(periodicRuns::countDown, GAP_MILLIS,
                    GAP_MILLIS, TimeUnit.MILLISECONDS);
            int sum = 0;
            for (ScheduledFuture<Integer> future : futures) {
                sum += future.get(LIMIT_SECONDS, TimeUnit.SECONDS);
            }
            boolean periodicRan = periodicRuns.await(LIMIT_SECONDS, TimeUnit.SECONDS);
            log.append("tasks run before their due time ").append(ranEarly).append(", sum of squares ").append(sum)
                    .append(", periodic task ran ").append(PERIODIC_RUNS).append(" times ").append(periodicRan)
                    .append(", cancelled ").append(periodic.cancel(false));
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
