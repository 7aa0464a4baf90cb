package org.picothreads.targets.monitors;

import java.util.ArrayList;
import java.util.List;

/**
 * wait with a timeout that expires, notify waking one waiter at a time, an interrupted wait, holdsLock,
 * and a platform thread (the caller of run) notifying PicoThreads and waiting for them.
 */
public final class WaitAndNotify {
    private static final Object SIGNAL = new Object();
    private static int released;

    private WaitAndNotify() {
    }

    public static String run() throws Exception {
        List<String> events = new ArrayList<>();
        released = 0;
        long start = System.nanoTime();
        synchronized (SIGNAL) {
            SIGNAL.wait(20);
        }
        events.add("timed wait on the caller returned after " + (System.nanoTime() - start >= 15_000_000L ? ">=15ms" : "<15ms"));

        Thread timed = new Thread(() -> {
            synchronized (SIGNAL) {
                try {
                    long begin = System.nanoTime();
                    SIGNAL.wait(30);
                    synchronized (events) {
                        events.add("timed wait in a thread returned after "
                                + (System.nanoTime() - begin >= 25_000_000L ? ">=25ms" : "<25ms")
                                + ", holding the lock: " + Thread.holdsLock(SIGNAL));
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        timed.start();
        timed.join();

        int waiters = 5;
        Thread[] threads = new Thread[waiters];
        int[] ready = new int[1];
        for (int index = 0; index < waiters; index++) {
            threads[index] = new Thread(() -> {
                synchronized (SIGNAL) {
                    ready[0]++;
                    SIGNAL.notifyAll();
                    try {
                        while (released == 0) {
                            SIGNAL.wait();
                        }
                        released--;
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            threads[index].start();
        }
        synchronized (SIGNAL) {
            while (ready[0] < waiters) {
                SIGNAL.wait();
            }
        }
        for (int round = 0; round < waiters; round++) {
            synchronized (SIGNAL) {
                released++;
                SIGNAL.notify();
            }
            Thread.sleep(5);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        events.add("all " + waiters + " waiters released one by one, left " + released);

        Thread interrupted = new Thread(() -> {
            synchronized (SIGNAL) {
                try {
                    SIGNAL.wait();
                    events.add("not interrupted");
                } catch (InterruptedException e) {
                    synchronized (events) {
                        events.add("wait interrupted, still holding the lock: " + Thread.holdsLock(SIGNAL)
                                + ", flag cleared: " + !Thread.currentThread().isInterrupted());
                    }
                }
            }
        });
        interrupted.start();
        Thread.sleep(20);
        interrupted.interrupt();
        interrupted.join();

        try {
            SIGNAL.notify();
            events.add("notify without the lock did not throw");
        } catch (IllegalMonitorStateException e) {
            events.add("notify without the lock threw IllegalMonitorStateException");
        }
        return String.join("\n", events);
    }
}
