package org.picothreads.runtime.concurrent;

import java.util.List;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The state of a reentrant exclusive lock owned by a thread as user code sees it (a PicoThread or a platform
 * thread), with the queue of threads waiting for it; {@link PicoReentrantLock} keeps its lock here.
 */
final class ExclusiveLock implements ConditionOwner {
    /** The short internal lock guarding the fields below and the lock's conditions. */
    private final Object guard = new Object();
    private final WaitQueue waiters = new WaitQueue();
    private final boolean fair;
    /** The owning thread, or null when the lock is free. */
    private Thread owner;
    /** How many times the owner holds the lock. */
    private int holds;

    ExclusiveLock(boolean fair) {
        this.fair = fair;
    }

    @Override
    public Object guard() {
        return guard;
    }

    @Override
    public WaitQueue acquireQueue() {
        return waiters;
    }

    /** The blocking primitive behind lock, lockInterruptibly and timed tryLock; {@code nanos} negative: no limit. */
    boolean acquire(long nanos, boolean interruptible, Object blocker) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        return waiter.await(waiters, () -> tryAcquire(waiter.thread(), waiter), interruptible, blocker);
    }

    /** tryLock(): takes the lock if it is free or already held by the caller, ignoring fairness. */
    boolean tryAcquireNow() {
        synchronized (guard) {
            return tryAcquire(ThreadCalls.currentThread(), null);
        }
    }

    /** Under the guard: takes the lock for {@code thread}; a fair lock lets a waiter that was not first wait on. */
    private boolean tryAcquire(Thread thread, Waiter waiter) {
        if (owner == thread) {
            if (holds == Integer.MAX_VALUE) {
                throw new Error("Maximum lock count exceeded");
            }
            holds++;
            return true;
        }
        if (owner != null) {
            return false;
        }
        if (fair && waiter != null && !waiter.isSignalled() && !waiters.isEmpty() && waiters.first() != waiter) {
            return false;
        }
        owner = thread;
        holds = 1;
        return true;
    }

    /** unlock(): IllegalMonitorStateException unless the caller holds the lock. */
    void release() {
        Thread thread = ThreadCalls.currentThread();
        synchronized (guard) {
            if (owner != thread) {
                throw new IllegalMonitorStateException();
            }
            if (--holds == 0) {
                owner = null;
                waiters.wakeFirst();
            }
        }
    }

    @Override
    public boolean isHeldBy(Thread thread) {
        return owner == thread;
    }

    @Override
    public int releaseFully(Thread thread) {
        int saved = holds;
        holds = 0;
        owner = null;
        waiters.wakeFirst();
        return saved;
    }

    @Override
    public boolean tryReacquire(Thread thread, int savedHolds) {
        if (owner != null) {
            return false;
        }
        owner = thread;
        holds = savedHolds;
        return true;
    }

    /** The owner, or null. */
    Thread owner() {
        synchronized (guard) {
            return owner;
        }
    }

    /** The caller's holds, 0 when it does not hold the lock. */
    int holdCountOfCurrentThread() {
        Thread thread = ThreadCalls.currentThread();
        synchronized (guard) {
            return owner == thread ? holds : 0;
        }
    }

    boolean isFair() {
        return fair;
    }

    /** The waiting threads, longest waiting first. */
    List<Thread> waitingThreads() {
        synchronized (guard) {
            return waiters.threads();
        }
    }

    boolean isWaiting(Thread thread) {
        synchronized (guard) {
            return waiters.contains(thread);
        }
    }
}
