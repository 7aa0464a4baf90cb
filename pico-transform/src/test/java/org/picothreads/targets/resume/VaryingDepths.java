package org.picothreads.targets.resume;

/**
 * Threads that block again and again at varying depths: each descends, keeping a long, a double, a reference and an
 * int under the argument of every call (so every level has values under its call's arguments), blocks at the
 * bottom, then on the way back up blocks again every third level and descends anew from every fourth, so that
 * values return through several lazily restored activations between two blocks, and a capture happens with only a
 * few activations run since the last resume.
 */
public final class VaryingDepths {
    private VaryingDepths() {
    }

    public static String run() throws Exception {
        String[] results = new String[4];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> {
                StringBuilder log = new StringBuilder();
                for (int round = 0; round < 3; round++) {
                    int depth = 3 + 4 * seed + round;
                    log.append(descend(depth, 1000L * seed + round, 0.5 * seed, "t" + seed, true)).append(' ');
                }
                results[seed] = log.toString().trim();
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

    /** Recurses {@code depth} levels, with state at every level and a value under each call's arguments. */
    static long descend(int depth, long carried, double scale, String tag, boolean branch) {
        long mine = carried * 7 + depth;
        double weighted = scale + depth / 8.0;
        String label = tag + depth;
        if (depth == 0) {
            block(1);
            return mine;
        }
        int under = label.length();
        long below = under + descend(depth - 1, mine, weighted, label, branch) % 10_007;
        if (depth % 3 == 0) {
            block(1);
        }
        if (branch && depth % 4 == 0) {
            below += descend(depth / 2, below, weighted, tag, false) % 101;
        }
        return below + (long) (weighted * 4) + mine % 13 + twice(label.length(), sum(depth, 2.5 * depth));
    }

    /** A value under the argument of a call that blocks, of a long and a double call. */
    static long sum(long first, double second) {
        block(0);
        return first + (long) second;
    }

    static long twice(int first, long second) {
        return 2L * first + second;
    }

    static void block(long millis) {
        try {
            if (millis == 0) {
                Thread.yield();
            } else {
                Thread.sleep(millis);
            }
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
