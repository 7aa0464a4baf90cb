package org.picothreads.targets.lambdas;

import java.util.concurrent.Callable;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;

/**
 * JDK functional interfaces (Runnable, Supplier, IntBinaryOperator, Callable) whose lambdas sleep, called
 * directly from rewritten code: no JDK frame lies between the caller and the lambda body.
 */
public final class FunctionalInterfacesCalledDirectly {
    private FunctionalInterfacesCalledDirectly() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = callAll(seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static String callAll(int seed) {
        StringBuilder log = new StringBuilder();
        Runnable logger = () -> {
            sleep(1);
            log.append("ran;");
        };
        Supplier<String> supplier = () -> {
            sleep(1);
            return "supplied" + seed;
        };
        IntBinaryOperator operator = (left, right) -> {
            sleep(1);
            return left * 10 + right;
        };
        Callable<Long> callable = () -> {
            Thread.sleep(1);
            return 1L << (40 + seed);
        };
        logger.run();
        String supplied = supplier.get();
        int combined = operator.applyAsInt(seed, operator.applyAsInt(2, 3));
        long called;
        try {
            called = callable.call() + seed;
        } catch (Exception exception) {
            return "callable failed: " + exception;
        }
        logger.run();
        return log + supplied + "," + combined + "," + called;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
