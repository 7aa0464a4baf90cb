package org.picothreads.runtime.internal;

/**
 * One of the scheduler's platform threads that run PicoThreads, and what it is doing: the PicoThread it runs, whether
 * it is re-entering that thread's saved frames, and its share of the scheduler's counters. Every field is written by
 * the carrier itself only, except where noted; a PicoThread finds its carrier as {@code Thread.currentThread()}.
 */
public final class Carrier extends Thread {
    /** The scheduler this carrier works for. */
    final Scheduler scheduler;
    /**
     * The task this carrier is running now, or null between tasks. Set plainly when a dispatch begins, and cleared
     * with {@link #CURRENT}'s volatile write when it ends, before the carrier reads {@link #interrupting}.
     */
    Task current;
    /** Volatile access to {@link #current}, for the hand-over of interrupts ({@link Scheduler#deliverInterrupt}). */
    static final java.lang.invoke.VarHandle CURRENT;
    /**
     * The task whose interrupt status the scheduler is copying to this carrier's own now, or null; written under the
     * scheduler's lock, waited for by the carrier at the end of its dispatch.
     */
    volatile Task interrupting;

    static {
        try {
            CURRENT = java.lang.invoke.MethodHandles.lookup().findVarHandle(Carrier.class, "current", Task.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** True while this carrier re-enters the saved frames of {@link #current}; see {@link Continuation#restoring}. */
    boolean restoring;
    /** True while this carrier waits for work; written under the scheduler's lock. */
    boolean idle;
    /**
     * True while this carrier comes after the configured number of carriers that are not blocked, in the order they
     * started: a spare whose block has ended. It takes no thread and no idle role, nobody wakes it for work, and it
     * ends once idle for the keep-alive; written under the scheduler's lock, read by the carrier without it.
     */
    volatile boolean heldBack;
    /** How long the carrier's idle wait lasts (0 or more), or -1 until woken; set under the scheduler's lock. */
    long idleWaitNanos;
    /** Dispatches left before this carrier next polls the I/O poller while busy. */
    int dispatchesUntilIoPoll = 1;
    /**
     * True while this carrier, idle, waits on its lane's share of the I/O poller ({@link Lane#idlePoller}): it is woken
     * by the poller's wake-up rather than an unpark. Written under the scheduler's lock.
     */
    volatile boolean pollingIdle;
    /** True once the scheduler woke this carrier from its wait on the I/O poller, so that it is woken once. */
    boolean pollingIdleWoken;
    /** Each lane's {@link Lane#dispatches} at this carrier's last look, between its dispatches. */
    final int[] laneDispatchesSeen;
    /** The lane this carrier takes ready threads from first, and queues the threads it makes ready on. */
    final Lane lane;
    /** The tasks whose timers this carrier found due, waiting to be woken; reused. */
    final Lane.DueTimers dueTimers = new Lane.DueTimers();

    /** The cursor through which the task this carrier runs saves and restores its activations. */
    final Frame frame = new Frame();

    /** This carrier's share of the scheduler's counters. */
    final CarrierCounters counters = new CarrierCounters();

    /** Counts this carrier's dispatches (a plain increment, wrapping), so that the {@link Watchdog} tells them apart. */
    int dispatchNumber;
    /**
     * True while the running task blocks this carrier in a pinned block that the scheduler knows of and has
     * compensated for (a pinned wait or yield); written under the scheduler's lock.
     */
    boolean pinnedBlock;
    /**
     * True while the watchdog counts this carrier as blocked in code the runtime does not see; written under the
     * scheduler's lock, read by the carrier without it after each dispatch.
     */
    boolean unseenBlock;
    /** What blocks the carrier while {@link #unseenBlock} (a thread state, or the native method); under the lock. */
    String unseenBlockHow;
    /** When the watchdog first saw the carrier blocked in its unseen block ({@link System#nanoTime}); under the lock. */
    long unseenBlockSinceNanos;

    /** The dispatch the watchdog looked at last; the watchdog's own, like the six fields below. */
    int watchedDispatch;
    /** When the watchdog first saw that dispatch, or 0 when the carrier was not dispatching. */
    long watchedSinceNanos;
    /** When the watchdog first saw the carrier blocked in that dispatch at every look since, or 0. */
    long blockedSinceNanos;
    /** When the watchdog may next look at the stack of the carrier running in that dispatch. */
    long nextStackSampleNanos;
    /** How long the watchdog waits between two looks at the stack of a carrier that computes. */
    long stackSampleIntervalNanos;
    /**
     * When the watchdog last read the carrier's CPU time, having found it in a native method known to block, or 0
     * when it was not found there at its last look in this dispatch.
     */
    long nativeCpuSampleNanos;
    /** The carrier's CPU time read then, in nanoseconds. */
    long nativeCpuNanos;

    Carrier(Scheduler scheduler, String name, long stackSize, Lane lane, int laneCount) {
        super(RuntimeThreads.GROUP, null, name, stackSize, false);
        this.scheduler = scheduler;
        this.lane = lane;
        this.laneDispatchesSeen = new int[laneCount];
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
