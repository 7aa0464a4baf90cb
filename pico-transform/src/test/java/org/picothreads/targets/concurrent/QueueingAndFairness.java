package org.picothreads.targets.concurrent;

import static org.picothreads.targets.concurrent.SerializedAndFilledReplacements.waitUntil;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What the locks report about their queues and in which order they serve waiters, as the JDK does: a thread
 * woken by {@code signal()} is queued on the lock until it can take it back; a reader asking for a read/write lock
 * waits behind a writer that waits first (fair or not); a fair semaphore serves waiters first come, first served,
 * even when the first wants more permits than are free.
 */
public final class QueueingAndFairness {
    private QueueingAndFairness() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        for (boolean fair : new boolean[] {false, true}) {
            ReentrantLock lock = new ReentrantLock(fair);
            log.append(fair ? "fair" : "non-fair").append(" lock: ")
                    .append(signalledWaiterIsQueued(lock, lock.newCondition(), () -> lock.hasQueuedThreads(),
                            thread -> lock.hasQueuedThread(thread), () -> lock.getQueueLength(),
                            condition -> lock.hasWaiters(condition)))
                    .append('\n');
            ReentrantReadWriteLock readWrite = new ReentrantReadWriteLock(fair);
            log.append(fair ? "fair" : "non-fair").append(" write lock: ")
                    .append(signalledWaiterIsQueued(readWrite.writeLock(), readWrite.writeLock().newCondition(),
                            () -> readWrite.hasQueuedThreads(), thread -> readWrite.hasQueuedThread(thread),
                            () -> readWrite.getQueueLength(), condition -> readWrite.hasWaiters(condition)))
                    .append('\n');
            log.append(fair ? "fair" : "non-fair").append(" read/write lock: ")
                    .append(readerWaitsBehindWriter(new ReentrantReadWriteLock(fair))).append('\n');
            log.append(fair ? "fair" : "non-fair").append(" read/write lock, signalled writer: ")
                    .append(readerWaitsBehindSignalledWriter(new ReentrantReadWriteLock(fair))).append('\n');
            log.append(fair ? "fair" : "non-fair").append(" read/write lock, interrupted waiter: ")
                    .append(interruptedWaiterLeavesTheOthersQueued(new ReentrantReadWriteLock(fair))).append('\n');
        }
        log.append("fair semaphore: ").append(fairSemaphoreOrder());
        return log.toString();
    }

    interface Query {
        Object get() throws Exception;
    }

    interface ThreadQuery {
        Object get(Thread thread);
    }

    interface ConditionQuery {
        Object get(Condition condition);
    }

    /** A thread awaits the condition; the caller signals it and asks the lock about its queue before unlocking. */
    private static String signalledWaiterIsQueued(Lock lock, Condition condition, Query hasQueuedThreads,
            ThreadQuery hasQueuedThread, Query queueLength, ConditionQuery hasWaiters) throws Exception {
        boolean[] signalled = {false};
        Thread waiter = new Thread(() -> {
            lock.lock();
            try {
                while (!signalled[0]) {
                    condition.await();
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            } finally {
                lock.unlock();
            }
        });
        waiter.start();
        waitUntil(() -> {
            lock.lock();
            try {
                return (Boolean) hasWaiters.get(condition);
            } finally {
                lock.unlock();
            }
        });
        StringBuilder line = new StringBuilder();
        lock.lock();
        try {
            line.append("before the signal: queued ").append(hasQueuedThread.get(waiter));
            signalled[0] = true;
            condition.signal();
            line.append("; after it: waiters ").append(hasWaiters.get(condition))
                    .append(", queued threads ").append(hasQueuedThreads.get())
                    .append(", queued ").append(hasQueuedThread.get(waiter))
                    .append(", queue length ").append(queueLength.get());
        } finally {
            lock.unlock();
        }
        waiter.join();
        return line.append("; after the unlock the waiter ended, queue length ").append(queueLength.get())
                .toString();
    }

    /**
     * The caller holds the read lock; a writer waits for the write lock; then a reader asks for the read lock and
     * must wait behind the writer, which goes first when the caller unlocks.
     */
    private static String readerWaitsBehindWriter(ReentrantReadWriteLock lock) throws Exception {
        List<String> order = new ArrayList<>();
        lock.readLock().lock();
        Thread writer = new Thread(() -> {
            lock.writeLock().lock();
            synchronized (order) {
                order.add("writer");
            }
            lock.writeLock().unlock();
        });
        writer.start();
        waitUntil(() -> lock.hasQueuedThread(writer));
        Thread reader = new Thread(() -> {
            lock.readLock().lock();
            synchronized (order) {
                order.add("reader");
            }
            lock.readLock().unlock();
        });
        reader.start();
        waitUntil(() -> lock.hasQueuedThread(reader) || !reader.isAlive());
        String queued = "reader queued " + lock.hasQueuedThread(reader) + ", queue length " + lock.getQueueLength()
                + ", read locks " + lock.getReadLockCount();
        lock.readLock().unlock();
        writer.join();
        reader.join();
        synchronized (order) {
            return queued + ", order " + order;
        }
    }

    /**
     * A writer awaits a condition of the write lock; the caller signals it, takes the read lock and gives up the
     * write lock, so that the signalled writer waits for the read lock to go; a reader that comes then waits
     * behind it.
     */
    private static String readerWaitsBehindSignalledWriter(ReentrantReadWriteLock lock) throws Exception {
        List<String> order = new ArrayList<>();
        Condition condition = lock.writeLock().newCondition();
        boolean[] signalled = {false};
        Thread writer = new Thread(() -> {
            lock.writeLock().lock();
            try {
                while (!signalled[0]) {
                    condition.await();
                }
                synchronized (order) {
                    order.add("writer");
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            } finally {
                lock.writeLock().unlock();
            }
        });
        writer.start();
        waitUntil(() -> {
            lock.writeLock().lock();
            try {
                return lock.hasWaiters(condition);
            } finally {
                lock.writeLock().unlock();
            }
        });
        lock.writeLock().lock();
        signalled[0] = true;
        condition.signal();
        Thread reader = new Thread(() -> {
            lock.readLock().lock();
            synchronized (order) {
                order.add("reader");
            }
            lock.readLock().unlock();
        });
        reader.start();
        waitUntil(() -> lock.hasQueuedThread(reader));
        lock.readLock().lock();
        lock.writeLock().unlock();
        waitUntil(() -> lock.hasQueuedThread(reader) && lock.hasQueuedThread(writer));
        String queued = "queue length " + lock.getQueueLength();
        lock.readLock().unlock();
        writer.join();
        reader.join();
        synchronized (order) {
            return queued + ", order " + order;
        }
    }

    /** Two writers wait for the write lock the caller holds; the first is interrupted; the second stays queued. */
    private static String interruptedWaiterLeavesTheOthersQueued(ReentrantReadWriteLock lock) throws Exception {
        StringBuilder first = new StringBuilder();
        lock.writeLock().lock();
        Thread interrupted = new Thread(() -> {
            try {
                lock.writeLock().lockInterruptibly();
                first.append("locked");
                lock.writeLock().unlock();
            } catch (InterruptedException expected) {
                first.append("interrupted");
            }
        });
        Thread second = new Thread(() -> {
            lock.writeLock().lock();
            lock.writeLock().unlock();
        });
        interrupted.start();
        waitUntil(() -> lock.hasQueuedThread(interrupted));
        second.start();
        waitUntil(() -> lock.hasQueuedThread(second));
        interrupted.interrupt();
        interrupted.join();
        String line = "first " + first + ", then the second queued " + lock.hasQueuedThread(second)
                + ", queue length " + lock.getQueueLength();
        lock.writeLock().unlock();
        second.join();
        return line + ", after the unlock " + lock.getQueueLength();
    }

    /**
     * Three threads wait in turn for 2, 1 and 1 permits of a fair semaphore; each release frees just what the
     * first in line needs, so the order they get them in shows whether a later thread overtook.
     */
    private static String fairSemaphoreOrder() throws Exception {
        Semaphore semaphore = new Semaphore(0, true);
        List<String> order = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        String[] names = {"A", "B", "C"};
        int[] wants = {2, 1, 1};
        for (int index = 0; index < 3; index++) {
            String name = names[index];
            int permits = wants[index];
            Thread thread = new Thread(() -> {
                semaphore.acquireUninterruptibly(permits);
                synchronized (order) {
                    order.add(name);
                }
            });
            threads.add(thread);
            thread.start();
            int queued = index + 1;
            waitUntil(() -> semaphore.getQueueLength() == queued);
        }
        semaphore.release();
        String afterOne = "after one permit: queue length " + semaphore.getQueueLength() + ", permits "
                + semaphore.availablePermits();
        for (int released = 1; released < 3; released++) {
            semaphore.release();
            int done = released;
            waitUntil(() -> {
                synchronized (order) {
                    return order.size() == done;
                }
            });
        }
        semaphore.release();
        for (Thread thread : threads) {
            thread.join();
        }
        synchronized (order) {
            return afterOne + ", order " + order + ", permits " + semaphore.availablePermits();
        }
    }
}
