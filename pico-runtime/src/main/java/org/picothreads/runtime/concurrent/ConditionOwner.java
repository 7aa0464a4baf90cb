package org.picothreads.runtime.concurrent;

import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/** The exclusive lock a {@link PicoCondition} belongs to; every method but {@link #guard()} runs under the guard. */
interface ConditionOwner {
    /** The lock's internal guard, which also guards its conditions. */
    Object guard();

    /** Where threads wait to acquire the lock. */
    WaitQueue acquireQueue();

    /** Queues a waiter that a signal moved from a condition to wait for the lock; not woken yet. */
    default void queueSignalled(Waiter waiter) {
        acquireQueue().add(waiter);
    }

    /** True when {@code thread} holds the lock exclusively. */
    boolean isHeldBy(Thread thread);

    /** Releases every hold of {@code thread}, which holds the lock, wakes a waiting acquirer, returns the holds. */
    int releaseFully(Thread thread);

    /** Takes the lock back for {@code thread} with the given holds if it is free; true when it did. */
    boolean tryReacquire(Thread thread, int holds);
}
