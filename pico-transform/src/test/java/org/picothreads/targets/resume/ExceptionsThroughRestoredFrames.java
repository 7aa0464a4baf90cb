package org.picothreads.targets.resume;

import java.util.ArrayList;
import java.util.List;

/**
 * Exceptions thrown by an activation after it was resumed, on their way down through activations that were still
 * saved: caught by a handler several activations down, by an intermediate catch that wraps and rethrows, by a
 * finally block in every level that must run exactly once, by a handler in the same method as the blocking call,
 * and an exception thrown by the blocking call itself (an interrupt) caught below; each level keeps a long and a
 * double that the handler reads.
 */
public final class ExceptionsThroughRestoredFrames {
    private ExceptionsThroughRestoredFrames() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = String.join("; ", exercise(seed)));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static List<String> exercise(int seed) {
        List<String> log = new ArrayList<>();
        int[] finallies = new int[1];
        long kept = 40L + seed;
        double weight = 0.25 * seed;
        try {
            level(6 + seed, finallies);
            log.add("no exception");
        } catch (IllegalStateException exception) {
            log.add("caught " + exception.getMessage() + " " + (kept + (long) (weight * 8)));
        }
        log.add("finally blocks " + finallies[0]);
        try {
            wrapping(5, seed);
        } catch (RuntimeException exception) {
            log.add("wrapped " + exception.getMessage() + " cause " + exception.getCause().getMessage());
        }
        log.add(handledWhereItBlocked(seed));
        log.add(interruptedBelow(seed));
        log.add("finally blocks after all " + finallies[0]);
        return log;
    }

    /** Blocks at the bottom and throws there after the resume; every level's finally counts once. */
    static int level(int depth, int[] finallies) {
        long mine = depth * 11L;
        double half = depth / 2.0;
        try {
            if (depth == 0) {
                block();
                throw new IllegalStateException("from the bottom");
            }
            return (int) mine + level(depth - 1, finallies) + (int) half;
        } finally {
            finallies[0]++;
        }
    }

    /** An intermediate level catches the exception from below, wraps it and throws the wrapper further down. */
    static int wrapping(int depth, int seed) {
        long mine = depth + seed;
        if (depth == 0) {
            block();
            throw new IllegalArgumentException("bottom " + seed);
        }
        try {
            return (int) mine + wrapping(depth - 1, seed);
        } catch (IllegalArgumentException exception) {
            if (depth == 3) {
                block();
                throw new RuntimeException("wrapped at " + depth + " keeping " + mine, exception);
            }
            throw exception;
        }
    }

    /** A handler in the very method that blocked, around the blocking call and the throw after it. */
    static String handledWhereItBlocked(int seed) {
        double kept = 1.5 + seed;
        try {
            block();
            if (kept > 0) {
                throw new UnsupportedOperationException("after the resume");
            }
            return "not thrown";
        } catch (UnsupportedOperationException exception) {
            return "handled " + exception.getMessage() + " " + kept;
        }
    }

    /** An interrupt ends a sleep two levels up and is caught here, below the activations it went through. */
    static String interruptedBelow(int seed) {
        Thread.currentThread().interrupt();
        long kept = 7L * seed;
        try {
            return "slept " + sleepDeep(2) + kept;
        } catch (IllegalStateException exception) {
            return "interrupted: " + exception.getMessage() + " " + kept + " " + Thread.currentThread().isInterrupted();
        }
    }

    static int sleepDeep(int depth) {
        if (depth == 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException exception) {
                throw new IllegalStateException("interrupted sleep");
            }
            return 0;
        }
        return depth + sleepDeep(depth - 1);
    }

    static void block() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
