package org.picothreads.targets.carriers;

/**
 * Two thousand threads over shared monitors: each increments one of twenty shared counters ten times, with a yield
 * between the read and the write inside {@code synchronized}, and half of them then hand values to the other half
 * through a one-slot mailbox per pair, with {@code wait} and {@code notifyAll}. The counts and the checksum are
 * exact only if every monitor excludes and every handoff arrives once.
 */
public final class MonitorStress {
    private static final int THREADS = 2_000;
    private static final int COUNTERS = 20;
    private static final int INCREMENTS = 10;
    private static final int HANDOFFS = 20;
    /** How long a mailbox wait lasts before the program gives up on it. */
    private static final long WAIT_LIMIT_MILLIS = 10_000;

    private MonitorStress() {
    }

    /** A counter whose increment yields between its read and its write. */
    private static final class Counter {
        private int value;

        synchronized void increment() {
            int read = value;
            Thread.yield();
            value = read + 1;
        }

        synchronized int value() {
            return value;
        }
    }

    /** One slot passed from a producer to a consumer with wait and notifyAll. */
    private static final class Mailbox {
        private boolean full;
        private int item;

        synchronized boolean put(int value) throws InterruptedException {
            long deadline = System.currentTimeMillis() + WAIT_LIMIT_MILLIS;
            while (full) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return false;
                }
                wait(left);
            }
            item = value;
            full = true;
            notifyAll();
            return true;
        }

        /** The next item, or -1 when none came in time. */
        synchronized int take() throws InterruptedException {
            long deadline = System.currentTimeMillis() + WAIT_LIMIT_MILLIS;
            while (!full) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return -1;
                }
                wait(left);
            }
            full = false;
            notifyAll();
            return item;
        }
    }

    public static String run() throws Exception {
        Counter[] counters = new Counter[COUNTERS];
        for (int index = 0; index < COUNTERS; index++) {
            counters[index] = new Counter();
        }
        Mailbox[] mailboxes = new Mailbox[THREADS / 2];
        for (int index = 0; index < mailboxes.length; index++) {
            mailboxes[index] = new Mailbox();
        }
        long[] received = new long[THREADS / 2];
        int[] failures = new int[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int number = index;
            threads[index] = new Thread(() -> {
                Counter counter = counters[number % COUNTERS];
                for (int round = 0; round < INCREMENTS; round++) {
                    counter.increment();
                }
                Mailbox mailbox = mailboxes[number / 2];
                try {
                    for (int handoff = 0; handoff < HANDOFFS; handoff++) {
                        if (number % 2 == 0) {
                            if (!mailbox.put(number * HANDOFFS + handoff)) {
                                failures[number]++;
                            }
                        } else {
                            int item = mailbox.take();
                            if (item < 0) {
                                failures[number]++;
                            } else {
                                received[number / 2] += item;
                            }
                        }
                    }
                } catch (InterruptedException exception) {
                    failures[number]++;
                }
            });
        }
        Pause.startAndJoin(threads);
        int total = 0;
        int exactCounters = 0;
        for (Counter counter : counters) {
            total += counter.value();
            if (counter.value() == THREADS / COUNTERS * INCREMENTS) {
                exactCounters++;
            }
        }
        long checksum = 0;
        for (long sum : received) {
            checksum += sum;
        }
        int failed = 0;
        for (int count : failures) {
            failed += count;
        }
        return "threads " + THREADS + ", counter total " + total + ", counters exact " + exactCounters + " of "
                + COUNTERS + ", handoff checksum " + checksum + ", handoffs that timed out " + failed;
    }
}
