package org.picothreads.targets.lambdas;

/**
 * Threads whose bodies are lambdas and method references: a plain lambda, a lambda capturing locals of every
 * kind, an instance method reference {@code this::work}, a static method reference, and a lambda of a user
 * functional interface that sleeps and is called from rewritten code.
 */
public final class ThreadLambdas {
    /** Written by {@link #staticWork} and read after its thread was joined. */
    private static volatile String lastStaticResult = "not run";

    /** Result slots, one per thread this instance starts. */
    private final String[] results = new String[6];
    /** A field the instance method reference reads after its sleep. */
    private final String label;

    private ThreadLambdas(String label) {
        this.label = label;
    }

    /** A user functional interface whose implementations may block. */
    @FunctionalInterface
    interface Step {
        int apply(int value) throws InterruptedException;
    }

    public static String run() throws Exception {
        return new ThreadLambdas("instance").startAll();
    }

    private String startAll() throws InterruptedException {
        lastStaticResult = "not run";
        int number = 7;
        long wide = 1L << 35;
        double fraction = 2.75;
        String text = "captured";
        int[] box = {3};
        Thread[] threads = {
            new Thread(() -> {
                sleep(2);
                results[0] = "plain lambda";
            }),
            new Thread(() -> {
                int before = number + box[0];
                sleep(1);
                results[1] = text + ":" + before + ":" + (wide + number) + ":" + (fraction * number) + ":" + box[0];
            }),
            new Thread(this::work),
            new Thread(ThreadLambdas::staticWork),
            new Thread(() -> results[4] = applySteps(number)),
            new Thread(() -> {
                Step twice = value -> {
                    Thread.sleep(1);
                    return value * 2;
                };
                Step addCaptured = value -> {
                    Thread.sleep(1);
                    return value + number + box[0];
                };
                try {
                    int total = twice.apply(5) + addCaptured.apply(twice.apply(1));
                    results[5] = "nested steps " + total;
                } catch (InterruptedException exception) {
                    results[5] = "interrupted";
                }
            }),
        };
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        results[3] = lastStaticResult;
        return String.join("\n", results);
    }

    private void work() {
        sleep(2);
        results[2] = "method reference on " + label;
    }

    private static void staticWork() {
        sleep(1);
        lastStaticResult = "static method reference";
    }

    private String applySteps(int start) {
        Step increment = value -> {
            Thread.sleep(1);
            return value + 1;
        };
        Step square = ThreadLambdas::slowSquare;
        int value = start;
        try {
            for (int round = 0; round < 3; round++) {
                value = square.apply(increment.apply(value)) % 1000;
            }
        } catch (InterruptedException exception) {
            return "interrupted";
        }
        return "steps " + value;
    }

    private static int slowSquare(int value) throws InterruptedException {
        Thread.sleep(1);
        return value * value;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
