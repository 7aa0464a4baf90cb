package org.picothreads.targets.threads;

/**
 * The state other threads see of a thread that waits to enter a synchronized region which holds no blocking call
 * (so it cannot suspend: a PicoThread's carrier blocks on the JVM's monitor) while the thread running this program
 * holds the lock: BLOCKED, as on platform threads; the shared count is exact. (Once it has entered, it sleeps in
 * turns of a millisecond until released, so its state then depends on the moment and is not reported.)
 */
public final class ContendedMonitorStates {
    /** How long the holder waits at most for the contender to block. */
    private static final long LIMIT_MILLIS = 5_000;

    private final Object lock = new Object();
    private int count;
    private volatile boolean entered;
    private volatile boolean release;

    private ContendedMonitorStates() {
    }

    public static String run() throws Exception {
        return new ContendedMonitorStates().contend();
    }

    private String contend() throws InterruptedException {
        Thread contender = new Thread(() -> {
            synchronized (lock) {
                count++;
            }
            entered = true;
            while (!release) {
                sleep(1);
            }
        }, "contender");
        Thread.State whileHeld;
        synchronized (lock) {
            contender.start();
            whileHeld = awaitState(contender, Thread.State.BLOCKED);
            count++;
        }
        long deadline = System.currentTimeMillis() + LIMIT_MILLIS;
        while (!entered && System.currentTimeMillis() < deadline) {
            Thread.sleep(1);
        }
        release = true;
        contender.join();
        return "while the lock was held: " + whileHeld + ", entered " + entered + ", count " + count
                + ", at the end: " + contender.getState();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }

    /** Polls {@code thread}'s state until it is {@code wanted} or the limit passes, and returns the last one seen. */
    private static Thread.State awaitState(Thread thread, Thread.State wanted) throws InterruptedException {
        long deadline = System.currentTimeMillis() + LIMIT_MILLIS;
        Thread.State state = thread.getState();
        while (state != wanted && System.currentTimeMillis() < deadline) {
            Thread.sleep(1);
            state = thread.getState();
        }
        return state;
    }
}
