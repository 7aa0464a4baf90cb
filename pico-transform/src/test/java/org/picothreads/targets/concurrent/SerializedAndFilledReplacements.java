package org.picothreads.targets.concurrent;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The java.util.concurrent types after a serialization round trip and after the constructors that take a
 * collection: each copy keeps what the JDK's keeps (elements, permits, fairness; a lock comes back unlocked), and
 * its blocking methods still work between threads. Also DelayQueue.remove(), which JDK 21 declares anew.
 */
public final class SerializedAndFilledReplacements {
    private SerializedAndFilledReplacements() {
    }

    /** A delayed element that has already expired. */
    static final class Expired implements Delayed {
        private final int value;

        Expired(int value) {
            this.value = value;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return -value;
        }

        @Override
        public int compareTo(Delayed other) {
            return Integer.compare(((Expired) other).value, value);
        }

        @Override
        public String toString() {
            return "expired " + value;
        }
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();

        ArrayBlockingQueue<Integer> array = new ArrayBlockingQueue<>(3, true, List.of(1, 2));
        log.append(queueCopy("array", serialClone(array), 3));
        log.append(queueCopy("linked", serialClone(new LinkedBlockingQueue<>(List.of(1, 2))), 3));
        LinkedBlockingQueue<Integer> bounded = new LinkedBlockingQueue<>(3);
        bounded.add(1);
        bounded.add(2);
        log.append(queueCopy("bounded linked", serialClone(bounded), 3));
        log.append(queueCopy("deque", serialClone(new LinkedBlockingDeque<>(Arrays.asList(1, 2))), 3));
        log.append(queueCopy("priority", serialClone(new PriorityBlockingQueue<>(List.of(2, 1))), 3));
        log.append(handOff("synchronous copy", serialClone(new SynchronousQueue<Integer>(true))));
        for (boolean fair : new boolean[] {false, true}) {
            SynchronousQueue<Integer> original = new SynchronousQueue<>(fair);
            log.append("synchronous queue, fair ").append(fair).append(": its copy serializes as it does ")
                    .append(Arrays.equals(serialBytes(original), serialBytes(serialClone(original))))
                    .append(", as an unfair one does ")
                    .append(Arrays.equals(serialBytes(serialClone(original)), serialBytes(new SynchronousQueue<>())))
                    .append('\n');
        }

        log.append(queueCopy("deque from a collection", new LinkedBlockingDeque<>(Arrays.asList(1, 2)), 3));
        log.append(queueCopy("priority from a collection", new PriorityBlockingQueue<>(Arrays.asList(2, 1)), 3));
        log.append(queueCopy("linked from a collection", new LinkedBlockingQueue<>(Arrays.asList(1, 2)), 3));
        log.append(queueCopy("array from a collection", new ArrayBlockingQueue<>(3, false, Arrays.asList(1, 2)), 3));

        DelayQueue<Expired> delays = new DelayQueue<>(Arrays.asList(new Expired(1), new Expired(2)));
        log.append("delay queue from a collection: size ").append(delays.size());
        log.append(", remove() ").append(delays.remove());
        log.append(", take() ").append(delays.take());
        try {
            delays.remove();
            log.append(", remove() on empty returned");
        } catch (NoSuchElementException expected) {
            log.append(", remove() on empty throws");
        }
        Thread delayTaker = new Thread(() -> {
            try {
                delays.take();
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        delayTaker.start();
        waitUntil(() -> delayTaker.getState() == Thread.State.WAITING);
        delays.add(new Expired(3));
        delayTaker.join();
        log.append(", a waiting take got the added element ").append(delays.isEmpty()).append('\n');

        ReentrantLock held = new ReentrantLock(true);
        held.lock();
        ReentrantLock lockCopy = serialClone(held);
        held.unlock();
        log.append("lock copy: fair ").append(lockCopy.isFair()).append(", locked ").append(lockCopy.isLocked());
        Condition ready = lockCopy.newCondition();
        boolean[] signalled = {false};
        Thread awaiting = new Thread(() -> {
            lockCopy.lock();
            try {
                while (!signalled[0]) {
                    ready.await();
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            } finally {
                lockCopy.unlock();
            }
        });
        awaiting.start();
        waitUntil(() -> {
            lockCopy.lock();
            try {
                return lockCopy.hasWaiters(ready);
            } finally {
                lockCopy.unlock();
            }
        });
        lockCopy.lock();
        signalled[0] = true;
        ready.signal();
        lockCopy.unlock();
        awaiting.join();
        log.append(", a thread awaited its condition and was signalled; unlocked ").append(!lockCopy.isLocked())
                .append('\n');

        ReentrantReadWriteLock readWrite = new ReentrantReadWriteLock(true);
        readWrite.writeLock().lock();
        ReentrantReadWriteLock readWriteCopy = serialClone(readWrite);
        readWrite.writeLock().unlock();
        log.append("read/write lock copy: fair ").append(readWriteCopy.isFair()).append(", write locked ")
                .append(readWriteCopy.isWriteLocked());
        readWriteCopy.readLock().lock();
        Thread writer = new Thread(() -> {
            readWriteCopy.writeLock().lock();
            readWriteCopy.writeLock().unlock();
        });
        writer.start();
        waitUntil(() -> readWriteCopy.hasQueuedThread(writer));
        readWriteCopy.readLock().unlock();
        writer.join();
        log.append(", a writer waited for the read lock and got it");
        ReentrantReadWriteLock.ReadLock readLockCopy = serialClone(new ReentrantReadWriteLock().readLock());
        log.append("; a copy of a read lock alone: tryLock ").append(readLockCopy.tryLock());
        readLockCopy.unlock();
        log.append('\n');

        Semaphore permits = new Semaphore(3, true);
        permits.acquire();
        Semaphore permitsCopy = serialClone(permits);
        log.append("semaphore copy: fair ").append(permitsCopy.isFair()).append(", permits ")
                .append(permitsCopy.availablePermits());
        permitsCopy.acquire(2);
        Thread acquirer = new Thread(() -> permitsCopy.acquireUninterruptibly());
        acquirer.start();
        waitUntil(() -> permitsCopy.getQueueLength() == 1);
        permitsCopy.release();
        acquirer.join();
        log.append(", a waiting acquire got a released permit, permits ").append(permitsCopy.availablePermits());
        return log.toString();
    }

    /** What a queue holds, then a take that waits in another thread until the caller puts. */
    private static String queueCopy(String name, BlockingQueue<Integer> queue, int next) throws Exception {
        StringBuilder line = new StringBuilder(name).append(": size ").append(queue.size())
                .append(", poll ").append(queue.poll()).append(", take ").append(queue.take());
        int[] taken = {0};
        Thread taker = new Thread(() -> {
            try {
                taken[0] = queue.take();
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        taker.start();
        waitUntil(() -> taker.getState() == Thread.State.WAITING);
        queue.put(next);
        taker.join();
        return line.append(", a waiting take got ").append(taken[0]).append('\n').toString();
    }

    private static String handOff(String name, SynchronousQueue<Integer> queue) throws Exception {
        int[] taken = {0};
        Thread taker = new Thread(() -> {
            try {
                taken[0] = queue.take();
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        taker.start();
        queue.put(7);
        taker.join();
        return name + ": fair hand-off of " + taken[0] + "\n";
    }

    @SuppressWarnings("unchecked")
    static <T> T serialClone(T object) throws Exception {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(serialBytes(object)))) {
            return (T) in.readObject();
        }
    }

    static byte[] serialBytes(Object object) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        return bytes.toByteArray();
    }

    /** A condition that another thread makes true. */
    interface Check {
        boolean holds() throws Exception;
    }

    /** Waits, sleeping a millisecond at a time, until {@code check} holds; fails after 20 seconds. */
    static void waitUntil(Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!check.holds()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("not reached within 20 s");
            }
            Thread.sleep(1);
        }
    }
}
