package org.picothreads.targets.manythreads;

/**
 * Ten thousand threads started at once, each sleeping a few milliseconds and then writing to its own slot;
 * the sum of the slots shows that every thread ran to the end exactly once.
 */
public final class TenThousandSleepers {
    /** How many threads run at once. */
    static final int THREADS = 10_000;

    private TenThousandSleepers() {
    }

    public static String run() throws Exception {
        long[] slots = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int slot = index;
            threads[index] = new Thread(() -> {
                long value = slot * 3L + 1;
                sleep(1 + slot % 5);
                slots[slot] += value;
            });
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        long sum = 0;
        int written = 0;
        for (long slot : slots) {
            sum += slot;
            if (slot != 0) {
                written++;
            }
        }
        return "threads " + THREADS + ", slots written " + written + ", sum " + sum;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
