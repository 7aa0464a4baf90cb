package org.picothreads.runtime.internal;

/**
 * The scheduler's hook for an I/O event source (pico-net's selector): polled between dispatches and waited on
 * instead of parking by an idle carrier, so that a thread suspended on I/O becomes ready when its channel does.
 * {@link #poll(long)} is called by one carrier at a time (polls never overlap), but by any carrier; the event
 * source's own waits start and stop on any carrier, concurrently with a poll; {@link #wakeup()} and
 * {@link #pendingWaits()} may be called from any thread.
 */
public interface IoPoller {
    /**
     * Waits at most {@code timeoutNanos} for I/O readiness (0: do not wait, negative: until something is ready or
     * {@link #wakeup()} is called) and makes the threads whose operations became possible ready, from whichever
     * carrier calls it; never called by two threads at once. A wait registered during a poll that may block is
     * seen by that poll.
     *
     * @return true when at least one waiting thread was made ready
     */
    boolean poll(long timeoutNanos);

    /** Ends a {@link #poll(long)} in progress, or makes the next one return at once; any thread may call this. */
    void wakeup();

    /**
     * How many threads wait for I/O through this poller now: each may still be woken by the outside world. Any
     * thread may call this.
     */
    int pendingWaits();
}
