package org.picothreads.runtime.concurrent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The queue of a runtime {@code AbstractQueuedSynchronizer} or {@code AbstractQueuedLongSynchronizer}: the
 * acquire, release and condition algorithms of the JDK's final methods, run on the program's {@code tryAcquire},
 * {@code tryRelease} and their shared forms ({@link Hooks}), with threads waiting as {@link Waiter}s so that a
 * PicoThread suspends and a platform thread parks. The state stays the JDK superclass's.
 *
 * <p>A waiter stays queued while it tries to acquire, so that {@code hasQueuedPredecessors} is false for the first
 * waiter and true for every other thread, as in the JDK; a release wakes the first waiter, a waiter that acquires
 * in shared mode wakes the next one, and a waiter that gives up (timeout, interrupt, an exception from
 * {@code tryAcquire}) while first wakes the next one in its place. The program's hooks always run without this
 * queue's lock (the queue object itself) held.
 *
 * <p>A condition wait goes through the steps that its {@link Waiter} keeps across suspensions, as in
 * {@link PicoCondition}: join the condition and release the whole state; wait until a signal moves it out of the
 * condition into the acquire queue (or the timeout passes, or an interrupt arrives); acquire the saved state again,
 * whatever happens.
 */
final class SynchronizerQueue {
    /** A waiter's {@code step} while it waits to acquire in shared mode; any other step is exclusive. */
    private static final int SHARED = 1;
    /** Waiting for a signal. */
    private static final int WAITING = 2;
    /** Taking the state back after a signal. */
    private static final int REACQUIRING_SIGNALLED = 3;
    /** Taking the state back after the timeout passed. */
    private static final int REACQUIRING_TIMED_OUT = 4;
    /** Taking the state back after an interrupt ended the wait; InterruptedException follows. */
    private static final int REACQUIRING_INTERRUPTED = 5;

    /** The program's overrides of the synchronizer, with arguments and state widened to long. */
    interface Hooks {
        boolean tryAcquire(long argument);

        boolean tryRelease(long argument);

        /** True when {@code tryAcquireShared} returned a value that is not negative. */
        boolean tryAcquireShared(long argument);

        boolean tryReleaseShared(long argument);

        boolean isHeldExclusively();

        long state();
    }

    private final Hooks hooks;
    /** The threads waiting to acquire, longest waiting first. */
    private final LinkedHashSet<Waiter> queued = new LinkedHashSet<>();
    /** True once some thread has had to wait. */
    private boolean contended;

    SynchronizerQueue(Hooks hooks) {
        this.hooks = hooks;
    }

    /**
     * The blocking primitive behind the acquire methods: acquires {@code argument} in exclusive or shared mode,
     * waiting at most {@code nanos} when that is not negative; false when the time passed first.
     */
    boolean acquire(long argument, boolean shared, long nanos, boolean interruptible, Object blocker)
            throws InterruptedException {
        Waiter waiter = Waiter.enter(this, nanos);
        if (waiter.isFresh()) {
            waiter.step = shared ? SHARED : 0;
            if (interruptible && waiter.takeInterrupt()) {
                waiter.finish();
                throw new InterruptedException();
            }
        }
        boolean acquired = acquireLoop(waiter, argument, shared, interruptible, true, blocker);
        waiter.finish();
        return acquired;
    }

    /**
     * The retry loop of an acquire: tries, joins the queue after the first failure and tries once more, then
     * parks between tries. Ends the wait itself when it throws; otherwise the caller ends it.
     */
    private boolean acquireLoop(Waiter waiter, long argument, boolean shared, boolean interruptible,
            boolean honourTimeout, Object blocker) throws InterruptedException {
        while (true) {
            if (waiter.takeInterrupt()) {
                if (interruptible) {
                    giveUp(waiter);
                    waiter.finish();
                    throw new InterruptedException();
                }
                waiter.deferInterrupt();
            }
            boolean acquired;
            try {
                acquired = shared ? hooks.tryAcquireShared(argument) : hooks.tryAcquire(argument);
            } catch (RuntimeException | Error failure) {
                giveUp(waiter);
                waiter.finish();
                throw failure;
            }
            if (acquired) {
                synchronized (this) {
                    queued.remove(waiter);
                    if (shared) {
                        wakeFirst();
                    }
                }
                return true;
            }
            if (honourTimeout && waiter.timedOut()) {
                giveUp(waiter);
                return false;
            }
            synchronized (this) {
                if (queued.add(waiter)) {
                    contended = true;
                    continue;
                }
            }
            if (honourTimeout) {
                waiter.park(blocker);
            } else {
                waiter.parkUntimed(blocker);
            }
        }
    }

    /** Leaves the queue without acquiring; a first waiter passes a wake-up it may have received on to the next. */
    private void giveUp(Waiter waiter) {
        synchronized (this) {
            boolean wasFirst = !queued.isEmpty() && queued.iterator().next() == waiter;
            if (queued.remove(waiter) && wasFirst) {
                wakeFirst();
            }
        }
    }

    /** Under the lock: wakes the first waiter, which stays queued while it tries again. */
    private void wakeFirst() {
        if (!queued.isEmpty()) {
            queued.iterator().next().wake();
        }
    }

    /** release and releaseShared: runs the program's hook and, when it answers true, wakes the first waiter. */
    boolean release(long argument, boolean shared) {
        if (shared ? hooks.tryReleaseShared(argument) : hooks.tryRelease(argument)) {
            synchronized (this) {
                wakeFirst();
            }
            return true;
        }
        return false;
    }

    synchronized boolean hasQueuedThreads() {
        return !queued.isEmpty();
    }

    synchronized boolean hasContended() {
        return contended;
    }

    synchronized Thread firstQueuedThread() {
        return queued.isEmpty() ? null : queued.iterator().next().thread();
    }

    synchronized boolean isQueued(Thread thread) {
        if (thread == null) {
            throw new NullPointerException();
        }
        for (Waiter waiter : queued) {
            if (waiter.thread() == thread) {
                return true;
            }
        }
        return false;
    }

    /** True when a thread other than the caller is the first waiter. */
    boolean hasQueuedPredecessors() {
        Thread current = ThreadCalls.currentThread();
        synchronized (this) {
            return !queued.isEmpty() && queued.iterator().next().thread() != current;
        }
    }

    synchronized int queueLength() {
        return queued.size();
    }

    /** The waiting threads in the given mode, or in both when {@code shared} is null, longest waiting first. */
    synchronized Collection<Thread> queuedThreads(Boolean shared) {
        List<Thread> threads = new ArrayList<>();
        for (Waiter waiter : queued) {
            if (shared == null || shared == (waiter.step == SHARED)) {
                threads.add(waiter.thread());
            }
        }
        return threads;
    }

    /** The condition part: the threads waiting for a signal of one condition object. */
    static final class Condition {
        final WaitQueue waiters = new WaitQueue();
    }

    /**
     * The blocking primitive behind every await of a condition: returns the nanoseconds left (Long.MAX_VALUE
     * without a timeout), 0 or less when the timeout passed.
     */
    long await(Condition condition, long nanos, boolean interruptible, Object blocker) throws InterruptedException {
        Waiter waiter = Waiter.enter(this, nanos);
        if (waiter.isFresh()) {
            if (interruptible && waiter.takeInterrupt()) {
                waiter.finish();
                throw new InterruptedException();
            }
            if (!hooks.isHeldExclusively()) {
                waiter.finish();
                throw new IllegalMonitorStateException();
            }
            synchronized (this) {
                condition.waiters.add(waiter);
                waiter.step = WAITING;
            }
            long saved = hooks.state();
            boolean released = false;
            try {
                released = release(saved, false);
            } finally {
                if (!released) {
                    synchronized (this) {
                        condition.waiters.remove(waiter);
                    }
                    waiter.finish();
                }
            }
            if (!released) {
                throw new IllegalMonitorStateException();
            }
            waiter.count = saved;
        }
        while (waiter.step == WAITING) {
            if (waiter.takeInterrupt()) {
                synchronized (this) {
                    if (interruptible && condition.waiters.remove(waiter)) {
                        waiter.step = REACQUIRING_INTERRUPTED;
                        break;
                    }
                }
                waiter.deferInterrupt();
            }
            synchronized (this) {
                if (!waiter.isQueued()) {
                    waiter.clearSignal();
                    waiter.step = REACQUIRING_SIGNALLED;
                    break;
                }
                if (waiter.timedOut()) {
                    condition.waiters.remove(waiter);
                    waiter.step = REACQUIRING_TIMED_OUT;
                    break;
                }
            }
            waiter.park(blocker);
        }
        acquireLoop(waiter, waiter.count, false, false, false, blocker);
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

    /**
     * signal and signalAll: moves the first (or every) waiter of {@code condition} to the end of the acquire queue,
     * as the JDK does, and wakes it to take the state back; IllegalMonitorStateException unless the caller holds the
     * synchronizer exclusively.
     */
    void signal(Condition condition, boolean all) {
        requireHeld();
        synchronized (this) {
            for (Waiter first = condition.waiters.first(); first != null; first = condition.waiters.first()) {
                queued.add(first);
                condition.waiters.wakeFirst();
                if (!all) {
                    break;
                }
            }
        }
    }

    /** The threads awaiting {@code condition}; the caller must hold the synchronizer exclusively. */
    Collection<Thread> waitingThreads(Condition condition) {
        requireHeld();
        synchronized (this) {
            return condition.waiters.threads();
        }
    }

    private void requireHeld() {
        if (!hooks.isHeldExclusively()) {
            throw new IllegalMonitorStateException();
        }
    }
}
