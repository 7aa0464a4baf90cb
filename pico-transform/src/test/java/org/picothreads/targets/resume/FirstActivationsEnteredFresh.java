package org.picothreads.targets.resume;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads whose first activation the runtime may enter fresh, as a continuation, instead of through the thread's
 * {@code run()}: lambdas capturing values of every kind, {@code this}, or nothing; a static method reference; a Runnable
 * class, one that inherits its {@code run()}, a Thread subclass, one that calls {@code super.run()}, a private
 * instance method reference, and a lambda that only calls another Runnable. Each blocks at its start, in a helper of
 * its class, inside a monitor and in a finally block; one lambda is also run by another thread
 * directly, one Runnable runs in two threads, and one body throws to the thread's uncaught exception handler. The
 * result must be the one the untransformed program gives.
 */
public final class FirstActivationsEnteredFresh {
    /** How many threads run the lambda that captures values of every kind. */
    public static final int CAPTURING_THREADS = 40;
    /**
     * How many threads' first activations the runtime enters fresh (all of them); two still walk the stack at a first
     * capture, where their first activation blocks below a call it cannot enter fresh: the lambda that only calls
     * another Runnable, and the Thread subclass whose {@code super.run()} runs its target's lambda.
     */
    public static final int ENTERED_FRESH = CAPTURING_THREADS + 15;

    private static final Object LOCK = new Object();
    private static final AtomicLong TOTAL = new AtomicLong();
    private static int guarded;

    private final String label;
    private final List<String> events = new ArrayList<>();

    private FirstActivationsEnteredFresh(String label) {
        this.label = label;
    }

    public static String run() throws Exception {
        TOTAL.set(0);
        guarded = 0;
        FirstActivationsEnteredFresh owner = new FirstActivationsEnteredFresh("owner");
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < CAPTURING_THREADS; index++) {
            int number = index;
            long wide = (1L << 33) + index;
            double fraction = index / 4.0;
            float single = index / 2f;
            char letter = (char) ('a' + index % 26);
            boolean odd = index % 2 == 1;
            String text = "t" + index;
            threads.add(new Thread(() -> {
                pause(1);
                long value = number + wide + (long) (fraction * 8) + (long) (single * 2) + letter + (odd ? 1 : 0);
                TOTAL.addAndGet(value + helper(number) + text.length());
            }));
        }
        threads.add(new Thread(() -> {
            pause(1);
            TOTAL.addAndGet(1_000_000);
        }));
        threads.add(new Thread(owner::recordWithThis));
        threads.add(new Thread(owner.lambdaCapturingThis()));
        threads.add(new Thread(FirstActivationsEnteredFresh::staticBody));
        threads.add(new Thread(new Counter(5)));
        threads.add(new Thread(new InheritingCounter(7)));
        threads.add(new Sleeper(11));
        threads.add(new SleeperCallingSuper(() -> {
            pause(1);
            TOTAL.addAndGet(13);
        }));
        Runnable shared = new Counter(17);
        threads.add(new Thread(shared));
        threads.add(new Thread(shared));
        Runnable direct = () -> {
            pause(1);
            TOTAL.addAndGet(19);
        };
        threads.add(new Thread(() -> direct.run()));
        threads.add(new Thread(direct));
        threads.add(new Thread(FirstActivationsEnteredFresh::guardedBody));
        threads.add(new Thread(FirstActivationsEnteredFresh::guardedBody));
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        String[] uncaught = new String[1];
        Thread failing = new Thread(() -> {
            pause(1);
            throw new IllegalStateException("failed after its first block");
        });
        failing.setUncaughtExceptionHandler((thread, failure) -> uncaught[0] = failure.getClass().getSimpleName() + ": "
                + failure.getMessage() + " in " + (thread == failing));
        failing.start();
        failing.join();
        owner.events.sort(null);
        return "total " + TOTAL.get() + ", guarded " + guarded + ", owner " + owner.events + ", uncaught "
                + uncaught[0];
    }

    private void recordWithThis() {
        pause(1);
        synchronized (events) {
            events.add(label + " by reference");
        }
    }

    private Runnable lambdaCapturingThis() {
        return () -> {
            pause(1);
            synchronized (events) {
                events.add(label + " by lambda");
            }
        };
    }

    private static void staticBody() {
        try {
            pause(1);
            TOTAL.addAndGet(3);
        } finally {
            pause(1);
            TOTAL.addAndGet(100);
        }
    }

    /** Holds the monitor across its sleep: the two threads that run it must not both be inside at once. */
    private static void guardedBody() {
        synchronized (LOCK) {
            int before = guarded;
            pause(2);
            guarded = before + 1;
        }
    }

    private static long helper(int number) {
        pause(1);
        return number * 3L;
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }

    /** A Runnable class whose own run() blocks. */
    static class Counter implements Runnable {
        final int amount;

        Counter(int amount) {
            this.amount = amount;
        }

        @Override
        public void run() {
            napOnce();
            TOTAL.addAndGet(amount);
            napOnce();
        }

        /** A helper of this class (the outer class's {@code pause} is another class's, which a walk must check). */
        private static void napOnce() {
            try {
                Thread.sleep(1);
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        }
    }

    /** Inherits its run() from a rewritten superclass. */
    static final class InheritingCounter extends Counter {
        InheritingCounter(int amount) {
            super(amount * 10);
        }
    }

    /** A Thread subclass with a run() of its own. */
    static final class Sleeper extends Thread {
        private final int amount;

        Sleeper(int amount) {
            this.amount = amount;
        }

        @Override
        public void run() {
            try {
                Thread.sleep(1);
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
            TOTAL.addAndGet(amount);
        }
    }

    /** A Thread subclass whose run() blocks, then runs its target through Thread's own run(). */
    static final class SleeperCallingSuper extends Thread {
        SleeperCallingSuper(Runnable target) {
            super(target);
        }

        @Override
        public void run() {
            try {
                Thread.sleep(1);
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
            super.run();
        }
    }
}
