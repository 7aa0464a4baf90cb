package org.picothreads.runtime.concurrent;

import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * A Condition of a runtime lock ({@link PicoReentrantLock}, the write lock of {@link PicoReentrantReadWriteLock}):
 * awaiting it releases the lock and suspends only the calling PicoThread, and it may be awaited and signalled by
 * PicoThreads and platform threads in any combination.
 *
 * <p>An await goes through three steps, which its {@link Waiter} keeps across suspensions: release the lock and
 * join the condition's queue; wait until a signal moves it from that queue to the lock's (or the timeout passes,
 * or an interrupt arrives); take the lock back with the saved holds, whatever happens meanwhile.
 */
final class PicoCondition implements Condition {
    /** Waiting for a signal. */
    private static final int WAITING = 1;
    /** Taking the lock back after a signal. */
    private static final int REACQUIRING_SIGNALLED = 2;
    /** Taking the lock back after the timeout passed. */
    private static final int REACQUIRING_TIMED_OUT = 3;
    /** Taking the lock back after an interrupt ended the wait; InterruptedException follows. */
    private static final int REACQUIRING_INTERRUPTED = 4;

    private final ConditionOwner lock;
    /** Threads waiting for a signal. */
    private final WaitQueue waiters = new WaitQueue();

    PicoCondition(ConditionOwner lock) {
        this.lock = lock;
    }

    @Override
    public void await() throws InterruptedException {
        awaitSignal(-1, true);
    }

    @Override
    public void awaitUninterruptibly() {
        try {
            awaitSignal(-1, false);
        } catch (InterruptedException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        return awaitSignal(Math.max(0, nanosTimeout), true);
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        return awaitSignal(Math.max(0, unit.toNanos(time)), true) > 0;
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        long millis = deadline.getTime() - System.currentTimeMillis();
        return awaitSignal(Math.max(0, TimeUnit.MILLISECONDS.toNanos(millis)), true) > 0;
    }

    /**
     * The blocking primitive behind every await: returns the nanoseconds left (Long.MAX_VALUE without a timeout),
     * 0 or less when the timeout passed.
     */
    long awaitSignal(long nanos, boolean interruptible) throws InterruptedException {
        Object guard = lock.guard();
        Waiter waiter = Waiter.enter(guard, nanos);
        Thread thread = waiter.thread();
        if (waiter.isFresh()) {
            if (interruptible && waiter.takeInterrupt()) {
                waiter.finish();
                throw new InterruptedException();
            }
            synchronized (guard) {
                if (!lock.isHeldBy(thread)) {
                    waiter.finish();
                    throw new IllegalMonitorStateException();
                }
                waiter.count = lock.releaseFully(thread);
                waiters.add(waiter);
                waiter.step = WAITING;
            }
        }
        while (waiter.step == WAITING) {
            if (waiter.takeInterrupt()) {
                synchronized (guard) {
                    if (interruptible && waiters.remove(waiter)) {
                        waiter.step = REACQUIRING_INTERRUPTED;
                        break;
                    }
                }
                waiter.deferInterrupt();
            }
            synchronized (guard) {
                if (waiter.step != WAITING) {
                    break;
                }
                if (waiter.timedOut()) {
                    waiters.remove(waiter);
                    waiter.step = REACQUIRING_TIMED_OUT;
                    break;
                }
            }
            waiter.park(this);
        }
        WaitQueue acquireQueue = lock.acquireQueue();
        while (true) {
            if (waiter.takeInterrupt()) {
                waiter.deferInterrupt();
            }
            synchronized (guard) {
                if (lock.tryReacquire(thread, (int) waiter.count)) {
                    acquireQueue.remove(waiter);
                    break;
                }
                acquireQueue.add(waiter);
            }
            waiter.parkUntimed(this);
        }
        int outcome = waiter.step;
        if (outcome == REACQUIRING_INTERRUPTED) {
            waiter.dropDeferredInterrupt();
            waiter.finish();
            throw new InterruptedException();
        }
        long remaining = outcome == REACQUIRING_TIMED_OUT ? 0 : waiter.remainingNanos();
        waiter.finish();
        return outcome == REACQUIRING_SIGNALLED && remaining == 0 ? 1 : remaining;
    }

    @Override
    public void signal() {
        synchronized (lock.guard()) {
            requireHeld();
            Waiter first = waiters.first();
            if (first != null) {
                transfer(first);
            }
        }
    }

    @Override
    public void signalAll() {
        synchronized (lock.guard()) {
            requireHeld();
            for (Waiter first = waiters.first(); first != null; first = waiters.first()) {
                transfer(first);
            }
        }
    }

    /**
     * Under the guard: moves a signalled waiter from this condition's queue to the lock's, as the JDK does, so that
     * the lock reports it as queued; the lock's release wakes it to take the lock back.
     */
    private void transfer(Waiter waiter) {
        waiters.remove(waiter);
        waiter.step = REACQUIRING_SIGNALLED;
        lock.queueSignalled(waiter);
    }

    /** True when some thread awaits this condition; the caller must hold the lock. */
    boolean hasWaiters() {
        synchronized (lock.guard()) {
            requireHeld();
            return !waiters.isEmpty();
        }
    }

    /** How many threads await this condition; the caller must hold the lock. */
    int waitQueueLength() {
        synchronized (lock.guard()) {
            requireHeld();
            return waiters.size();
        }
    }

    /** The threads awaiting this condition; the caller must hold the lock. */
    List<Thread> waitingThreads() {
        synchronized (lock.guard()) {
            requireHeld();
            return waiters.threads();
        }
    }

    /** True when this condition belongs to {@code owner}. */
    boolean belongsTo(ConditionOwner owner) {
        return lock == owner;
    }

    private void requireHeld() {
        if (!lock.isHeldBy(ThreadCalls.currentThread())) {
            throw new IllegalMonitorStateException();
        }
    }
}
