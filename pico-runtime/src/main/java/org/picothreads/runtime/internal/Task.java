package org.picothreads.runtime.internal;

/**
 * The scheduler's record of one PicoThread: its saved continuation and its scheduling state.
 * (Skeleton: the scheduler fills in the rest.)
 */
public final class Task {
    /** The chain of saved frames, outermost first; null while the thread runs or before it first ran. */
    Frame savedFrames;
    /** How many pinned regions the running code is inside; blocking calls block for real while above zero. */
    int pinDepth;
    /** How many times this task has suspended by capture. */
    long suspensions;
}
