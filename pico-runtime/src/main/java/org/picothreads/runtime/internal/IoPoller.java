package org.picothreads.runtime.internal;

/**
 * The scheduler's hook for an I/O event source (pico-net's selector): polled by the carrier between dispatches and
 * waited on instead of parking when the carrier is idle, so that a thread suspended on I/O becomes ready when its
 * channel does. Every method but {@link #wakeup()} is called on the carrier only.
 */
public interface IoPoller {
    /**
     * Waits at most {@code timeoutNanos} for I/O readiness (0: do not wait, negative: until something is ready or
     * {@link #wakeup()} is called) and makes the threads whose operations became possible ready.
     *
     * @return true when at least one waiting thread was made ready
     */
    boolean poll(long timeoutNanos);

    /** Ends a {@link #poll(long)} in progress, or makes the next one return at once; any thread may call this. */
    void wakeup();

    /** How many threads wait for I/O through this poller now: each may still be woken by the outside world. */
    int pendingWaits();
}
