package org.picothreads.targets.carriers;

/**
 * One thread spins with {@code Thread.onSpinWait()} until another thread, after some work, sets a volatile flag.
 * The spin gives up after {@link #LIMIT_NANOS} so that the program ends either way, and says so.
 */
public final class SpinWaitUntilFlag {
    /** How long the spinner spins before it gives up. */
    private static final long LIMIT_NANOS = 10_000_000_000L;

    private static volatile boolean published;
    /** What the worker computed, published by the flag. */
    private static long result;

    private SpinWaitUntilFlag() {
    }

    public static String run() throws Exception {
        published = false;
        result = 0;
        String[] seen = new String[1];
        Thread spinner = new Thread(() -> {
            long start = System.nanoTime();
            while (!published) {
                if (System.nanoTime() - start > LIMIT_NANOS) {
                    seen[0] = "the spinner gave up";
                    return;
                }
                Thread.onSpinWait();
            }
            seen[0] = "the spinner saw " + result;
        });
        Thread worker = new Thread(() -> {
            Pause.sleep(5);
            result = sumOfSquares(10_000);
            published = true;
        });
        Pause.startAndJoin(spinner, worker);
        return seen[0];
    }

    /** The sum of the squares of 1 to {@code count}: the worker's work before it sets the flag. */
    static long sumOfSquares(int count) {
        long sum = 0;
        for (long value = 1; value <= count; value++) {
            sum += value * value;
        }
        return sum;
    }
}
