package org.picothreads.runtime.concurrent;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Collection;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The Semaphore that rewritten code creates: acquiring suspends only the calling PicoThread, and PicoThreads and
 * platform threads may acquire and release it in any combination. The permits are the superclass's, taken with its
 * non-blocking {@code tryAcquire(int)}; every blocking acquire waits here, so the superclass's own queue stays empty.
 */
public class PicoSemaphore extends Semaphore {
    private static final long serialVersionUID = 1L;

    /** The internal lock that makes a waiter's check and registration atomic against a release. */
    private transient Object guard = new Object();
    /** Threads waiting for permits. */
    private transient WaitQueue waiters = new WaitQueue();

    /** As {@link Semaphore#Semaphore(int)}. */
    public PicoSemaphore(int permits) {
        super(permits);
    }

    /**
     * As {@link Semaphore#Semaphore(int, boolean)}. Not fair, every release wakes all waiters to try again; fair,
     * waiters take permits first come, first served, as with the JDK: a release wakes the longest waiting, which
     * keeps its place until it has its permits and then wakes the next.
     */
    public PicoSemaphore(int permits, boolean fair) {
        super(permits, fair);
    }

    @Override
    public void acquire() throws InterruptedException {
        acquirePermits(1, -1, true);
    }

    @Override
    public void acquire(int permits) throws InterruptedException {
        checkPermits(permits);
        acquirePermits(permits, -1, true);
    }

    @Override
    public void acquireUninterruptibly() {
        acquireUninterruptibly(1);
    }

    @Override
    public void acquireUninterruptibly(int permits) {
        checkPermits(permits);
        try {
            acquirePermits(permits, -1, false);
        } catch (InterruptedException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
        return acquirePermits(1, Math.max(0, unit.toNanos(timeout)), true);
    }

    @Override
    public boolean tryAcquire(int permits, long timeout, TimeUnit unit) throws InterruptedException {
        checkPermits(permits);
        return acquirePermits(permits, Math.max(0, unit.toNanos(timeout)), true);
    }

    /** The blocking primitive behind every acquire: {@code nanos} negative waits without a limit. */
    final boolean acquirePermits(int permits, long nanos, boolean interruptible) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        if (!isFair()) {
            return waiter.await(waiters, () -> take(permits), interruptible, this);
        }
        boolean acquired;
        try {
            acquired = waiter.await(waiters, () -> takeInTurn(waiter, permits), interruptible, this);
        } catch (InterruptedException interrupted) {
            wakeLongestWaiting();
            throw interrupted;
        }
        if (!acquired) {
            wakeLongestWaiting();
        }
        return acquired;
    }

    private boolean take(int permits) {
        return super.tryAcquire(permits);
    }

    /**
     * Under the guard, for a fair semaphore: takes the permits only when no other thread waits longer, and then
     * wakes the next in line, which may find permits left.
     */
    private boolean takeInTurn(Waiter waiter, int permits) {
        Waiter first = waiters.first();
        if (first != null && first != waiter || !super.tryAcquire(permits)) {
            return false;
        }
        waiters.remove(waiter);
        wakeFirstInPlace();
        return true;
    }

    /** Under the guard: wakes the longest waiting thread to try again, leaving it first in the queue. */
    private void wakeFirstInPlace() {
        Waiter first = waiters.first();
        if (first != null) {
            first.wake();
        }
    }

    private void wakeLongestWaiting() {
        synchronized (guard) {
            wakeFirstInPlace();
        }
    }

    @Override
    public void release() {
        release(1);
    }

    @Override
    public void release(int permits) {
        super.release(permits);
        synchronized (guard) {
            if (isFair()) {
                wakeFirstInPlace();
            } else {
                waiters.wakeAll();
            }
        }
    }

    /** What {@link #hasQueuedThreads()}, which is final, answers for this semaphore. */
    final boolean hasWaitingThreads() {
        synchronized (guard) {
            return !waiters.isEmpty();
        }
    }

    /** What {@link #getQueueLength()}, which is final, answers for this semaphore. */
    final int waitingThreadCount() {
        synchronized (guard) {
            return waiters.size();
        }
    }

    @Override
    protected Collection<Thread> getQueuedThreads() {
        synchronized (guard) {
            return waiters.threads();
        }
    }

    private static void checkPermits(int permits) {
        if (permits < 0) {
            throw new IllegalArgumentException();
        }
    }

    /** Reads the permits and fairness as the superclass does; no thread waits on the copy. */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        guard = new Object();
        waiters = new WaitQueue();
    }
}
