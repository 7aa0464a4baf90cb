package org.picothreads.targets.monitors;

/**
 * A platform thread runs a region that cannot suspend over and over while threads read, sleep and write inside
 * regions on the same object, deep in a recursion: it must never enter between a sleeper's read and its write, not
 * even while the sleeper is being resumed and has not yet re-entered the monitor, so that the count is exact.
 */
public final class PlatformRegionsAgainstResumingHolders {
    private static final int SLEEPERS = 4;
    private static final int ROUNDS = 150;
    private static final int DEPTH = 400;
    private static final Object LOCK = new Object();
    private static int counter;
    private static int platformIncrements;
    private static int overlaps;
    private static boolean sleeperInside;
    private static volatile boolean done;

    private PlatformRegionsAgainstResumingHolders() {
    }

    public static String run() throws Exception {
        counter = 0;
        platformIncrements = 0;
        overlaps = 0;
        done = false;
        Thread[] sleepers = new Thread[SLEEPERS];
        for (int index = 0; index < SLEEPERS; index++) {
            sleepers[index] = new Thread(() -> {
                try {
                    for (int round = 0; round < ROUNDS; round++) {
                        incrementSlowlyBelow(DEPTH);
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            sleepers[index].start();
        }
        Thread finisher = new Thread(() -> {
            try {
                for (Thread sleeper : sleepers) {
                    sleeper.join();
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            done = true;
        });
        finisher.start();
        while (!done) {
            incrementQuickly();
        }
        finisher.join();
        return "exact=" + (counter == SLEEPERS * ROUNDS + platformIncrements) + " overlaps=" + overlaps
                + " platform entered=" + (platformIncrements > 0);
    }

    /**
     * Calls {@link #incrementSlowly} below {@code depth} frames, so that resuming a sleeper re-enters that many
     * frames before it re-enters the monitor: a long moment in which the sleeper is running again but not yet back
     * inside.
     */
    private static void incrementSlowlyBelow(int depth) throws InterruptedException {
        if (depth == 0) {
            incrementSlowly();
        } else {
            incrementSlowlyBelow(depth - 1);
        }
    }

    private static void incrementSlowly() throws InterruptedException {
        synchronized (LOCK) {
            sleeperInside = true;
            int read = counter;
            Thread.sleep(1);
            counter = read + 1;
            sleeperInside = false;
        }
    }

    private static void incrementQuickly() {
        synchronized (LOCK) {
            if (sleeperInside) {
                overlaps++;
            }
            counter++;
            platformIncrements++;
        }
    }
}
