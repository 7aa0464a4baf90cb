package org.picothreads.targets.concurrent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/** One hundred thousand short-lived threads, each sleeping 5 ms and counting down one latch the caller awaits. */
public final class HundredThousandLatchCounters {
    /** How many threads run. */
    public static final int THREADS = 100_000;

    private HundredThousandLatchCounters() {
    }

    public static String run() throws Exception {
        CountDownLatch finished = new CountDownLatch(THREADS);
        AtomicLong sum = new AtomicLong();
        for (int index = 0; index < THREADS; index++) {
            long value = index;
            new Thread(() -> {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
                sum.addAndGet(value);
                finished.countDown();
            }).start();
        }
        finished.await();
        return "threads " + THREADS + ", count " + finished.getCount() + ", sum " + sum.get();
    }
}
