package org.picothreads.runtime.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * {@link LockSupport}'s park and unpark for PicoThreads: a PicoThread parks by suspending (it keeps its own permit
 * in its task), a platform thread parks as LockSupport parks it, and unparking works from either kind of thread
 * for either kind of thread.
 */
public final class Parking {
    private Parking() {
    }

    /**
     * {@code LockSupport.park(blocker)} and {@code parkNanos(blocker, nanos)}: parks the current thread until it is
     * unparked, interrupted, or (when {@code nanos} is positive) that much time has passed; {@code nanos} of 0 or
     * less with {@code timed} returns at once. May return spuriously, as LockSupport's does. A PicoThread re-invoked
     * at the end of a restore returns at once: its park is over.
     */
    public static void park(Object blocker, boolean timed, long nanos) {
        Task task = taskToPark(blocker, timed, nanos);
        if (task != null) {
            Scheduler.running().park(task, timed ? nanos : 0, blocker);
        }
    }

    /**
     * {@link #park}, for a caller that parks only to wait for something that has not happened yet (pico-net's I/O
     * waits, registered with the poller just before): the frame check is made here, above the scheduler's frames, so
     * its walk fetches four frames fewer ({@link CaptureSafety#checksAhead}). A park that a pending permit ends at
     * once has walked for nothing, which is why the runtime's own locks and queues, whose parks a permit often
     * ends, call {@link #park}.
     */
    public static void parkAfterFrameCheck(Object blocker, boolean timed, long nanos) {
        Task task = taskToPark(blocker, timed, nanos);
        if (task == null) {
            return;
        }
        try {
            if (CaptureSafety.checksAhead(task)) {
                task.framesCheckedAhead = CaptureSafety.walkerAhead().walk(CaptureSafety.CHECK_AHEAD) == null;
            }
            Scheduler.running().park(task, timed ? nanos : 0, blocker);
        } finally {
            task.framesCheckedAhead = false;
        }
    }

    /**
     * The running PicoThread's task when the park is still to be made, or null when it is over: a platform thread
     * parked here with LockSupport, a PicoThread re-invoked at the end of a restore, or a timed park with no time
     * left. Returns before the park's frame check, so that it adds no frame to the walk.
     */
    private static Task taskToPark(Object blocker, boolean timed, long nanos) {
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            if (!timed) {
                LockSupport.park(blocker);
            } else if (nanos > 0) {
                LockSupport.parkNanos(blocker, nanos);
            }
            return null;
        }
        return Continuation.resumingPrimitive() || timed && nanos <= 0 ? null : task;
    }

    /** {@code LockSupport.unpark(thread)}: for a PicoThread, wakes it or gives it a permit; null is ignored. */
    public static void unpark(Thread thread) {
        if (thread == null) {
            return;
        }
        Task task = Task.of(thread);
        if (task == null) {
            LockSupport.unpark(thread);
            return;
        }
        Scheduler scheduler = Scheduler.running();
        if (scheduler != null && task.isAlive()) {
            scheduler.unpark(task);
        }
    }

    /**
     * {@code LockSupport.getBlocker(thread)}: for a PicoThread, the blocker given to the park it is in (a runtime
     * lock, queue or condition waits with itself as the blocker), or null when it is not parked; read without
     * synchronization, as the JDK's is.
     */
    public static Object blocker(Thread thread) {
        Task task = Task.of(thread);
        if (task == null) {
            return LockSupport.getBlocker(thread);
        }
        Object blocker = task.blocker;
        byte state = task.state();
        return state == Task.PARKED || state == Task.PARKED_TIMED ? blocker : null;
    }

    /** True when the caller runs as a PicoThread on the carrier. */
    public static boolean onPicoThread() {
        return Carrier.currentTaskOnThisThread() != null;
    }
}
