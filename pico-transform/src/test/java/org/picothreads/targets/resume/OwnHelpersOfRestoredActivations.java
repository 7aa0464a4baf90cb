package org.picothreads.targets.resume;

/**
 * Threads whose restored activations call blocking helpers of their own class, bound at compile time (a private
 * static method, a private instance method, a final method, a static recursion, a synchronized helper, a helper that
 * throws), again and again: the continuation enters each helper's continuation fresh, and the result must be the one
 * the untransformed program gives.
 */
public final class OwnHelpersOfRestoredActivations {
    public static final int THREADS = 3;
    public static final int ROUNDS = 30;

    private final int seed;
    private long instanceTotal;

    private OwnHelpersOfRestoredActivations(int seed) {
        this.seed = seed;
    }

    public static String run() throws Exception {
        String[] results = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int number = index;
            threads[index] = new Thread(() -> results[number] = new OwnHelpersOfRestoredActivations(number).loop());
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join(" | ", results);
    }

    private String loop() {
        long total = seed;
        double share = 1.0;
        int failures = 0;
        // the first sleep suspends the loop's own activation: from then on it runs restored
        pause(1);
        for (int round = 0; round < ROUNDS; round++) {
            total = total * 7 + twice(round);
            share = share / 2 + scaled(round);
            total += sumDown(round % 4);
            total += guarded(round);
            try {
                failing(round);
            } catch (IllegalArgumentException expected) {
                failures += expected.getMessage().length();
            }
        }
        return total + " " + share + " " + failures + " " + instanceTotal;
    }

    private static int twice(int value) {
        pause(1);
        return value * 2;
    }

    private double scaled(int value) {
        Thread.yield();
        instanceTotal += value;
        return value * 0.25 + seed;
    }

    private static long sumDown(int depth) {
        if (depth == 0) {
            Thread.yield();
            return 1;
        }
        return depth + sumDown(depth - 1);
    }

    final synchronized long guarded(int value) {
        Thread.yield();
        return value + seed;
    }

    private static void failing(int round) {
        pause(1);
        if (round % 3 == 0) {
            throw new IllegalArgumentException("round " + round);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }
}
