package org.picothreads.targets.resume;

/**
 * Recursion 5,000 calls deep that blocks at the bottom and, on the way back up, every 250th level: the first
 * capture saves all 5,000 activations, and each later one only the few that ran since the resume before it.
 * Each level keeps a long and a double and has an int under the recursive call's arguments.
 */
public final class FiveThousandDeep {
    static final int DEPTH = 5000;

    private FiveThousandDeep() {
    }

    public static String run() throws Exception {
        String[] results = new String[2];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(null, () -> results[seed] = "total " + descend(DEPTH, seed), "deep-" + seed,
                    1L << 24);
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static long descend(int depth, long accumulated) {
        long mine = (accumulated * 31 + depth) % 1_000_003;
        double weight = depth / 3.0;
        if (depth == 0) {
            sleep(2);
            return mine;
        }
        int under = depth % 7 + (int) (descend(depth - 1, mine) % 1000);
        if (depth % 250 == 0) {
            sleep(1);
        }
        return mine + under + (long) weight;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
