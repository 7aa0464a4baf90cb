package org.picothreads.targets.resume;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Threads that block below calls of the program's own instance methods, which save neither their arguments nor, where
 * the rest of the caller does not read it, the receiver: a virtual recursion whose subclass overrides the recursive
 * method and calls {@code super} (the resumed activations must go on in the overriding method and in the overridden
 * one, each on its own receiver), a call whose receiver is another object of the class, and, for comparison, calls
 * that may reach the runtime directly and so still save theirs: a lambda of a functional interface of the program
 * that is a method reference to {@code Thread.sleep}, and a latch of a class extending {@code CountDownLatch} awaited
 * through its own method. The result, with every value read after each block, must be the untransformed program's.
 */
public final class CallsOfTheProgramsOwnMethods {
    public static final int THREADS = 6;

    private CallsOfTheProgramsOwnMethods() {
    }

    /** A recursion on the receiver; the receiver is read after the recursive call on one path, not on the other. */
    static class Descent {
        final int weight;
        int visits;

        Descent(int weight) {
            this.weight = weight;
        }

        long descend(int depth, long carried) {
            if (depth == 0) {
                nap(1 + (int) (carried % 2));
                return carried + weight;
            }
            if (depth % 2 == 0) {
                long below = descend(depth - 1, carried * 3 + depth);
                visits++; // the receiver is read after the call
                return below + weight;
            }
            return descend(depth - 1, carried + depth) + depth; // it is not
        }

        long other(Descent next, int depth) {
            // the call's receiver is another object; this one is dead after the call
            return next.descend(depth, weight) * 2;
        }
    }

    /** Overrides the recursive method, calling the overridden one with {@code super}. */
    static final class WeightedDescent extends Descent {
        WeightedDescent(int weight) {
            super(weight);
        }

        @Override
        long descend(int depth, long carried) {
            long above = depth + carried % 7;
            return super.descend(depth, carried + 1) - above;
        }
    }

    /** A functional interface of the program, implemented below by a method reference to a blocking JDK method. */
    interface Napper {
        void napFor(long millis) throws InterruptedException;
    }

    /** A latch of the program's own class, awaited through its own method. */
    static final class Gate extends CountDownLatch {
        Gate() {
            super(1);
        }

        boolean passWithin(long millis) throws InterruptedException {
            return await(millis, TimeUnit.MILLISECONDS);
        }
    }

    public static String run() throws Exception {
        String[] results = new String[THREADS];
        List<Thread> threads = new ArrayList<>();
        Gate gate = new Gate();
        for (int index = 0; index < THREADS; index++) {
            int number = index;
            threads.add(new Thread(() -> results[number] = work(number, gate)));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        nap(5);
        gate.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join(" | ", results);
    }

    private static String work(int number, Gate gate) {
        try {
            Descent plain = new Descent(number + 1);
            Descent weighted = new WeightedDescent(number + 2);
            long first = plain.descend(3 + number % 3, number);
            long second = weighted.descend(4, number * 10L);
            long third = plain.other(weighted, 2 + number % 2);
            Napper napper = Thread::sleep;
            long before = System.nanoTime();
            napper.napFor(2 + number % 2);
            boolean napped = System.nanoTime() - before >= 2_000_000L;
            boolean passed = gate.passWithin(60_000);
            return first + " " + second + " " + third + " " + plain.visits + " " + weighted.visits + " " + napped
                    + " " + passed;
        } catch (InterruptedException unexpected) {
            throw new IllegalStateException(unexpected);
        }
    }

    private static void nap(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException unexpected) {
            throw new IllegalStateException(unexpected);
        }
    }
}
