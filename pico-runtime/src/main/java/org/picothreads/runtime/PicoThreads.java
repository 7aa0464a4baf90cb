package org.picothreads.runtime;

import org.picothreads.runtime.internal.Scheduler;

/**
 * The facade of the PicoThreads scheduler: choose its policy before it boots, and read its counters.
 *
 * <p>The scheduler boots when the first {@link PicoThread} starts. Without a call to {@link #configure}, it reads
 * the system properties {@code picothreads.scheduler} ({@code fifo}, {@code lifo} or {@code random}; default
 * {@code fifo}), {@code picothreads.seed} (the RANDOM policy's seed; default 0) and
 * {@code picothreads.carrierStackSize} (the carrier thread's stack, in bytes or with a k, m or g suffix;
 * default 256m).
 */
public final class PicoThreads {
    private PicoThreads() {
    }

    /**
     * Sets the scheduling policy, and the seed of the RANDOM policy, overriding the system properties.
     *
     * @throws IllegalStateException if a PicoThread has already started, so that the scheduler runs
     */
    public static void configure(SchedulingPolicy policy, long seed) {
        Scheduler.configure(policy, seed);
    }

    /** The scheduler's counters since it booted; all zero before the first PicoThread starts. */
    public static Statistics statistics() {
        return Scheduler.statistics();
    }

    /**
     * The scheduler's counters. Read on the carrier (by a PicoThread) they are exact; read by another platform
     * thread they are as recent as the last thing that thread synchronized with, a join for example.
     *
     * @param threadsStarted PicoThreads the scheduler has admitted after their start()
     * @param threadsTerminated PicoThreads that have finished, normally or by an uncaught exception
     * @param liveThreads threadsStarted minus threadsTerminated
     * @param suspensions times a PicoThread suspended by capture
     * @param resumes times a suspended PicoThread was restored
     * @param pinnedBlocks times a pinned PicoThread blocked without capture (sleep, join or yield)
     */
    public record Statistics(long threadsStarted, long threadsTerminated, long liveThreads, long suspensions,
            long resumes, long pinnedBlocks) {
    }
}
