package org.picothreads.net;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Serializes the transfers in one direction of one socket (its writes, or its refills), as java.net's stream locks
 * do: a holder may wait for the channel partway, and others wait for it. Taking a free lock is one compare-and-set
 * and allocates nothing. A caller that finds it held joins a queue (made at the first contention) and parks, which
 * suspends only a PicoThread (this class is rewritten); releasing unparks the first queued thread. Neither side takes
 * a monitor, so a release never waits, even for a woken thread that has not run yet. Not reentrant, not fair; the
 * wait is not interruptible, as java.net's is not (an interrupt meanwhile stays set).
 *
 * <p>No wake-up is lost: a waiter joins the queue before it tries the lock again, and a release clears the owner
 * before it reads the queue, so either the waiter's try sees the lock free or the release sees the waiter. A woken
 * waiter that loses the lock to a newcomer stays first and is woken again by the newcomer's release.
 *
 * <p>Public only for pico-net's internal package, whose emulated channels keep a pair ({@code EmulatedChannelWaits}); that
 * package is not rewritten, so the lock itself must live here. Not for programs.
 */
public final class TransferLock {
    private static final VarHandle OWNER;
    private static final VarHandle WAITERS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(TransferLock.class, "owner", Thread.class);
            WAITERS = lookup.findVarHandle(TransferLock.class, "waiters", Queue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The thread holding the lock, or null. */
    private volatile Thread owner;
    /** The threads waiting for the lock, first to be woken first; null until a caller first finds the lock held. */
    private volatile Queue<Thread> waiters;

    /** A free lock. */
    public TransferLock() {
    }

    /** Takes the lock, waiting (a PicoThread suspended) while another thread holds it. */
    public void lock() {
        Thread caller = Thread.currentThread();
        if (!OWNER.compareAndSet(this, null, caller)) {
            lockAfterWaiting(caller);
        }
    }

    /** Takes the lock if it is free: true when the caller now holds it; never waits. */
    public boolean tryLock() {
        return OWNER.compareAndSet(this, null, Thread.currentThread());
    }

    /** Releases the lock, which the caller holds, and wakes the first thread waiting for it. */
    public void unlock() {
        owner = null;
        Queue<Thread> queue = waiters;
        if (queue != null) {
            Thread first = queue.peek();
            if (first != null) {
                LockSupport.unpark(first);
            }
        }
    }

    private void lockAfterWaiting(Thread caller) {
        Queue<Thread> queue = waiters();
        queue.add(caller);
        boolean interrupted = false;
        try {
            while (!OWNER.compareAndSet(this, null, caller)) {
                LockSupport.park(this);
                // park returns at once while the status is set: keep it aside and set it again at the end
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
        } finally {
            queue.remove(caller);
        }
        if (interrupted) {
            caller.interrupt();
        }
    }

    private Queue<Thread> waiters() {
        Queue<Thread> queue = waiters;
        if (queue == null) {
            Queue<Thread> made = new ConcurrentLinkedQueue<>();
            queue = WAITERS.compareAndSet(this, null, made) ? made : waiters;
        }
        return queue;
    }
}
