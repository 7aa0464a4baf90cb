package org.picothreads.targets.carriers;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A constructor that sleeps inside {@code synchronized (LOCK)}, run by several threads at once: a constructor cannot
 * be captured, so its sleep blocks for real, and no other thread may enter the region meanwhile. Inside the region a
 * shared counter is read, slept over and written back, so it comes out exact only under mutual exclusion; every
 * entry that finds another thread already inside is counted.
 */
public final class ConstructorMonitorExclusion {
    private static final int THREADS = 8;
    private static final int CONSTRUCTIONS_PER_THREAD = 3;
    private static final Object LOCK = new Object();
    /** Read, slept over and written back inside the region. */
    private static int counter;
    /** How many threads are inside the region now. */
    private static final AtomicInteger INSIDE = new AtomicInteger();
    /** Entries into the region that found another thread inside. */
    private static final AtomicInteger OVERLAPS = new AtomicInteger();

    /** What the constructor was given, kept to show each object was built whole. */
    private final int value;

    private ConstructorMonitorExclusion(int value) {
        synchronized (LOCK) {
            if (INSIDE.incrementAndGet() != 1) {
                OVERLAPS.incrementAndGet();
            }
            int read = counter;
            Pause.sleep(2);
            counter = read + 1;
            INSIDE.decrementAndGet();
        }
        this.value = value;
    }

    public static String run() throws Exception {
        counter = 0;
        INSIDE.set(0);
        OVERLAPS.set(0);
        long[] valueSums = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int slot = index;
            threads[index] = new Thread(() -> {
                for (int round = 0; round < CONSTRUCTIONS_PER_THREAD; round++) {
                    Pause.sleep(1);
                    valueSums[slot] += new ConstructorMonitorExclusion(slot * 10 + round).value;
                }
            });
        }
        Pause.startAndJoin(threads);
        long valueSum = 0;
        for (long sum : valueSums) {
            valueSum += sum;
        }
        return "objects " + THREADS * CONSTRUCTIONS_PER_THREAD + ", counter " + counter + ", value sum " + valueSum
                + ", entries that found another thread inside " + OVERLAPS.get();
    }
}
