package org.picothreads.runtime.concurrent;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The StampedLock that rewritten code creates: waiting for the read or the write lock suspends only the calling
 * PicoThread, and PicoThreads and platform threads may use it together in any combination. The state and the
 * stamps are the superclass's: a blocking acquire retries the superclass's non-blocking one, and every method that
 * can release or weaken a lock wakes the waiters to try again. The views {@link #asReadLock()},
 * {@link #asWriteLock()} and {@link #asReadWriteLock()} are the runtime's, so that their unlock wakes the waiters
 * too.
 */
public class PicoStampedLock extends StampedLock {
    private static final long serialVersionUID = 1L;

    /** The threads waiting for either lock, with the lock of their check; made again on deserialization. */
    private transient volatile WaitingThreads waiting = new WaitingThreads();
    private transient volatile Lock readView;
    private transient volatile Lock writeView;
    private transient volatile ReadWriteLock readWriteView;

    /** As {@link StampedLock#StampedLock()}. */
    public PicoStampedLock() {
        super();
    }

    /** The waiting threads; the object itself is the internal lock of their check and registration. */
    private static final class WaitingThreads {
        final WaitQueue queue = new WaitQueue();
    }

    @Override
    public long writeLock() {
        return acquireWithin(true);
    }

    @Override
    public long writeLockInterruptibly() throws InterruptedException {
        return acquireInterruptiblyWithin(true, -1);
    }

    @Override
    public long tryWriteLock(long time, TimeUnit unit) throws InterruptedException {
        return acquireInterruptiblyWithin(true, Math.max(0, unit.toNanos(time)));
    }

    @Override
    public long readLock() {
        return acquireWithin(false);
    }

    @Override
    public long readLockInterruptibly() throws InterruptedException {
        return acquireInterruptiblyWithin(false, -1);
    }

    @Override
    public long tryReadLock(long time, TimeUnit unit) throws InterruptedException {
        return acquireInterruptiblyWithin(false, Math.max(0, unit.toNanos(time)));
    }

    /**
     * The blocking primitive behind the interruptible and timed acquires: the stamp, or 0 when {@code nanos} (if
     * not negative) passed first.
     */
    final long acquireInterruptiblyWithin(boolean write, long nanos) throws InterruptedException {
        WaitingThreads held = waiting;
        Waiter waiter = Waiter.enter(held, nanos);
        boolean acquired = waiter.await(held.queue, () -> tryNow(write, waiter), true, this);
        return acquired ? waiter.count : 0L;
    }

    /** The blocking primitive behind writeLock and readLock, which ignore interrupts and keep the status. */
    final long acquireWithin(boolean write) {
        WaitingThreads held = waiting;
        Waiter waiter = Waiter.enter(held, -1);
        try {
            waiter.await(held.queue, () -> tryNow(write, waiter), false, this);
        } catch (InterruptedException impossible) {
            throw new IllegalStateException(impossible);
        }
        return waiter.count;
    }

    /** Under the internal lock: one non-blocking attempt of the superclass, keeping its stamp in the waiter. */
    private boolean tryNow(boolean write, Waiter waiter) {
        long stamp = write ? super.tryWriteLock() : super.tryReadLock();
        waiter.count = stamp;
        return stamp != 0L;
    }

    @Override
    public void unlockWrite(long stamp) {
        super.unlockWrite(stamp);
        wakeWaiters();
    }

    @Override
    public void unlockRead(long stamp) {
        super.unlockRead(stamp);
        wakeWaiters();
    }

    @Override
    public void unlock(long stamp) {
        super.unlock(stamp);
        wakeWaiters();
    }

    @Override
    public long tryConvertToReadLock(long stamp) {
        long converted = super.tryConvertToReadLock(stamp);
        wakeWaiters();
        return converted;
    }

    @Override
    public long tryConvertToOptimisticRead(long stamp) {
        long converted = super.tryConvertToOptimisticRead(stamp);
        wakeWaiters();
        return converted;
    }

    @Override
    public boolean tryUnlockWrite() {
        return wakeWaitersIf(super.tryUnlockWrite());
    }

    @Override
    public boolean tryUnlockRead() {
        return wakeWaitersIf(super.tryUnlockRead());
    }

    @Override
    public Lock asReadLock() {
        Lock view = readView;
        if (view == null) {
            view = new View(false);
            readView = view;
        }
        return view;
    }

    @Override
    public Lock asWriteLock() {
        Lock view = writeView;
        if (view == null) {
            view = new View(true);
            writeView = view;
        }
        return view;
    }

    @Override
    public ReadWriteLock asReadWriteLock() {
        ReadWriteLock view = readWriteView;
        if (view == null) {
            view = new ReadWriteLock() {
                @Override
                public Lock readLock() {
                    return asReadLock();
                }

                @Override
                public Lock writeLock() {
                    return asWriteLock();
                }
            };
            readWriteView = view;
        }
        return view;
    }

    /** The read or the write lock as a plain Lock without stamps, as the JDK's views are. */
    private final class View implements Lock {
        private final boolean write;

        View(boolean write) {
            this.write = write;
        }

        @Override
        public void lock() {
            acquireWithin(write);
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            acquireInterruptiblyWithin(write, -1);
        }

        @Override
        public boolean tryLock() {
            return (write ? tryWriteLock() : tryReadLock()) != 0L;
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            return acquireInterruptiblyWithin(write, Math.max(0, unit.toNanos(time))) != 0L;
        }

        @Override
        public void unlock() {
            if (!(write ? tryUnlockWrite() : tryUnlockRead())) {
                throw new IllegalMonitorStateException();
            }
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException();
        }
    }

    private boolean wakeWaitersIf(boolean released) {
        if (released) {
            wakeWaiters();
        }
        return released;
    }

    /** Wakes every waiting thread to try again, after a change that may have released or weakened a lock. */
    private void wakeWaiters() {
        WaitingThreads held = waiting;
        synchronized (held) {
            held.queue.wakeAll();
        }
    }

    /** Comes back unlocked, as the JDK's does, with no waiting thread. */
    private void readObject(ObjectInputStream input) throws IOException, ClassNotFoundException {
        input.defaultReadObject();
        waiting = new WaitingThreads();
    }
}
