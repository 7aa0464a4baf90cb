package org.picothreads.targets.recursion;

/**
 * Recursion 3,000 calls deep with a suspension at the bottom and state in every level: each activation keeps
 * a long, a double and a reference in locals and an int on the operand stack under the recursive call, and
 * every 500th level suspends again on the way back up, so a whole deep stack is captured and restored
 * more than once.
 */
public final class DeepRecursion {
    /** How deep every thread recurses. */
    static final int DEPTH = 3000;

    private DeepRecursion() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> {
                long[] bottomSeen = new long[1];
                long total = descend(DEPTH, seed, bottomSeen);
                results[seed] = "total " + total + ", bottom " + bottomSeen[0];
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

    static long descend(int depth, long accumulated, long[] bottomSeen) {
        long mine = (accumulated * 31 + depth) % 1_000_003;
        double weight = depth / 4.0;
        String tag = depth % 2 == 0 ? "even" : "odd";
        if (depth == 0) {
            sleep(2);
            bottomSeen[0] = mine;
            return mine;
        }
        int bonus = tag.length() + (int) weight + (int) (descend(depth - 1, mine, bottomSeen) % 1000);
        if (depth % 500 == 0) {
            sleep(1);
        }
        return mine + bonus + tag.length();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
