package org.picothreads.targets.carriers;

/** Sleeps for the targets of this package, turning an interrupt (which none of them expects) into a failure. */
final class Pause {
    private Pause() {
    }

    /** {@code Thread.sleep(millis)}; an interrupt fails the calling thread. */
    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }

    /** Starts every thread, then joins every one. */
    static void startAndJoin(Thread... threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
