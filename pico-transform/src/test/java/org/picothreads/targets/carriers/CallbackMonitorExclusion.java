package org.picothreads.targets.carriers;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@code synchronized} block whose sleeps happen inside {@code List.forEach}, a JDK frame that cannot be captured,
 * run by several threads: each sleep blocks for real while the thread holds the monitor, and no other thread may
 * enter the region meanwhile. The shared counter is read before the callbacks and written after them, so it comes
 * out exact only under mutual exclusion; every entry that finds another thread already inside is counted.
 */
public final class CallbackMonitorExclusion {
    private static final int THREADS = 8;
    private static final int ROUNDS = 3;
    private static final List<Integer> STEPS = List.of(1, 2, 3);
    private static final Object LOCK = new Object();
    /** Read before the callbacks and written back after them, inside the region. */
    private static int counter;
    /** The sum of every step visited by a callback, updated inside the region. */
    private static int stepSum;
    /** How many threads are inside the region now. */
    private static final AtomicInteger INSIDE = new AtomicInteger();
    /** Entries into the region that found another thread inside. */
    private static final AtomicInteger OVERLAPS = new AtomicInteger();

    private CallbackMonitorExclusion() {
    }

    public static String run() throws Exception {
        counter = 0;
        stepSum = 0;
        INSIDE.set(0);
        OVERLAPS.set(0);
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            threads[index] = new Thread(() -> {
                for (int round = 0; round < ROUNDS; round++) {
                    Pause.sleep(1);
                    incrementWithCallbacks();
                }
            });
        }
        Pause.startAndJoin(threads);
        return "counter " + counter + " of " + THREADS * ROUNDS + ", step sum " + stepSum
                + ", entries that found another thread inside " + OVERLAPS.get();
    }

    private static void incrementWithCallbacks() {
        synchronized (LOCK) {
            if (INSIDE.incrementAndGet() != 1) {
                OVERLAPS.incrementAndGet();
            }
            int read = counter;
            STEPS.forEach(step -> {
                int steps = stepSum;
                Pause.sleep(1);
                stepSum = steps + step;
            });
            counter = read + 1;
            INSIDE.decrementAndGet();
        }
    }
}
