package org.picothreads.targets.carriers;

/**
 * A class whose static initializer sleeps and then sets a static field to 42, first used by two threads at once: the
 * initializer's sleep cannot be captured, and the JVM makes the second thread wait until the class is initialized,
 * so both read 42.
 */
public final class SlowClassInitializer {
    private static final int THREADS = 2;

    private SlowClassInitializer() {
    }

    /** Initialized slowly, on first use by one of the threads. */
    static final class Slow {
        /** Set at the end of the initializer. */
        static int answer;

        static {
            Pause.sleep(50);
            answer = 42;
        }

        private Slow() {
        }
    }

    public static String run() throws Exception {
        int[] seen = new int[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int slot = index;
            threads[index] = new Thread(() -> {
                Pause.sleep(1 + 10L * slot);
                seen[slot] = Slow.answer;
            });
        }
        Pause.startAndJoin(threads);
        StringBuilder result = new StringBuilder();
        for (int slot = 0; slot < THREADS; slot++) {
            result.append(slot == 0 ? "" : ", ").append("thread ").append(slot).append(" read ").append(seen[slot]);
        }
        return result.toString();
    }
}
