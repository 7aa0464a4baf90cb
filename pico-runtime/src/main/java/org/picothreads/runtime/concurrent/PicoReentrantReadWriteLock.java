package org.picothreads.runtime.concurrent;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The ReentrantReadWriteLock that rewritten code creates: waiting for its read or write lock, or for a condition of
 * its write lock, suspends only the calling PicoThread, and PicoThreads and platform threads may share it. Holders
 * are threads as user code sees them; the state lives here, not in the superclass. A writer may also take the read
 * lock (downgrading); a reader asking for the write lock waits forever, as with the JDK. A thread asking for a
 * lock it does not hold waits behind earlier waiters as the JDK's lock makes it: behind every one when the lock is
 * fair, behind a writer waiting first when it is not. The final query methods
 * ({@code hasQueuedThreads}, {@code hasQueuedThread}, {@code getQueueLength}) are reached through
 * {@link ConcurrentCalls}.
 */
public class PicoReentrantReadWriteLock extends ReentrantReadWriteLock {
    private static final long serialVersionUID = 1L;

    // The fields below are made by the constructor and made again by readObject: a deserialized lock is unlocked,
    // as the JDK's is, with the fairness it had.
    /** The internal lock guarding the fields below. */
    private transient Object guard;
    /**
     * Readers and writers waiting, in one queue; every release wakes them all to re-check. A writer's waiter has
     * the write lock as its attachment, so that a reader can see a writer waiting first.
     */
    private transient WaitQueue waiters;
    /** The read holds of each reading thread. */
    private transient Map<Thread, Integer> readHolds;
    private transient int readCount;
    private transient Thread writer;
    private transient int writeHolds;
    private transient PicoReadLock readLock;
    private transient PicoWriteLock writeLock;
    /** The write side, as the owner of the write lock's conditions. */
    private transient ConditionOwner writeSide;

    /** As {@link ReentrantReadWriteLock#ReentrantReadWriteLock()}. */
    public PicoReentrantReadWriteLock() {
        this(false);
    }

    /** As {@link ReentrantReadWriteLock#ReentrantReadWriteLock(boolean)}. */
    @SuppressWarnings("this-escape")
    public PicoReentrantReadWriteLock(boolean fair) {
        super(fair);
        createState();
    }

    /** Makes the lock's state, unlocked with no waiters. */
    private void createState() {
        guard = new Object();
        waiters = new WaitQueue();
        readHolds = new HashMap<>();
        readLock = new PicoReadLock(this);
        writeLock = new PicoWriteLock(this);
        writeSide = new WriteSide();
    }

    /** Reads the fairness as the superclass does; the copy is unlocked. */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        createState();
    }

    @Override
    public ReentrantReadWriteLock.ReadLock readLock() {
        return readLock;
    }

    @Override
    public ReentrantReadWriteLock.WriteLock writeLock() {
        return writeLock;
    }

    /** The blocking primitive behind the read lock's lock, lockInterruptibly and timed tryLock. */
    final boolean acquireRead(long nanos, boolean interruptible) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        return acquire(waiter, () -> readInTurn(waiter), interruptible, readLock);
    }

    /**
     * Under the guard: takes the read lock for a waiting reader unless it must let a waiter go first; then wakes
     * the next in line, which may be a reader that was waiting behind this one.
     */
    private boolean readInTurn(Waiter waiter) {
        if (readerMustWait(waiter) || !tryRead(waiter.thread())) {
            return false;
        }
        waiters.remove(waiter);
        wakeFirstInPlace();
        return true;
    }

    /** The blocking primitive behind the write lock's lock, lockInterruptibly and timed tryLock. */
    final boolean acquireWrite(long nanos, boolean interruptible) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        waiter.attachment = writeLock;
        return acquire(waiter, () -> !writerMustWait(waiter) && tryWrite(waiter.thread(), 1), interruptible,
                writeLock);
    }

    /**
     * Waits until {@code attempt} succeeds; a wait that ends without the lock (timeout, interrupt) wakes the thread
     * now first in line, which may have been held back only because this one waited before it.
     */
    private boolean acquire(Waiter waiter, Waiter.Attempt attempt, boolean interruptible, Object blocker)
            throws InterruptedException {
        boolean acquired;
        try {
            acquired = waiter.await(waiters, attempt, interruptible, blocker);
        } catch (InterruptedException interrupted) {
            wakeLongestWaiting();
            throw interrupted;
        }
        if (!acquired) {
            wakeLongestWaiting();
        }
        return acquired;
    }

    private void wakeLongestWaiting() {
        synchronized (guard) {
            wakeFirstInPlace();
        }
    }

    /** Under the guard: wakes the longest waiting thread to try again, leaving it first in the queue. */
    private void wakeFirstInPlace() {
        Waiter first = waiters.first();
        if (first != null) {
            first.wake();
        }
    }

    /**
     * Under the guard: true when a reader that holds neither lock must let a waiting thread go first, as the JDK
     * decides: a fair lock serves every waiter in order; a non-fair one lets readers pass unless the longest
     * waiting thread wants the write lock.
     */
    private boolean readerMustWait(Waiter waiter) {
        Thread thread = waiter.thread();
        if (writer == thread || readHolds.containsKey(thread)) {
            return false;
        }
        Waiter first = waiters.first();
        if (first == null || first == waiter) {
            return false;
        }
        return isFair() || first.attachment == writeLock;
    }

    /** Under the guard: true when a fair lock makes a writer that does not hold it let an earlier waiter go first. */
    private boolean writerMustWait(Waiter waiter) {
        Waiter first = waiters.first();
        return isFair() && writer != waiter.thread() && first != null && first != waiter;
    }

    private boolean tryRead(Thread thread) {
        if (writer != null && writer != thread) {
            return false;
        }
        readHolds.merge(thread, 1, Integer::sum);
        readCount++;
        return true;
    }

    private boolean tryWrite(Thread thread, int holds) {
        if (writer == thread) {
            writeHolds += holds;
            return true;
        }
        if (writer != null || readCount > 0) {
            return false;
        }
        writer = thread;
        writeHolds = holds;
        return true;
    }

    private boolean tryReadNow() {
        synchronized (guard) {
            return tryRead(ThreadCalls.currentThread());
        }
    }

    private boolean tryWriteNow() {
        synchronized (guard) {
            return tryWrite(ThreadCalls.currentThread(), 1);
        }
    }

    private void releaseRead() {
        Thread thread = ThreadCalls.currentThread();
        synchronized (guard) {
            Integer holds = readHolds.get(thread);
            if (holds == null) {
                throw new IllegalMonitorStateException("attempt to unlock read lock, not locked by current thread");
            }
            if (holds == 1) {
                readHolds.remove(thread);
            } else {
                readHolds.put(thread, holds - 1);
            }
            if (--readCount == 0) {
                waiters.wakeAllInPlace();
            }
        }
    }

    private void releaseWrite() {
        Thread thread = ThreadCalls.currentThread();
        synchronized (guard) {
            if (writer != thread) {
                throw new IllegalMonitorStateException();
            }
            if (--writeHolds == 0) {
                writer = null;
                waiters.wakeAllInPlace();
            }
        }
    }

    @Override
    public int getReadLockCount() {
        synchronized (guard) {
            return readCount;
        }
    }

    @Override
    public boolean isWriteLocked() {
        synchronized (guard) {
            return writer != null;
        }
    }

    @Override
    public boolean isWriteLockedByCurrentThread() {
        Thread thread = ThreadCalls.currentThread();
        synchronized (guard) {
            return writer == thread;
        }
    }

    @Override
    public int getWriteHoldCount() {
        Thread thread = ThreadCalls.currentThread();
        synchronized (guard) {
            return writer == thread ? writeHolds : 0;
        }
    }

    @Override
    public int getReadHoldCount() {
        Thread thread = ThreadCalls.currentThread();
        synchronized (guard) {
            return readHolds.getOrDefault(thread, 0);
        }
    }

    @Override
    protected Thread getOwner() {
        synchronized (guard) {
            return writer;
        }
    }

    @Override
    protected Collection<Thread> getQueuedThreads() {
        synchronized (guard) {
            return waiters.threads();
        }
    }

    @Override
    protected Collection<Thread> getQueuedWriterThreads() {
        return getQueuedThreads();
    }

    @Override
    protected Collection<Thread> getQueuedReaderThreads() {
        return getQueuedThreads();
    }

    @Override
    public boolean hasWaiters(Condition condition) {
        return ownCondition(condition).hasWaiters();
    }

    @Override
    public int getWaitQueueLength(Condition condition) {
        return ownCondition(condition).waitQueueLength();
    }

    @Override
    protected Collection<Thread> getWaitingThreads(Condition condition) {
        return ownCondition(condition).waitingThreads();
    }

    @Override
    public String toString() {
        int writes;
        int reads;
        synchronized (guard) {
            writes = writeHolds;
            reads = readCount;
        }
        return JdkNames.identity(this, PicoReentrantReadWriteLock.class, ReentrantReadWriteLock.class)
                + "[Write locks = " + writes + ", Read locks = " + reads + "]";
    }

    /** What the final {@code hasQueuedThreads} and {@code getQueueLength} answer, through {@link ConcurrentCalls}. */
    final int waitingThreadCount() {
        synchronized (guard) {
            return waiters.size();
        }
    }

    /** What the final {@code hasQueuedThread} answers, through {@link ConcurrentCalls}. */
    final boolean isWaiting(Thread thread) {
        synchronized (guard) {
            return waiters.contains(thread);
        }
    }

    private PicoCondition ownCondition(Condition condition) {
        if (condition == null) {
            throw new NullPointerException();
        }
        if (!(condition instanceof PicoCondition) || !((PicoCondition) condition).belongsTo(writeSide)) {
            throw new IllegalArgumentException("not owner");
        }
        return (PicoCondition) condition;
    }

    /** The write lock as the owner of its conditions. */
    private final class WriteSide implements ConditionOwner {
        @Override
        public Object guard() {
            return guard;
        }

        @Override
        public WaitQueue acquireQueue() {
            return waiters;
        }

        /** Marks the waiter as a writer, which a reader that comes later waits behind. */
        @Override
        public void queueSignalled(Waiter waiter) {
            waiter.attachment = writeLock;
            waiters.add(waiter);
        }

        @Override
        public boolean isHeldBy(Thread thread) {
            return writer == thread;
        }

        @Override
        public int releaseFully(Thread thread) {
            int saved = writeHolds;
            writeHolds = 0;
            writer = null;
            waiters.wakeAllInPlace();
            return saved;
        }

        @Override
        public boolean tryReacquire(Thread thread, int holds) {
            return tryWrite(thread, holds);
        }
    }

    /** The read lock of a {@link PicoReentrantReadWriteLock}. */
    public static class PicoReadLock extends ReentrantReadWriteLock.ReadLock {
        private static final long serialVersionUID = 1L;

        /** The lock this belongs to; serialized with it, so that a copy of this lock alone works too. */
        private final PicoReentrantReadWriteLock owner;

        /** The read lock of {@code lock}. */
        protected PicoReadLock(PicoReentrantReadWriteLock lock) {
            super(lock);
            owner = lock;
        }

        @Override
        public void lock() {
            try {
                owner.acquireRead(-1, false);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            owner.acquireRead(-1, true);
        }

        @Override
        public boolean tryLock() {
            return owner.tryReadNow();
        }

        @Override
        public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
            return owner.acquireRead(Math.max(0, unit.toNanos(timeout)), true);
        }

        @Override
        public void unlock() {
            owner.releaseRead();
        }

        @Override
        public String toString() {
            return JdkNames.identity(this, PicoReadLock.class, ReentrantReadWriteLock.ReadLock.class)
                    + "[Read locks = " + owner.getReadLockCount() + "]";
        }
    }

    /** The write lock of a {@link PicoReentrantReadWriteLock}. */
    public static class PicoWriteLock extends ReentrantReadWriteLock.WriteLock {
        private static final long serialVersionUID = 1L;

        /** The lock this belongs to; serialized with it, so that a copy of this lock alone works too. */
        private final PicoReentrantReadWriteLock owner;

        /** The write lock of {@code lock}. */
        protected PicoWriteLock(PicoReentrantReadWriteLock lock) {
            super(lock);
            owner = lock;
        }

        @Override
        public void lock() {
            try {
                owner.acquireWrite(-1, false);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            owner.acquireWrite(-1, true);
        }

        @Override
        public boolean tryLock() {
            return owner.tryWriteNow();
        }

        @Override
        public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
            return owner.acquireWrite(Math.max(0, unit.toNanos(timeout)), true);
        }

        @Override
        public void unlock() {
            owner.releaseWrite();
        }

        @Override
        public Condition newCondition() {
            return new PicoCondition(owner.writeSide);
        }

        @Override
        public boolean isHeldByCurrentThread() {
            return owner.isWriteLockedByCurrentThread();
        }

        @Override
        public int getHoldCount() {
            return owner.getWriteHoldCount();
        }

        @Override
        public String toString() {
            Thread holder = owner.getOwner();
            return JdkNames.identity(this, PicoWriteLock.class, ReentrantReadWriteLock.WriteLock.class)
                    + (holder == null ? "[Unlocked]" : "[Locked by thread " + holder.getName() + "]");
        }
    }
}
