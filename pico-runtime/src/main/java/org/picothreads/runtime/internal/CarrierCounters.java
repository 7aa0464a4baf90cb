package org.picothreads.runtime.internal;

/**
 * The counters of {@link org.picothreads.runtime.PicoThreads.Statistics} that each carrier keeps for itself while it
 * runs PicoThreads, and that the scheduler sums over its carriers (and keeps for those that have ended).
 */
final class CarrierCounters {
    long suspensions;
    long resumes;
    long pinnedBlocks;
    long foreignFramePins;
    long framesChecked;
    long framesTrustedByCaller;
    long steals;
    long activationsSaved;
    long activationsRestored;
    long capturesEndedByReturn;

    /** Adds these counts to {@code total}. */
    void addTo(CarrierCounters total) {
        total.suspensions += suspensions;
        total.resumes += resumes;
        total.pinnedBlocks += pinnedBlocks;
        total.foreignFramePins += foreignFramePins;
        total.framesChecked += framesChecked;
        total.framesTrustedByCaller += framesTrustedByCaller;
        total.steals += steals;
        total.activationsSaved += activationsSaved;
        total.activationsRestored += activationsRestored;
        total.capturesEndedByReturn += capturesEndedByReturn;
    }
}
