package org.picothreads.targets.carriers;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two thousand threads over one {@code ReentrantLock} and its two conditions: a thousand producers and a thousand
 * consumers pass twenty items each through a bounded buffer guarded by the lock, and every thread also increments a
 * counter under the lock with a yield between the read and the write. The counter and the checksum are exact only
 * if the lock excludes and every item arrives once.
 */
public final class LockConditionStress {
    private static final int PAIRS = 1_000;
    private static final int ITEMS = 20;
    private static final int CAPACITY = 16;
    /** How long a condition wait lasts before the program gives up on it. */
    private static final long WAIT_LIMIT_MILLIS = 10_000;

    private LockConditionStress() {
    }

    /** A bounded buffer of ints guarded by a lock with a condition for each direction. */
    private static final class Buffer {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition notFull = lock.newCondition();
        private final Condition notEmpty = lock.newCondition();
        private final int[] items = new int[CAPACITY];
        private int head;
        private int size;
        /** Incremented under the lock with a yield between its read and its write. */
        private int counter;

        boolean put(int item) throws InterruptedException {
            lock.lock();
            try {
                long nanos = TimeUnit.MILLISECONDS.toNanos(WAIT_LIMIT_MILLIS);
                while (size == CAPACITY) {
                    if (nanos <= 0) {
                        return false;
                    }
                    nanos = notFull.awaitNanos(nanos);
                }
                items[(head + size) % CAPACITY] = item;
                size++;
                notEmpty.signal();
                return true;
            } finally {
                lock.unlock();
            }
        }

        /** The next item, or -1 when none came in time. */
        int take() throws InterruptedException {
            lock.lock();
            try {
                long nanos = TimeUnit.MILLISECONDS.toNanos(WAIT_LIMIT_MILLIS);
                while (size == 0) {
                    if (nanos <= 0) {
                        return -1;
                    }
                    nanos = notEmpty.awaitNanos(nanos);
                }
                int item = items[head];
                head = (head + 1) % CAPACITY;
                size--;
                notFull.signal();
                return item;
            } finally {
                lock.unlock();
            }
        }

        void increment() {
            lock.lock();
            try {
                int read = counter;
                Thread.yield();
                counter = read + 1;
            } finally {
                lock.unlock();
            }
        }
    }

    public static String run() throws Exception {
        Buffer buffer = new Buffer();
        long[] taken = new long[PAIRS];
        int[] failures = new int[2 * PAIRS];
        Thread[] threads = new Thread[2 * PAIRS];
        for (int index = 0; index < threads.length; index++) {
            int number = index;
            threads[index] = new Thread(() -> {
                buffer.increment();
                try {
                    for (int item = 0; item < ITEMS; item++) {
                        if (number < PAIRS) {
                            if (!buffer.put(number * ITEMS + item)) {
                                failures[number]++;
                            }
                        } else {
                            int received = buffer.take();
                            if (received < 0) {
                                failures[number]++;
                            } else {
                                taken[number - PAIRS] += received;
                            }
                        }
                    }
                } catch (InterruptedException exception) {
                    failures[number]++;
                }
            });
        }
        Pause.startAndJoin(threads);
        long checksum = 0;
        for (long sum : taken) {
            checksum += sum;
        }
        int failed = 0;
        for (int count : failures) {
            failed += count;
        }
        return "threads " + threads.length + ", counter " + buffer.counter + ", items left " + buffer.size
                + ", checksum " + checksum + ", waits that timed out " + failed;
    }
}
