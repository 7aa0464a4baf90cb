package org.picothreads.targets.carriers;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two thousand threads held at a start latch, then meeting five times at one {@code CyclicBarrier} of two thousand
 * parties whose action records how many threads arrived in each generation, then counting a done latch down that a
 * watcher thread awaits. Every generation must see every thread, and the watcher must see the latch reach zero.
 */
public final class LatchBarrierStress {
    private static final int THREADS = 2_000;
    private static final int GENERATIONS = 5;
    /** How long a latch or barrier wait lasts before the program gives up on it. */
    private static final long WAIT_LIMIT_SECONDS = 20;

    private LatchBarrierStress() {
    }

    public static String run() throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(THREADS);
        AtomicInteger arrivals = new AtomicInteger();
        StringBuilder generations = new StringBuilder();
        CyclicBarrier barrier = new CyclicBarrier(THREADS,
                () -> generations.append(generations.length() == 0 ? "" : " ").append(arrivals.getAndSet(0)));
        AtomicInteger failures = new AtomicInteger();
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            threads[index] = new Thread(() -> {
                try {
                    if (!start.await(WAIT_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                        failures.incrementAndGet();
                        return;
                    }
                    for (int generation = 0; generation < GENERATIONS; generation++) {
                        arrivals.incrementAndGet();
                        barrier.await(WAIT_LIMIT_SECONDS, TimeUnit.SECONDS);
                        Pause.sleep(1);
                    }
                } catch (InterruptedException | BrokenBarrierException | TimeoutException exception) {
                    failures.incrementAndGet();
                } finally {
                    done.countDown();
                }
            });
        }
        boolean[] watcherSawZero = new boolean[1];
        Thread watcher = new Thread(() -> {
            try {
                watcherSawZero[0] = done.await(3 * WAIT_LIMIT_SECONDS, TimeUnit.SECONDS) && done.getCount() == 0;
            } catch (InterruptedException exception) {
                watcherSawZero[0] = false;
            }
        });
        watcher.start();
        for (Thread thread : threads) {
            thread.start();
        }
        Pause.sleep(5);
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        watcher.join();
        return "threads " + THREADS + ", arrivals per generation " + generations + ", failures " + failures.get()
                + ", the watcher saw the done latch reach zero " + watcherSawZero[0];
    }
}
