package org.picothreads.runtime.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * One thread's wait on a runtime synchronizer, and the retry loop by which it waits; a PicoThread's wait survives
 * its suspensions, a platform thread's parks that thread with {@link LockSupport}.
 *
 * <p>Every blocking method of the runtime's java.util.concurrent types starts with {@link #enter(Object, long)}.
 * Called by a PicoThread, that calls {@link Continuation#resumingPrimitive()} first; when the call is the
 * re-invocation that ends a restore, it returns the waiter the first invocation created (kept in the task), with
 * its deadline, queue membership and progress, so the wait continues instead of starting over. The method then
 * loops:
 * <pre>
 *   interrupt status set          interruptible: leave the queue, clear it, throw InterruptedException
 *                                 otherwise: clear it now, set it again when the wait ends
 *   synchronized (guard):
 *     the operation succeeds      leave the queue, return
 *     the deadline has passed     leave the queue (passing on an unused wake-up), return false
 *     otherwise                   join the queue (once)
 *   park                          a PicoThread: Scheduler.park, which throws the capture signal, or returns when
 *                                 the thread is pinned, or at once when a permit is pending; a platform thread:
 *                                 LockSupport.park. Either may return spuriously, so loop.
 * </pre>
 * The guard is a short internal lock of the synchronizer, never held across a park; platform threads and the
 * carrier take it alike, which makes the check and the registration atomic against a wake-up from any thread.
 */
public final class Waiter {
    /** Longest timeout kept as given; longer ones are cut to it so that the deadline cannot overflow. */
    private static final long LONGEST_TIMEOUT_NANOS = Long.MAX_VALUE / 4;

    /** The waiting PicoThread's task, or null for a platform thread. */
    final Task task;
    /** The waiting thread as user code sees it: the PicoThread, or the platform thread. */
    final Thread thread;
    /** The guard of the synchronizer this wait belongs to; identifies the wait on re-invocation. */
    final Object guard;
    /** The queue this waiter is linked in, or null. */
    WaitQueue queue;
    Waiter previous;
    Waiter next;
    /** The wait the task was in when this one started (a blocking call made inside another's retry loop), or null. */
    private Waiter enclosing;
    /** True when a wake-up removed this waiter from its queue and it has not used it yet. */
    boolean signalled;
    /** True during the first invocation of the blocking call; false when it continues after a suspension. */
    private boolean fresh;
    private boolean timed;
    private long deadline;
    /** An interrupt arrived during a wait that is not interruptible; the status is set again when it ends. */
    private boolean interruptDeferred;

    /** The step a wait of several steps has reached (Condition.await: waiting for a signal, reacquiring). */
    public int step;
    /** A number the synchronizer keeps across suspensions (a saved hold count, an arrival index). */
    public long count;
    /** An object the synchronizer keeps across suspensions (an item handed over, a generation). */
    public Object attachment;

    private Waiter(Task task, Thread thread, Object guard) {
        this.task = task;
        this.thread = thread;
        this.guard = guard;
        this.fresh = true;
    }

    /** Decides one attempt of a blocking operation; called with the guard held. */
    @FunctionalInterface
    public interface Attempt {
        /** True when the operation has completed. */
        boolean tryNow();
    }

    /**
     * Starts a blocking call, or continues it when a PicoThread re-invokes it at the end of a restore; must be the
     * first thing a blocking method does.
     *
     * @param guard         the synchronizer's internal lock object
     * @param timeoutNanos  how long the call may wait, or a negative value for no limit; ignored when continuing
     */
    public static Waiter enter(Object guard, long timeoutNanos) {
        Task task = Carrier.currentTaskOnThisThread();
        Waiter waiter;
        if (task == null) {
            waiter = new Waiter(null, Thread.currentThread(), guard);
        } else {
            if (Continuation.resumingPrimitive()) {
                Waiter kept = task.waiter;
                if (kept != null && kept.guard == guard) {
                    kept.fresh = false;
                    return kept;
                }
            }
            waiter = new Waiter(task, task.thread, guard);
            waiter.enclosing = task.waiter;
            task.waiter = waiter;
        }
        if (timeoutNanos >= 0) {
            waiter.timed = true;
            waiter.deadline = System.nanoTime() + Math.min(timeoutNanos, LONGEST_TIMEOUT_NANOS);
        }
        return waiter;
    }

    /**
     * Waits until {@code attempt} succeeds: the whole retry loop described above. Returns true when it succeeded,
     * false when the timeout given to {@link #enter} passed first.
     *
     * @param queue         where to wait; the synchronizer wakes it when the attempt may succeed
     * @param interruptible whether an interrupt ends the wait with InterruptedException
     * @param blocker       the object shown as what the thread waits on
     */
    public boolean await(WaitQueue queue, Attempt attempt, boolean interruptible, Object blocker)
            throws InterruptedException {
        while (true) {
            checkInterrupt(queue, interruptible);
            synchronized (guard) {
                boolean done;
                try {
                    done = attempt.tryNow();
                } catch (RuntimeException | Error failure) {
                    leave(queue);
                    finish();
                    throw failure;
                }
                if (done) {
                    queue.remove(this);
                    finish();
                    return true;
                }
                if (timedOut()) {
                    leave(queue);
                    finish();
                    return false;
                }
                queue.add(this);
            }
            park(blocker);
        }
    }

    /**
     * The interrupt part of the loop: when the thread is interrupted, an interruptible wait leaves {@code queue},
     * ends and throws InterruptedException with the status cleared; a wait that is not interruptible clears the
     * status and sets it again when it ends.
     */
    public void checkInterrupt(WaitQueue queue, boolean interruptible) throws InterruptedException {
        if (!takeInterrupt()) {
            return;
        }
        if (!interruptible) {
            interruptDeferred = true;
            return;
        }
        synchronized (guard) {
            leave(queue);
        }
        finish();
        throw new InterruptedException();
    }

    /** Clears the thread's interrupt status and returns whether it was set. */
    public boolean takeInterrupt() {
        if (task == null) {
            return Thread.interrupted();
        }
        return task.clearInterrupt();
    }

    /** Remembers an interrupt taken during a wait that is not interruptible, to set the status again at the end. */
    public void deferInterrupt() {
        interruptDeferred = true;
    }

    /**
     * Leaves {@code queue}, called with the guard held by a wait that ends without success: if a wake-up removed
     * this waiter and it was not used, wakes the next waiter in its place.
     */
    public void leave(WaitQueue queue) {
        if (!queue.remove(this) && signalled) {
            signalled = false;
            queue.wakeFirst();
        }
    }

    /** True when the call has a timeout and it has passed. */
    public boolean timedOut() {
        return timed && deadline - System.nanoTime() <= 0;
    }

    /** The nanoseconds left before the deadline (at most 0 once it passed), or Long.MAX_VALUE without a timeout. */
    public long remainingNanos() {
        return timed ? Math.max(0, deadline - System.nanoTime()) : Long.MAX_VALUE;
    }

    /** True during the first invocation of the blocking call, false when it continues after a suspension. */
    public boolean isFresh() {
        return fresh;
    }

    /** True when the waiting thread is a PicoThread. */
    public boolean isPicoThread() {
        return task != null;
    }

    /** The waiting thread as user code sees it. */
    public Thread thread() {
        return thread;
    }

    /** True while the waiter is in a queue. */
    public boolean isQueued() {
        return queue != null;
    }

    /** True when a wake-up removed this waiter from its queue (and it has not passed the wake-up on). */
    public boolean isSignalled() {
        return signalled;
    }

    /** Forgets a wake-up received, once it has been used. */
    public void clearSignal() {
        signalled = false;
    }

    /**
     * Parks the waiting thread until a wake-up, an interrupt or the deadline; called without the guard. A
     * PicoThread that can be captured does not return: the capture signal propagates, and the blocking call is
     * re-invoked when the thread is woken. Every other return may be spurious.
     */
    public void park(Object blocker) {
        parkAtMost(blocker, Long.MAX_VALUE);
    }

    /** Like {@link #park(Object)}, but for at most {@code limitNanos} (positive) as well. */
    public void parkAtMost(Object blocker, long limitNanos) {
        long nanos = Math.min(limitNanos, timed ? deadline - System.nanoTime() : Long.MAX_VALUE);
        if (nanos <= 0) {
            return;
        }
        boolean untimed = nanos == Long.MAX_VALUE;
        if (task != null) {
            Scheduler.running().park(task, untimed ? 0 : Math.min(nanos, LONGEST_TIMEOUT_NANOS), blocker);
        } else if (untimed) {
            LockSupport.park(blocker);
        } else {
            LockSupport.parkNanos(blocker, nanos);
        }
    }

    /** Parks like {@link #park(Object)} but ignores the deadline: for a step that must complete whatever the timeout. */
    public void parkUntimed(Object blocker) {
        if (task != null) {
            Scheduler.running().park(task, 0, blocker);
        } else {
            LockSupport.park(blocker);
        }
    }

    /** Forgets an interrupt deferred by {@link #deferInterrupt()}, for a wait that reports it by throwing instead. */
    public void dropDeferredInterrupt() {
        interruptDeferred = false;
    }

    /** Ends the wait: forgets it in the task (going back to an enclosing wait) and sets again an interrupt status taken meanwhile. */
    public void finish() {
        if (task != null) {
            if (task.waiter == this) {
                task.waiter = enclosing;
            }
            enclosing = null;
            if (interruptDeferred) {
                task.restoreInterrupt();
            }
        } else if (interruptDeferred) {
            thread.interrupt();
        }
        interruptDeferred = false;
    }

    /** Wakes the waiting thread (a spurious wake-up if it is no longer waiting); any thread may call this. */
    public void wake() {
        if (task != null) {
            Scheduler.running().unpark(task);
        } else {
            LockSupport.unpark(thread);
        }
    }
}
