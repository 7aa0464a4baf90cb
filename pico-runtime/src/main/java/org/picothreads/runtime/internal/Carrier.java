package org.picothreads.runtime.internal;

/**
 * One of the scheduler's platform threads that run PicoThreads, and what it is doing: the PicoThread it runs, whether
 * it is re-entering that thread's saved frames, and its share of the scheduler's counters. Every field is written by
 * the carrier itself only, except where noted; a PicoThread finds its carrier as {@code Thread.currentThread()}.
 */
public final class Carrier extends Thread {
    /** The scheduler this carrier works for. */
    final Scheduler scheduler;
    /** The task this carrier is running now, or null between tasks. */
    Task current;
    /** True while this carrier re-enters the saved frames of {@link #current}; see {@link Continuation#restoring}. */
    boolean restoring;
    /** True while this carrier waits for work; written under the scheduler's lock. */
    boolean idle;
    /** How long the carrier's idle wait lasts (0 or more), or -1 until woken; set under the scheduler's lock. */
    long idleWaitNanos;
    /** Dispatches left before this carrier next polls the I/O poller while busy. */
    int dispatchesUntilIoPoll = 1;
    /** The lane this carrier takes ready threads from first, and queues the threads it makes ready on. */
    final Lane lane;
    /** The tasks whose timers this carrier found due, waiting to be woken; reused. */
    final Lane.DueTimers dueTimers = new Lane.DueTimers();

    /** The cursor through which the task this carrier runs saves and restores its activations. */
    final Frame frame = new Frame();

    /** This carrier's share of the scheduler's counters. */
    final CarrierCounters counters = new CarrierCounters();

    Carrier(Scheduler scheduler, String name, long stackSize, Lane lane) {
        super(RuntimeThreads.GROUP, null, name, stackSize, false);
        this.scheduler = scheduler;
        this.lane = lane;
        setDaemon(true);
    }

    @Override
    public void run() {
        scheduler.work(this);
    }

    /** The carrier this code runs on, or null when the caller is not a carrier. */
    static Carrier here() {
        return Thread.currentThread() instanceof Carrier carrier ? carrier : null;
    }

    /** The running task when called on a carrier inside a PicoThread, otherwise null. */
    static Task currentTaskOnThisThread() {
        return Thread.currentThread() instanceof Carrier carrier ? carrier.current : null;
    }

    /** True when {@code thread} is a carrier. */
    static boolean isCarrier(Thread thread) {
        return thread instanceof Carrier;
    }
}
