package org.picothreads.benchmarks.jdk;

import java.util.concurrent.atomic.AtomicInteger;

/** The code of {@code org.picothreads.benchmarks.pico.PicoSleepers}, not rewritten, with threads of a builder. */
public final class JdkSleepers {

    private JdkSleepers() {
    }

    /** Starts {@code count} daemon threads, each of which counts itself in {@code arrived} at the bottom. */
    public static Thread[] start(Thread.Builder threads, int count, int depth, long sleepMillis,
            AtomicInteger arrived) {
        Runnable body = () -> descendAndSleep(depth, sleepMillis, arrived);
        Thread[] started = new Thread[count];
        for (int index = 0; index < count; index++) {
            Thread thread = threads.unstarted(body);
            thread.setDaemon(true);
            thread.start();
            started[index] = thread;
        }
        return started;
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
