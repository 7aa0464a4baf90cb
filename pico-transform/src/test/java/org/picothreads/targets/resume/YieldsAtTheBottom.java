package org.picothreads.targets.resume;

/**
 * Two threads descend 40 calls deep and sleep 20 times in a loop at the bottom: lazily, each resume re-enters only
 * the looping activation and each capture saves only it, until the loop ends and the 40 activations below it
 * continue one after another.
 */
public final class YieldsAtTheBottom {
    public static final int THREADS = 2;
    public static final int DEPTH = 40;
    public static final int SLEEPS = 20;

    private YieldsAtTheBottom() {
    }

    public static String run() throws Exception {
        long[] results = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = descend(DEPTH, seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return results[0] + " " + results[1];
    }

    static long descend(int depth, long carried) {
        if (depth == 0) {
            return loop(carried);
        }
        return depth + descend(depth - 1, carried * 3 + depth);
    }

    static long loop(long carried) {
        long total = carried;
        for (int sleep = 0; sleep < SLEEPS; sleep++) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
            total += sleep;
        }
        return total;
    }
}
