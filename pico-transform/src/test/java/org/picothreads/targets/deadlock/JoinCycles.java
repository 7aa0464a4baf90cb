package org.picothreads.targets.deadlock;

/**
 * A program that deadlocks on purpose, run transformed in a child JVM: "first" and "second" join each other, and
 * "dependent" joins "latch-waiter", which waits forever for itself (a latch that nobody counts down). Without the
 * argument {@code return}, main then joins "first" and waits with them. The comments {@code frame: NAME} mark the
 * lines where the threads' saved frames stopped, which the test reads from this file.
 */
public final class JoinCycles {
    private JoinCycles() {
    }

    public static void main(String[] arguments) throws InterruptedException {
        Thread[] pair = new Thread[2];
        pair[0] = new Thread(() -> joinQuietly(pair[1]), "first"); // frame: first lambda
        pair[1] = new Thread(() -> joinQuietly(pair[0]), "second"); // frame: second lambda
        Thread latchWaiter = new Thread(JoinCycles::awaitForever, "latch-waiter");
        Thread dependent = new Thread(() -> joinQuietly(latchWaiter), "dependent"); // frame: dependent lambda
        pair[0].start();
        pair[1].start();
        latchWaiter.start();
        dependent.start();
        if (arguments.length == 0 || !arguments[0].equals("return")) {
            pair[0].join();
        }
    }

    /** Joins the thread once it has started: joining a thread that has not started yet would return at once. */
    static void joinQuietly(Thread thread) {
        try {
            while (thread.getState() == Thread.State.NEW) {
                Thread.sleep(1);
            }
            thread.join(); // frame: joinQuietly
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }

    /** Waits until the current thread has terminated, which it never does. */
    static void awaitForever() {
        try {
            Thread.currentThread().join(); // frame: awaitForever
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
