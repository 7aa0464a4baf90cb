package org.picothreads.targets.concurrent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Semaphore, ReentrantLock with a Condition, and ReentrantReadWriteLock: a semaphore bounds how many threads work
 * at once and the calling (platform) thread releases permits that threads wait for; a lock guards a counter that
 * threads increment while sleeping inside it; a bounded buffer built on two conditions; timed and interrupted
 * lock waits; readers share a read lock while a writer is kept out.
 */
public final class SemaphoresAndLocks {
    private SemaphoresAndLocks() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();

        Semaphore slots = new Semaphore(2);
        int[] inside = new int[2];
        List<Thread> workers = new ArrayList<>();
        // All six start before any enters, and each stays inside long enough for a second to join it even on a
        // loaded machine, so that the semaphore, not the start-up order, bounds how many are inside at once.
        CountDownLatch allStarted = new CountDownLatch(6);
        for (int index = 0; index < 6; index++) {
            Thread worker = new Thread(() -> {
                try {
                    allStarted.countDown();
                    allStarted.await();
                    slots.acquire();
                    try {
                        synchronized (inside) {
                            inside[0]++;
                            inside[1] = Math.max(inside[1], inside[0]);
                        }
                        Thread.sleep(15);
                        synchronized (inside) {
                            inside[0]--;
                        }
                    } finally {
                        slots.release();
                    }
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
            });
            workers.add(worker);
            worker.start();
        }
        joinAll(workers);
        log.append("semaphore: most inside at once ").append(inside[1]).append(", permits ")
                .append(slots.availablePermits());

        Semaphore gate = new Semaphore(0);
        StringBuilder gated = new StringBuilder();
        CountDownLatch tried = new CountDownLatch(1);
        Thread gatedThread = new Thread(() -> {
            try {
                boolean early = gate.tryAcquire(5, TimeUnit.MILLISECONDS);
                tried.countDown();
                gate.acquire(2);
                gated.append("early ").append(early).append(", got 2");
            } catch (InterruptedException exception) {
                gated.append("interrupted");
            }
        });
        gatedThread.start();
        // Release only once the timed attempt is over and the thread waits for two permits: on a loaded machine
        // a fixed sleep could let the first release satisfy the timed attempt and leave acquire(2) short of one.
        tried.await();
        while (!gate.hasQueuedThreads()) {
            Thread.sleep(1);
        }
        gate.release();
        Thread.sleep(5);
        gate.release();
        gatedThread.join();
        log.append("\nplatform releases: ").append(gated).append(", left ").append(gate.availablePermits());

        Lock lock = new ReentrantLock();
        long[] counter = new long[1];
        workers.clear();
        for (int index = 0; index < 4; index++) {
            Thread worker = new Thread(() -> {
                for (int step = 0; step < 5; step++) {
                    lock.lock();
                    try {
                        long before = counter[0];
                        sleep(1);
                        counter[0] = before + 1;
                    } finally {
                        lock.unlock();
                    }
                }
            });
            workers.add(worker);
            worker.start();
        }
        joinAll(workers);
        log.append("\nlock: counter ").append(counter[0]);

        BoundedBuffer buffer = new BoundedBuffer(2);
        long[] consumed = new long[1];
        Thread consumer = new Thread(() -> {
            for (int item = 0; item < 20; item++) {
                consumed[0] += buffer.take();
            }
        });
        Thread producer = new Thread(() -> {
            for (int item = 1; item <= 20; item++) {
                buffer.put(item);
                if (item % 5 == 0) {
                    sleep(2);
                }
            }
        });
        consumer.start();
        producer.start();
        producer.join();
        consumer.join();
        log.append("\nconditions: consumed ").append(consumed[0]);

        ReentrantLock held = new ReentrantLock();
        StringBuilder waits = new StringBuilder();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            held.lock();
            try {
                holding.countDown();
                release.await();
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            } finally {
                held.unlock();
            }
        });
        holder.start();
        holding.await();
        Thread timedLocker = new Thread(() -> {
            try {
                waits.append("tryLock(10 ms) ").append(held.tryLock(10, TimeUnit.MILLISECONDS));
            } catch (InterruptedException exception) {
                waits.append("interrupted");
            }
        });
        timedLocker.start();
        timedLocker.join();
        Thread interruptedLocker = new Thread(() -> {
            try {
                held.lockInterruptibly();
                waits.append(", locked");
            } catch (InterruptedException exception) {
                waits.append(", lockInterruptibly interrupted, flag ").append(Thread.currentThread().isInterrupted());
            }
        });
        interruptedLocker.start();
        // Counted once it waits, so that the queue length does not depend on how loaded the machine is.
        while (interruptedLocker.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
        waits.append(", queued ").append(held.hasQueuedThreads()).append(' ').append(held.getQueueLength());
        interruptedLocker.interrupt();
        interruptedLocker.join();
        waits.append(", locked ").append(held.isLocked()).append(", mine ").append(held.isHeldByCurrentThread());
        release.countDown();
        holder.join();
        waits.append(", locked after ").append(held.isLocked());
        log.append("\nlock waits: ").append(waits);

        ReadWriteLock readWrite = new ReentrantReadWriteLock();
        CountDownLatch readersInside = new CountDownLatch(3);
        CountDownLatch writerTried = new CountDownLatch(1);
        StringBuilder shared = new StringBuilder();
        workers.clear();
        for (int index = 0; index < 3; index++) {
            Thread reader = new Thread(() -> {
                readWrite.readLock().lock();
                try {
                    readersInside.countDown();
                    boolean together = readersInside.await(10, TimeUnit.SECONDS);
                    writerTried.await();
                    synchronized (shared) {
                        shared.append(together ? 'R' : 'r');
                    }
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                } finally {
                    readWrite.readLock().unlock();
                }
            });
            workers.add(reader);
            reader.start();
        }
        readersInside.await();
        boolean writerGotIn = readWrite.writeLock().tryLock(5, TimeUnit.MILLISECONDS);
        writerTried.countDown();
        joinAll(workers);
        Thread writer = new Thread(() -> {
            readWrite.writeLock().lock();
            try {
                shared.append(" W");
            } finally {
                readWrite.writeLock().unlock();
            }
        });
        writer.start();
        writer.join();
        log.append("\nread-write: readers ").append(shared).append(", writer during reads ").append(writerGotIn);
        return log.toString();
    }

    /** A bounded buffer guarded by one lock and two conditions. */
    private static final class BoundedBuffer {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition notFull = lock.newCondition();
        private final Condition notEmpty = lock.newCondition();
        private final ArrayDeque<Integer> items = new ArrayDeque<>();
        private final int capacity;

        BoundedBuffer(int capacity) {
            this.capacity = capacity;
        }

        void put(int item) {
            lock.lock();
            try {
                while (items.size() == capacity) {
                    notFull.awaitUninterruptibly();
                }
                items.add(item);
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }

        int take() {
            lock.lock();
            try {
                while (items.isEmpty()) {
                    notEmpty.await(1, TimeUnit.MINUTES);
                }
                int item = items.remove();
                notFull.signal();
                return item;
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            } finally {
                lock.unlock();
            }
        }
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }
}
