package org.picothreads.runtime.internal;

/**
 * The scheduler's hook for an I/O event source (pico-net's selectors), divided by lane: an I/O wait is registered
 * with the share of the lane whose carrier first waited on its channel, and a poll of a lane's share makes ready the
 * threads whose operations became possible there, queued on the polling carrier's lane. A carrier polls its own
 * lane's share between dispatches and when its lane runs dry, and waits on it instead of parking when idle; an idle
 * carrier also polls, without waiting, the shares of the lanes no idle carrier waits on.
 *
 * <p>Threads: polls of one lane's share never overlap ({@link #pollNow} returns at once when one is in progress,
 * {@link #poll} waits for it to end); polls of different lanes run at once, on any carriers; the event source's own
 * waits start and stop on any carrier, concurrently with polls; {@link #wakeup} and the counts may be called from any
 * thread.
 */
public interface IoPoller {
    /**
     * Polls lane {@code lane}'s share without waiting, unless another thread polls it now; any carrier may call this.
     *
     * @return true when at least one waiting thread was made ready
     */
    boolean pollNow(int lane);

    /**
     * Waits at most {@code timeoutNanos} (0: does not wait, negative: until something is ready or {@link #wakeup} is
     * called for the lane) for I/O readiness in lane {@code lane}'s share, and makes the threads whose operations
     * became possible ready; called by the lane's idle carrier. A wait registered in the share during a poll that
     * may block is seen by that poll.
     *
     * @return true when at least one waiting thread was made ready
     */
    boolean poll(int lane, long timeoutNanos);

    /** Ends a {@link #poll} of the lane in progress, or makes its next one return at once; any thread may call this. */
    void wakeup(int lane);

    /**
     * How many threads wait for I/O through this poller now, in every lane's share: each may still be woken by the
     * outside world. Any thread may call this.
     */
    int pendingWaits();

    /** How many threads wait for I/O in lane {@code lane}'s share now; any thread may call this. */
    int pendingWaits(int lane);
}
