package org.picothreads.targets.threads;

/**
 * Interrupts: a sleeping thread interrupted by another thread catches InterruptedException with its flag
 * cleared; {@code Thread.interrupted()} clears the flag it reports; a sleep started while interrupted throws
 * at once; a sleep after the flag was cleared sleeps; a thread waiting in join is interrupted out of it.
 */
public final class Interruption {
    /** Lets the blocker thread end; written by the thread running {@link #run}. */
    private volatile boolean released;

    private Interruption() {
    }

    public static String run() throws Exception {
        return new Interruption().interruptAll();
    }

    private String interruptAll() throws InterruptedException {
        StringBuilder sleeperLog = new StringBuilder();
        Thread sleeper = new Thread(() -> {
            long kept = 1L << 42;
            try {
                Thread.sleep(60_000);
                sleeperLog.append("slept through the interrupt");
            } catch (InterruptedException exception) {
                sleeperLog.append("interrupted while sleeping, flag ").append(Thread.currentThread().isInterrupted())
                        .append(", kept ").append(kept);
            }
            Thread.currentThread().interrupt();
            boolean first = Thread.interrupted();
            boolean second = Thread.interrupted();
            sleeperLog.append("; interrupted() twice: ").append(first).append(' ').append(second);
            Thread.currentThread().interrupt();
            try {
                Thread.sleep(5);
                sleeperLog.append("; slept while interrupted");
            } catch (InterruptedException exception) {
                sleeperLog.append("; a sleep started while interrupted threw, flag ")
                        .append(Thread.currentThread().isInterrupted());
            }
            try {
                Thread.sleep(1);
                sleeperLog.append("; slept again");
            } catch (InterruptedException exception) {
                sleeperLog.append("; interrupted again");
            }
        });
        sleeper.start();
        Thread.sleep(20);
        sleeper.interrupt();
        sleeper.join();

        StringBuilder joinerLog = new StringBuilder();
        Thread blocker = new Thread(() -> {
            while (!released) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException exception) {
                    joinerLog.append("the blocker was interrupted; ");
                }
            }
        });
        Thread joiner = new Thread(() -> {
            try {
                blocker.join();
                joinerLog.append("joined the blocker");
            } catch (InterruptedException exception) {
                joinerLog.append("interrupted in join, blocker alive ").append(blocker.isAlive()).append(", flag ")
                        .append(Thread.currentThread().isInterrupted());
            }
        });
        blocker.start();
        joiner.start();
        Thread.sleep(20);
        joiner.interrupt();
        joiner.join();
        released = true;
        blocker.join();
        return sleeperLog + "\n" + joinerLog
                + "\nalive after joins: " + sleeper.isAlive() + " " + joiner.isAlive() + " " + blocker.isAlive();
    }
}
