package org.picothreads.targets.concatenation;

/**
 * String concatenation compiled to invokedynamic (makeConcatWithConstants) with suspending arguments: the
 * arguments evaluated before the suspending one wait on the operand stack, one- and two-slot values mixed.
 */
public final class StringConcatenation {
    private StringConcatenation() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = concatenate(seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static String concatenate(int seed) {
        int x = 40 + seed;
        long wide = 5_000_000_000L * (seed + 1);
        double fraction = 0.5 + seed;
        char letter = (char) ('p' + seed);
        Object nothing = null;
        String simple = "a" + sleepThenGet(seed) + "b" + x;
        String mixed = wide + ":" + fraction + ":" + sleepThenGetLong(wide + 1) + ":" + letter
                + sleepThenGetDouble(fraction * 3) + ":" + (seed % 2 == 0) + ":" + nothing + ":"
                + sleepThenGetText("t" + sleepThenGet(seed + 7));
        String twice = sleepThenGet(1) + "" + sleepThenGet(2) + sleepThenGetText("-end");
        String assigned = "start";
        assigned += sleepThenGet(3) + "/" + letter;
        return simple + "|" + mixed + "|" + twice + "|" + assigned;
    }

    static int sleepThenGet(int value) {
        sleep(1);
        return value;
    }

    static long sleepThenGetLong(long value) {
        sleep(1);
        return value;
    }

    static double sleepThenGetDouble(double value) {
        sleep(1);
        return value;
    }

    static String sleepThenGetText(String value) {
        sleep(1);
        return value;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
