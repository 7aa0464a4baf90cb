package org.picothreads.runtime.internal;

/**
 * Which platform thread currently runs the scheduler loop, and which PicoThread it is running. Both are
 * written only by that carrier thread; other threads compare {@link #thread} with themselves before they
 * trust {@link #current}.
 */
public final class Carrier {
    /** The platform thread running the scheduler loop, or null when the loop is not running. */
    static volatile Thread thread;
    /** The task the carrier is running now, or null between tasks. */
    static Task current;

    private Carrier() {
    }

    /** The running task when called on the carrier inside a PicoThread, otherwise null. */
    static Task currentTaskOnThisThread() {
        Task task = current;
        return task != null && Thread.currentThread() == thread ? task : null;
    }
}
