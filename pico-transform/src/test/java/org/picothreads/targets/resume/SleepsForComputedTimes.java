package org.picothreads.targets.resume;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Threads that sleep for times they compute, with {@code Thread.sleep(long)}, {@code Thread.sleep(long, int)} and
 * {@code TimeUnit.sleep}, at the bottom of a recursion and with values of every kind live across the sleep and under
 * its arguments; one is interrupted in a long sleep, catches the exception and sleeps again. A captured sleep saves
 * none of its arguments (the runtime completes the wait it kept), so each must still last at least the time asked and
 * the result must be the one the untransformed program gives.
 */
public final class SleepsForComputedTimes {
    public static final int THREADS = 4;
    public static final int ROUNDS = 6;

    private SleepsForComputedTimes() {
    }

    public static String run() throws Exception {
        String[] results = new String[THREADS + 1];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int number = index;
            threads[index] = new Thread(() -> results[number] = sleeper(number));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        CountDownLatch asleep = new CountDownLatch(1);
        Thread interrupted = new Thread(() -> results[THREADS] = interruptedSleeper(asleep));
        interrupted.start();
        asleep.await();
        Thread.sleep(20);
        interrupted.interrupt();
        for (Thread thread : threads) {
            thread.join();
        }
        interrupted.join();
        return String.join(" | ", results);
    }

    private static String sleeper(int seed) {
        long total = seed;
        double share = seed + 0.5;
        int shortEnough = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long millis = 1 + (seed + round) % 3;
            int nanos = round * 1_000 + seed;
            total = total * 31 + descend(round % 3, millis, nanos, share);
            share = share * 1.5 - round;
            if (!lasted(millis, nanos)) {
                shortEnough++;
            }
        }
        return total + " " + share + " " + shortEnough;
    }

    /** Sleeps at the bottom of a recursion {@code depth} deep; the sum is taken around the sleep's arguments. */
    private static long descend(int depth, long millis, int nanos, double share) {
        if (depth == 0) {
            float factor = (float) share;
            char mark = (char) ('a' + nanos % 26);
            sleepFor(millis, nanos);
            return (long) (factor * 4) + mark + millis;
        }
        long below = depth * 1_000L + millis;
        return below + add(depth, descend(depth - 1, millis + depth, nanos, share / 2));
    }

    private static long add(int depth, long value) {
        return depth + value;
    }

    private static void sleepFor(long millis, int nanos) {
        try {
            switch (nanos % 3) {
                case 0 -> Thread.sleep(millis);
                case 1 -> Thread.sleep(millis, nanos);
                default -> TimeUnit.MICROSECONDS.sleep(millis * 1_000 + nanos / 1_000);
            }
        } catch (InterruptedException unexpected) {
            throw new IllegalStateException(unexpected);
        }
    }

    /** Sleeps for {@code millis} and {@code nanos} once more and answers whether it lasted at least that long. */
    private static boolean lasted(long millis, int nanos) {
        long start = System.nanoTime();
        long wanted = millis * 1_000_000 + nanos;
        try {
            Thread.sleep(millis, nanos);
        } catch (InterruptedException unexpected) {
            throw new IllegalStateException(unexpected);
        }
        return System.nanoTime() - start >= wanted;
    }

    private static String interruptedSleeper(CountDownLatch asleep) {
        long millis = 60_000 + asleep.getCount();
        long start = System.nanoTime();
        String outcome;
        try {
            asleep.countDown();
            Thread.sleep(millis);
            outcome = "slept";
        } catch (InterruptedException expected) {
            outcome = "interrupted " + Thread.currentThread().isInterrupted();
        }
        boolean early = System.nanoTime() - start < millis * 1_000_000;
        // after the interrupt, a short sleep lasts its time again
        boolean again = lasted(millis / 20_000, 0);
        return outcome + " " + early + " " + again;
    }
}
