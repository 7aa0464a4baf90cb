package org.picothreads.targets.carriers;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code CompletableFuture} stage that joins another stage, both running on {@code Executors.newFixedThreadPool(2)}:
 * the join, under the pool's and the future's own frames, cannot be captured, and the joined stage runs on the
 * pool's other worker meanwhile. Every wait is bounded so that the program ends either way, and says so.
 */
public final class CompletableFutureJoinOnFixedPool {
    private static final int ROUNDS = 3;
    /** How long the program waits for a stage or for the pool to end. */
    private static final long LIMIT_SECONDS = 10;

    private CompletableFutureJoinOnFixedPool() {
    }

    public static String run() throws Exception {
        String[] outcome = new String[1];
        Thread caller = new Thread(() -> outcome[0] = joinStages());
        Pause.startAndJoin(caller);
        return outcome[0];
    }

    private static String joinStages() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        StringBuilder log = new StringBuilder();
        try {
            for (int round = 0; round < ROUNDS; round++) {
                int base = round * 100;
                CompletableFuture<Integer> inner = CompletableFuture.supplyAsync(() -> {
                    Pause.sleep(20);
                    return base + 20;
                }, pool);
                CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(() -> inner.join() + 22, pool);
                int value = outer.get(LIMIT_SECONDS, TimeUnit.SECONDS);
                log.append("round ").append(round).append(": outer stage completed with ").append(value).append('\n');
            }
        } catch (InterruptedException | ExecutionException | TimeoutException exception) {
            log.append("failed: ").append(exception).append('\n');
        } finally {
            pool.shutdown();
        }
        try {
            log.append("pool terminated ").append(pool.awaitTermination(LIMIT_SECONDS, TimeUnit.SECONDS));
        } catch (InterruptedException exception) {
            log.append("interrupted awaiting termination");
        }
        return log.toString();
    }
}
