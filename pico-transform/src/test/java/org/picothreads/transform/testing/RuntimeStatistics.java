package org.picothreads.transform.testing;

import org.picothreads.runtime.PicoThreads;

/**
 * A snapshot of the PicoThreads runtime's counters, read from {@link PicoThreads#statistics()}: the one place
 * the tests read them. Read by a platform thread, they are as recent as the last join of a PicoThread.
 *
 * @param threadsStarted    PicoThreads started so far
 * @param threadsTerminated PicoThreads that have finished
 * @param liveThreads       PicoThreads started and not yet finished
 * @param suspensions       how many times a PicoThread suspended by capture
 * @param resumes           how many times a suspended PicoThread was resumed
 * @param pinnedBlocks      how many blocking calls blocked the carrier for real because they could not suspend
 * @param foreignFramePins  of those, how many pinned because a frame that was not rewritten stood in the way
 * @param framesChecked     captures preceded by the walk that checks every frame on the carrier stack
 * @param framesTrustedByCaller captures that skipped the walk because a restored activation made the call
 * @param activationsSaved  activations of rewritten methods that captures saved
 * @param activationsRestored saved activations that resumes re-entered
 * @param unseenBlocks      carriers the watchdog found blocked in code the runtime does not see and compensated for
 * @param capturesEndedByReturn captures the runtime ended by returning to the restored activation that called it
 */
public record RuntimeStatistics(long threadsStarted, long threadsTerminated, long liveThreads, long suspensions,
        long resumes, long pinnedBlocks, long foreignFramePins, long framesChecked, long framesTrustedByCaller,
        long activationsSaved, long activationsRestored, long unseenBlocks, long capturesEndedByReturn) {

    /** The runtime's counters now. */
    public static RuntimeStatistics now() {
        PicoThreads.Statistics statistics = PicoThreads.statistics();
        return new RuntimeStatistics(statistics.threadsStarted(), statistics.threadsTerminated(),
                statistics.liveThreads(), statistics.suspensions(), statistics.resumes(), statistics.pinnedBlocks(),
                statistics.foreignFramePins(), statistics.framesChecked(), statistics.framesTrustedByCaller(),
                statistics.activationsSaved(), statistics.activationsRestored(), statistics.unseenBlocks(),
                statistics.capturesEndedByReturn());
    }

    /** How much each counter changed between an earlier snapshot and this one. */
    public RuntimeStatistics since(RuntimeStatistics earlier) {
        return new RuntimeStatistics(
                threadsStarted - earlier.threadsStarted,
                threadsTerminated - earlier.threadsTerminated,
                liveThreads - earlier.liveThreads,
                suspensions - earlier.suspensions,
                resumes - earlier.resumes,
                pinnedBlocks - earlier.pinnedBlocks,
                foreignFramePins - earlier.foreignFramePins,
                framesChecked - earlier.framesChecked,
                framesTrustedByCaller - earlier.framesTrustedByCaller,
                activationsSaved - earlier.activationsSaved,
                activationsRestored - earlier.activationsRestored,
                unseenBlocks - earlier.unseenBlocks,
                capturesEndedByReturn - earlier.capturesEndedByReturn);
    }
}
