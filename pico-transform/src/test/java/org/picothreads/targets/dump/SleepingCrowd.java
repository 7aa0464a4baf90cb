package org.picothreads.targets.dump;

/**
 * Starts many threads that sleep until interrupted, for a test that takes the thread dump while they sleep. The
 * comment {@code frame: nap} marks the line their innermost saved frame stops at.
 */
public final class SleepingCrowd {
    private SleepingCrowd() {
    }

    /** Starts {@code count} threads named {@code sleeper-N}, each sleeping until interrupted. */
    public static Thread[] start(int count) {
        Thread[] threads = new Thread[count];
        for (int index = 0; index < count; index++) {
            threads[index] = new Thread(SleepingCrowd::nap, "sleeper-" + index);
            threads[index].start();
        }
        return threads;
    }

    /** Interrupts the threads and waits until each has ended. */
    public static void stop(Thread[] threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.interrupt();
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    static void nap() {
        try {
            Thread.sleep(600_000); // frame: nap
        } catch (InterruptedException exception) {
            return;
        }
    }
}
