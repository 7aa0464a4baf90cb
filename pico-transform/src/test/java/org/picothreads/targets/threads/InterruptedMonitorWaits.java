package org.picothreads.targets.threads;

/**
 * Interrupts of threads that wait for a monitor another thread holds across sleeps: a thread waiting to enter the
 * region is BLOCKED, stays BLOCKED when interrupted, and enters once the holder leaves, its interrupt status kept; a
 * thread interrupted in {@code wait()} takes the monitor back only after the holder leaves, then throws
 * InterruptedException with its status cleared.
 */
public final class InterruptedMonitorWaits {
    /** How long the program polls for a state before it reports what it saw instead. */
    private static final long POLL_LIMIT_MILLIS = 10_000;

    private final Object lock = new Object();
    private final StringBuilder log = new StringBuilder();
    /** Set by the holder once it is inside the region. */
    private volatile boolean holderInside;
    /** Tells the holder to leave the region. */
    private volatile boolean release;
    /** Set by the holder just before it leaves the region. */
    private volatile boolean holderLeft;
    /** Set by the waiter once it is in wait(). */
    private volatile boolean waiterWaiting;

    private InterruptedMonitorWaits() {
    }

    public static String run() throws Exception {
        return new InterruptedMonitorWaits().entrant() + "\n" + new InterruptedMonitorWaits().waiter();
    }

    private String entrant() throws InterruptedException {
        Thread holder = holder();
        holder.start();
        awaitFlag(() -> holderInside);
        Thread entrant = new Thread(() -> {
            synchronized (lock) {
                Thread.yield(); // a region that can suspend: only those exclude each other across a suspension
                log.append("entrant entered after the holder left ").append(holderLeft)
                        .append(", interrupt status ").append(Thread.currentThread().isInterrupted());
            }
        }, "entrant");
        entrant.start();
        String before = awaitState(entrant, Thread.State.BLOCKED);
        entrant.interrupt();
        Thread.sleep(30);
        String after = entrant.getState() + ", alive " + entrant.isAlive();
        release = true;
        entrant.join();
        holder.join();
        return "entrant before the interrupt " + before + "; after it " + after + "; " + log;
    }

    private String waiter() throws InterruptedException {
        Thread waiter = new Thread(() -> {
            synchronized (lock) {
                try {
                    waiterWaiting = true;
                    lock.wait();
                    log.append("waiter returned from wait");
                } catch (InterruptedException exception) {
                    log.append("waiter interrupted after the holder left ").append(holderLeft).append(", holds the lock ")
                            .append(Thread.holdsLock(lock)).append(", interrupt status ")
                            .append(Thread.currentThread().isInterrupted());
                }
            }
        }, "waiter");
        waiter.start();
        awaitFlag(() -> waiterWaiting);
        String waiting = awaitState(waiter, Thread.State.WAITING);
        Thread holder = holder();
        holder.start();
        awaitFlag(() -> holderInside);
        waiter.interrupt();
        String interrupted = awaitState(waiter, Thread.State.BLOCKED);
        release = true;
        waiter.join();
        holder.join();
        return "waiter in wait " + waiting + "; interrupted while the holder sleeps " + interrupted + "; " + log;
    }

    /** A thread that takes the lock and sleeps inside the region until told to release it. */
    private Thread holder() {
        return new Thread(() -> {
            synchronized (lock) {
                holderInside = true;
                try {
                    while (!release) {
                        Thread.sleep(2);
                    }
                } catch (InterruptedException exception) {
                    log.append("the holder was interrupted; ");
                }
                holderLeft = true;
            }
        }, "holder");
    }

    private static void awaitFlag(java.util.function.BooleanSupplier flag) throws InterruptedException {
        long deadline = System.currentTimeMillis() + POLL_LIMIT_MILLIS;
        while (!flag.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(1);
        }
    }

    /** Waits until the thread is in the state; returns the state it ended in. */
    private static String awaitState(Thread thread, Thread.State state) throws InterruptedException {
        long deadline = System.currentTimeMillis() + POLL_LIMIT_MILLIS;
        while (thread.getState() != state && System.currentTimeMillis() < deadline) {
            Thread.sleep(1);
        }
        return thread.getState().toString();
    }
}
