package org.picothreads.benchmarks.pico;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts threads that descend a number of frames and sleep there, for the footprint harness; rewritten by the
 * plugin, so they are PicoThreads. {@code org.picothreads.benchmarks.jdk.JdkSleepers} is the same code for
 * virtual and platform threads.
 */
public final class PicoSleepers {

    private PicoSleepers() {
    }

    /** Starts {@code count} daemon threads, each of which counts itself in {@code arrived} at the bottom. */
    public static Thread[] start(int count, int depth, long sleepMillis, AtomicInteger arrived) {
        Runnable body = () -> descendAndSleep(depth, sleepMillis, arrived);
        Thread[] threads = new Thread[count];
        for (int index = 0; index < count; index++) {
            threads[index] = new Thread(body);
            threads[index].setDaemon(true);
            threads[index].start();
        }
        return threads;
    }

    static int descendAndSleep(int depth, long sleepMillis, AtomicInteger arrived) {
        if (depth > 1) {
            return descendAndSleep(depth - 1, sleepMillis, arrived) + 1;
        }
        arrived.incrementAndGet();
        try {
            Thread.sleep(sleepMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 1;
    }

    /** Joins the given threads. */
    public static void joinAll(Thread[] threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
