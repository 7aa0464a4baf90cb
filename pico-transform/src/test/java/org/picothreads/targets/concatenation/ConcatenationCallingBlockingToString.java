package org.picothreads.targets.concatenation;

/**
 * A string concatenation whose operand's toString sleeps: the JDK's concatenation code calls toString, so the
 * sleep happens under a frame that was not rewritten and cannot be captured; the thread must block for real
 * there (pin) and still give the right result. The same thread also suspends normally before and after.
 */
public final class ConcatenationCallingBlockingToString {
    private ConcatenationCallingBlockingToString() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> {
                sleep(1);
                SlowText slow = new SlowText("slow" + seed);
                String text = "[" + slow + "|" + seed + "]";
                sleep(1);
                results[seed] = text + slow.describe();
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

    /** A value whose string form takes a sleep to compute. */
    static final class SlowText {
        private final String text;

        SlowText(String text) {
            this.text = text;
        }

        /** Called from rewritten code: its sleep may suspend. */
        String describe() {
            return "<" + this + ">";
        }

        @Override
        public String toString() {
            sleep(2);
            return text;
        }
    }
}
