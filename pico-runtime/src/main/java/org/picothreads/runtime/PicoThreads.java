package org.picothreads.runtime;

import java.util.concurrent.Callable;
import org.picothreads.runtime.internal.Offloads;
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
     * The dump of every live PicoThread: for each, its name, its state, what it waits on (the thread it joins, the
     * object it is parked on) and its logical stack, the saved frames from the innermost to the outermost with their
     * source lines. Any thread may call this; the carrier writes the dump between two threads' turns, and a caller
     * that is not a PicoThread waits for it at most a few seconds.
     *
     * <p>The same dump is printed to System.err at JVM shutdown with {@code -Dpicothreads.dumpOnExit=true}, every N
     * seconds with {@code -Dpicothreads.dumpIntervalSeconds=N}, and, headed {@code PicoThreads: deadlock: N threads
     * are blocked and nothing can wake them}, when every PicoThread is blocked for good; the JVM then exits with
     * status 1 ({@code -Dpicothreads.deadlockExitStatus}; {@code -Dpicothreads.deadlockDetection=false} turns the
     * detection off).
     */
    public static String dump() {
        return Scheduler.dump();
    }

    /**
     * Runs a blocking call that cannot be made asynchronous (file I/O, a native library's call) without blocking
     * the carrier: called by a PicoThread, {@code work} runs on a small pool of daemon threads
     * ({@code pico-resolver-N}, two of them, shared with name lookups) and only the calling PicoThread waits for it;
     * called by any other thread, it runs in place. Returns what {@code work} returns and throws what it throws.
     * The wait is not interruptible: an interrupt meanwhile stays set when it returns.
     */
    public static <T> T offload(Callable<T> work) throws Exception {
        return Offloads.call(work);
    }

    /**
     * The scheduler's counters, summed over the carriers: exact when no carrier is running a PicoThread, otherwise
     * as recent as each carrier's last dispatch.
     *
     * @param threadsStarted PicoThreads the scheduler has admitted after their start()
     * @param threadsTerminated PicoThreads that have finished, normally or by an uncaught exception
     * @param liveThreads threadsStarted minus threadsTerminated
     * @param suspensions times a PicoThread suspended by capture
     * @param resumes times a suspended PicoThread was restored
     * @param pinnedBlocks times a pinned PicoThread blocked its carrier for real, without capture (sleep, join, park or yield)
     * @param foreignFramePins of those, the times a frame that was not rewritten (a JDK callback such as
     *                         {@code List.forEach}, reflection) forced the pin; {@code -Dpicothreads.tracePinned=true}
     *                         prints the first stack of each such call site
     * @param framesChecked captures that went through the frame check: the walk over the carrier stack that checks
     *                      every frame was rewritten (skipped, and the capture let through, with
     *                      {@code -Dpicothreads.checkFrames=false}); with the two counters below,
     *                      {@code suspensions == framesChecked - foreignFramePins + framesTrustedByCaller}
     * @param framesTrustedByCaller captures that needed no walk, because the blocking call was made directly by an
     *                              activation that had itself been restored, whose frames were checked before
     * @param carriers the carriers running now, spares included
     * @param spareCarriersStarted carriers started beyond the configured number, to compensate for carriers that
     *                             pinned threads blocked
     * @param steals ready threads a carrier took from another carrier's run queue because its own was empty
     * @param activationsSaved saved activations (frames of rewritten methods) that captures added: a capture saves only
     *                         the activations that ran since the thread's last resume
     * @param activationsRestored saved activations re-entered: a resume re-enters the innermost one, and each further
     *                            one only when the activation above it returns
     * @param unseenBlocks times the watchdog found a carrier blocked in code the runtime does not see (a JVM monitor
     *                     or a wait inside JDK code, a blocking native call) and compensated for it as for a pinned
     *                     block ({@code -Dpicothreads.watchdog=false} turns the watchdog off)
     * @param capturesEndedByReturn captures that the runtime ended by returning to the restored activation that made
     *                              the blocking call, instead of throwing the capture signal into it (the activation
     *                              tests for a capture under way after each call into the runtime)
     */
    public record Statistics(long threadsStarted, long threadsTerminated, long liveThreads, long suspensions,
            long resumes, long pinnedBlocks, long foreignFramePins, long framesChecked, long framesTrustedByCaller,
            long carriers, long spareCarriersStarted, long steals, long activationsSaved, long activationsRestored,
            long unseenBlocks, long capturesEndedByReturn) {
    }
}
