package org.picothreads.targets.records;

/**
 * A record whose compact constructor sleeps: a constructor cannot be re-entered, so that sleep cannot be
 * captured and must block for real (pin), while the same threads suspend normally before and after it.
 */
public final class RecordWithBlockingConstructor {
    private RecordWithBlockingConstructor() {
    }

    /** A record whose compact constructor sleeps. */
    record Delayed(int value) {
        Delayed {
            try {
                Thread.sleep(1);
            } catch (InterruptedException exception) {
                value = -1;
            }
        }
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> {
                long kept = 1L << (40 + seed);
                sleep(1);
                Delayed delayed = new Delayed(seed * 3);
                sleep(1);
                results[seed] = delayed + ", kept " + kept;
            });
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
