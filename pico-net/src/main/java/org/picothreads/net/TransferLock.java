package org.picothreads.net;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Serializes the transfers in one direction of one socket (its writes, or its refills), as java.net's stream locks
 * do: a holder may wait for the channel partway, and others wait for it. Taking a free lock is one compare-and-set
 * and allocates nothing; only a caller that finds it held waits on this object's monitor, which is a runtime monitor
 * for a PicoThread (this class is rewritten). Not reentrant; the wait is not interruptible, as java.net's is not (an
 * interrupt meanwhile stays set).
 */
final class TransferLock {
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(TransferLock.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The thread holding the lock, or null. */
    private volatile Thread owner;
    /** Threads waiting on the monitor for the lock; changed under the monitor. */
    private volatile int waiting;

    void lock() {
        Thread caller = Thread.currentThread();
        if (OWNER.compareAndSet(this, null, caller)) {
            return;
        }
        boolean interrupted = false;
        synchronized (this) {
            waiting++;
            try {
                while (!OWNER.compareAndSet(this, null, caller)) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            } finally {
                waiting--;
            }
        }
        if (interrupted) {
            caller.interrupt();
        }
    }

    void unlock() {
        owner = null;
        if (waiting > 0) {
            synchronized (this) {
                notifyAll();
            }
        }
    }
}
