package org.picothreads.runtime.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.picothreads.runtime.PicoThreads;
import org.picothreads.runtime.SchedulingPolicy;

/**
 * The scheduler: daemon platform threads, the carriers (one per available processor unless
 * {@code picothreads.carriers} says otherwise), that run PicoThreads until each returns or suspends.
 *
 * <pre>
 * each carrier, one round:
 *   1. make the tasks whose timers are due ready (each lane's, under that lane's timer lock, earliest first);
 *      take one ready task (FIFO, LIFO or RANDOM) from its own lane, else from another lane (it steals), under that
 *      lane's queue lock, and mark it running and dispatched
 *   2. dispatch it, outside any lock:
 *        restoring (this carrier) = task has suspended before; current = task; task.thread.run()
 *          returns      -> terminated: wake its joiners
 *          Capture      -> suspended: the blocking call already armed its wake-up; a wake-up that came while the
 *                          capture unwound made it ready again, and the carrier queues it on its lane now
 *          throws       -> uncaught exception handler, then terminated
 *   3. or, when no task is ready, announce itself idle under the scheduler's lock, look at the lanes once more,
 *      and wait: for I/O (one idle carrier per lane waits on its lane's share of the I/O poller), for the next
 *      timer deadline (one idle carrier),
 *      or until woken for new work (the others); a spare carrier idle for SPARE_KEEPALIVE ends
 * </pre>
 *
 * <p>A waker (a timer, an unpark, an I/O poll, an interrupt, a joined thread's end) ends a task's wait by
 * compare-and-set on the task's status ({@link Task}) and queues it on its own carrier's lane, or, from a platform
 * thread, on the lane the task last ran on; it takes the scheduler's lock only when a carrier is idle or missing
 * (hints read without the lock say so), to wake or start one.
 *
 * <p>A thread that must block but cannot be captured (it is pinned) blocks its carrier for real, see
 * {@link #blockPinned}, so the JVM's monitor, class-initialization and lock semantics hold for it exactly as for a
 * platform thread; while it does, the scheduler compensates by starting a spare carrier, so that as many carriers as
 * configured stay able to run PicoThreads, up to {@code picothreads.maxCarriers} in all. A carrier blocked where the
 * runtime does not see it (inside JDK code, in a blocking native call) is found by the {@link Watchdog}, which has
 * the scheduler compensate for it in the same way ({@link #beginUnseenBlock}).
 *
 * <p>Each configured carrier has a {@link Lane}: its run queue and its timers, each under a lock of its own. The
 * scheduler's {@link #lock} guards only the carriers themselves (started, idle, blocked, their idle roles); the list
 * of live tasks has a lock of its own. No lock is held while user code runs or a carrier waits. With one carrier
 * there is one lane, and the policies order the tasks exactly as the paper's scheduler does: the same program and seed
 * give the same interleaving (unless a pinned thread blocks, when a spare carrier runs the others meanwhile).
 */
public final class Scheduler {
    /** Longest wait that is armed as given; longer ones are cut to it so that deadlines cannot overflow. */
    private static final long LONGEST_WAIT_NANOS = Long.MAX_VALUE / 4;
    /** The timer deadline of a pinned wait that armed no timer. */
    private static final long NO_DEADLINE = 0;
    /**
     * The most lanes there are: carriers beyond this many share them, so that a carrier's look at every lane's hints
     * between two dispatches stays short.
     */
    private static final int MOST_LANES = 64;
    /** How long a carrier beyond the configured number stays idle before it ends. */
    private static final long SPARE_KEEPALIVE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long a pinned thread's yield lets a spare carrier run the others before it continues. */
    private static final long PINNED_YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /**
     * How long another thread's {@code getStackTrace} waits for a capture under way to end before it gives up and
     * answers an empty trace.
     */
    private static final long CAPTURE_SETTLING_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * Fewest dispatches between two polls of the I/O poller by a busy carrier while tasks are ready, so that I/O is
     * never starved; when more threads are ready, a carrier polls once per round of them.
     */
    private static final int DISPATCHES_PER_IO_POLL = 64;
    /**
     * Longest wait of an idle carrier on its lane's share of the I/O poller while another lane's share has waits and
     * no idle carrier of its own: each time it wakes, it polls that share without waiting, for the case where that
     * lane's carriers are all inside one long dispatch (a computation, a pinned or unseen block).
     */
    private static final long UNCOVERED_LANE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * How long a carrier that found no ready thread looks at the lanes' hints before it announces itself idle and
     * parks: a thread made ready meanwhile is taken without the park and the unpark (two futex calls), and its waker,
     * seeing no idle carrier, takes no lock.
     */
    private static final long IDLE_SPIN_NANOS = 20_000;

    private static final Object bootLock = new Object();
    private static volatile Scheduler instance;
    /** The policy set through {@link PicoThreads#configure}, or null to read the system properties. */
    private static SchedulingPolicy configuredPolicy;
    private static long configuredSeed;
    /** The I/O event source installed by pico-net, or null while no program uses it. */
    private static volatile IoPoller poller;

    private final SchedulingPolicy policy;
    private final long seed;
    /** How many carriers run PicoThreads when none is blocked. */
    private final int parallelism;
    /** The most carriers there may be, compensation included. */
    private final int mostCarriers;
    private final long carrierStackSize;

    /** One per configured carrier (at most {@link #MOST_LANES}): its run queue and its timers, each under its own lock. */
    private final Lane[] lanes;

    /**
     * Guards the carriers: those started, idle and blocked, and the idle roles; never held while user code runs or
     * anyone waits, and never taken by a thread holding a lane's lock.
     */
    private final Object lock = new Object();
    /** Every carrier started and not ended. */
    private final List<Carrier> carriers = new ArrayList<>();
    /** The carriers parked for lack of work, the latest to park first; the one polling I/O is not among them. */
    private final ArrayDeque<Carrier> idleCarriers = new ArrayDeque<>();
    /**
     * How many carriers are blocked for real by a pinned task, or, as the watchdog found, in code the runtime does not
     * see; written under the lock.
     */
    private volatile int blockedCarriers;
    /** How many of those the watchdog found blocked in code the runtime does not see; written under the lock. */
    private volatile int unseenBlockedCarriers;
    /** How many times the watchdog began an unseen block; under the lock. */
    private long unseenBlocks;
    /** The watchdog, or null when picothreads.watchdog is false. */
    private Watchdog watchdog;
    /**
     * How many idle carriers wait on their lane's share of the I/O poller ({@link Lane#idlePoller}); written under the
     * lock, read without it as a hint.
     */
    private volatile int idlePollers;
    /** How many of those have not been woken for new work yet (each is woken once); under the lock. */
    private int idlePollersUnwoken;
    /** The idle carrier that waits for the next timer deadline, or null; written under the lock. */
    private volatile Carrier timerWaiting;
    /** The deadline {@link #timerWaiting} waits for; written under the lock. */
    private volatile long timerWaitingDeadline;
    /** The idle carrier that looks for a deadlock, or null. */
    private Carrier deadlockWatching;
    /** Numbers the carriers' names. */
    private int carriersNumbered;
    private long sparesStarted;
    /** The counters of the carriers that have ended. */
    private final CarrierCounters endedCarriers = new CarrierCounters();

    /** True while fewer carriers than configured can run PicoThreads, so a new one may be started; as above. */
    private volatile boolean carrierShortage;
    /**
     * How many idle carriers a thread made ready could wake: those parked for lack of work but not held back, and the
     * one polling I/O unless it was woken already; as above.
     */
    private volatile int wakeableIdle;
    /** How many carriers are held back ({@link Carrier#heldBack}); under the lock. */
    private int heldBackCarriers;
    /** How many of those are parked, listed among the idle carriers; under the lock. */
    private int heldBackParked;
    /**
     * How many of those are neither parked nor polling I/O: they end the dispatch they were in, or are about to park;
     * under the lock.
     */
    private int heldBackAtWork;

    /** Guards the list of live tasks and the two counts below. */
    private final Object liveLock = new Object();
    private long threadsStarted;
    private long threadsTerminated;
    /** The first of the live tasks (admitted, not terminated), linked in a circle in admission order; or null. */
    private volatile Task liveTasks;
    /** Join-watcher threads still waiting for a platform thread that a task joins; each may wake a task. */
    private final AtomicInteger activeJoinWatchers = new AtomicInteger();
    /** Created on the first idle period with live tasks, unless deadlock detection is off. */
    private DeadlockDetector deadlockDetector;

    private Scheduler(SchedulingPolicy policy, long seed, int parallelism, int mostCarriers, long carrierStackSize) {
        this.policy = policy;
        this.seed = seed;
        this.parallelism = parallelism;
        this.mostCarriers = mostCarriers;
        this.carrierStackSize = carrierStackSize;
        int laneCount = Math.min(parallelism, MOST_LANES);
        this.lanes = new Lane[laneCount];
        for (int index = 0; index < laneCount; index++) {
            lanes[index] = new Lane(index, laneCount, policy, seed + index);
        }
    }

    /** The running scheduler, booting it on first use. */
    static Scheduler get() {
        Scheduler scheduler = instance;
        return scheduler != null ? scheduler : boot();
    }

    /** The running scheduler, or null when no PicoThread has started yet. */
    static Scheduler running() {
        return instance;
    }

    /** How many lanes the scheduler has, and so how many shares an I/O poller keeps; boots the scheduler. */
    public static int laneCount() {
        return get().lanes.length;
    }

    /** The index of the calling carrier's lane, or -1 when the caller is not a carrier. */
    public static int currentLane() {
        Carrier here = Carrier.here();
        return here != null ? here.lane.index : -1;
    }

    private static Scheduler boot() {
        synchronized (bootLock) {
            Scheduler scheduler = instance;
            if (scheduler == null) {
                RuntimeSettings.SchedulerSettings settings = RuntimeSettings.scheduler(configuredPolicy, configuredSeed);
                RuntimeSettings.WatchdogSettings watchdogSettings = RuntimeSettings.watchdog();
                scheduler = new Scheduler(settings.policy(), settings.seed(), settings.carriers(),
                        settings.mostCarriers(), settings.carrierStackSize());
                synchronized (scheduler.lock) {
                    scheduler.startCarrier();
                }
                if (watchdogSettings.enabled()) {
                    scheduler.watchdog = new Watchdog(scheduler, watchdogSettings);
                    scheduler.watchdog.start();
                }
                instance = scheduler;
                ThreadDump.startReporters();
            }
            return scheduler;
        }
    }

    /** Sets the policy the scheduler will boot with; see {@link PicoThreads#configure}. */
    public static void configure(SchedulingPolicy policy, long seed) {
        if (policy == null) {
            throw new NullPointerException("policy");
        }
        synchronized (bootLock) {
            Scheduler scheduler = instance;
            if (scheduler != null) {
                throw new IllegalStateException("PicoThreads: the scheduling policy must be configured before the first"
                        + " PicoThread starts; the scheduler already runs with " + scheduler.policy
                        + (scheduler.policy == SchedulingPolicy.RANDOM ? " (seed " + scheduler.seed + ")" : ""));
            }
            configuredPolicy = policy;
            configuredSeed = seed;
        }
    }

    /** A snapshot of the counters; exact when no carrier is running a PicoThread. */
    public static PicoThreads.Statistics statistics() {
        Scheduler scheduler = instance;
        if (scheduler == null) {
            return new PicoThreads.Statistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        long started;
        long terminated;
        synchronized (scheduler.liveLock) {
            started = scheduler.threadsStarted;
            terminated = scheduler.threadsTerminated;
        }
        synchronized (scheduler.lock) {
            CarrierCounters total = new CarrierCounters();
            scheduler.endedCarriers.addTo(total);
            for (Carrier carrier : scheduler.carriers) {
                carrier.counters.addTo(total);
            }
            return new PicoThreads.Statistics(started, terminated, started - terminated, total.suspensions,
                    total.resumes, total.pinnedBlocks, total.foreignFramePins, total.framesChecked,
                    total.framesTrustedByCaller, scheduler.carriers.size(), scheduler.sparesStarted, total.steals,
                    total.activationsSaved, total.activationsRestored, scheduler.unseenBlocks,
                    total.capturesEndedByReturn);
        }
    }

    /**
     * Starts one more carrier on the lane with the fewest carriers free to take its threads (not blocked by a pinned
     * task, not in an unseen block), the first such from the next lane in turn, so that the carriers first started
     * take the lanes in turn; under the lock.
     */
    private void startCarrier() {
        startCarrier(null);
    }

    /**
     * Starts one more carrier as {@link #startCarrier()} does, but on the lane of {@code compensatedFor}, a carrier
     * just blocked, when no other carrier is free to take that lane; under the lock.
     */
    private void startCarrier(Carrier compensatedFor) {
        int number = ++carriersNumbered;
        int[] free = new int[lanes.length];
        for (Carrier running : carriers) {
            if (!running.pinnedBlock && !running.unseenBlock) {
                free[running.lane.index]++;
            }
        }
        Lane lane;
        if (compensatedFor != null && free[compensatedFor.lane.index] == 0) {
            lane = compensatedFor.lane;
        } else {
            lane = lanes[(number - 1) % lanes.length];
            for (int step = 1; step < lanes.length; step++) {
                Lane candidate = lanes[(number - 1 + step) % lanes.length];
                if (free[candidate.index] < free[lane.index]) {
                    lane = candidate;
                }
            }
        }
        Carrier carrier = new Carrier(this, "pico-carrier-" + number, carrierStackSize, lane, lanes.length);
        carriers.add(carrier);
        if (carriers.size() > parallelism) {
            sparesStarted++;
        }
        updateHints();
        carrier.start();
    }

    /**
     * Admits a task whose thread has just been started: lists it as live and queues it, on the lane of the carrier
     * that started it, or, started by a platform thread, on the lanes in turn. Any thread may call this.
     */
    void start(Task task) {
        long admitted;
        boolean firstLive;
        synchronized (liveLock) {
            admitted = threadsStarted++;
            Task first = liveTasks;
            firstLive = first == null;
            if (first == null) {
                task.nextLive = task;
                task.previousLive = task;
                liveTasks = task;
            } else {
                Task last = first.previousLive;
                task.nextLive = first;
                task.previousLive = last;
                last.nextLive = task;
                first.previousLive = task;
            }
        }
        Carrier here = carrierHere();
        task.lane = here != null ? here.lane : lanes[(int) (admitted % lanes.length)];
        enqueue(task);
        if (firstLive && watchdog != null) {
            watchdog.wake();
        }
    }

    /** Wakes a task whose interrupt status was just set, if it is sleeping, joining or parked; any thread may call this. */
    void interrupt(Task task) {
        int status = task.status();
        if (!task.isInterrupted()) {
            return;
        }
        byte state = Task.stateOf(status);
        if (Task.isWaiting(state)) {
            endWait(task, status, true, false);
        } else if (state == Task.RUNNING && (status & Task.DISPATCHED) != 0) {
            synchronized (lock) {
                for (Carrier carrier : carriers) {
                    if (carrier.unseenBlock && carrier.current == task) {
                        deliverInterrupt(carrier, task);
                    }
                }
            }
        }
    }

    /**
     * Copies the interrupt status of {@code task} to {@code carrier}'s own, when the carrier still runs it: the task
     * blocks there in a wait of the JDK's (an unseen block), which reads only the carrier's status. Under the lock.
     *
     * <p>The carrier must not end the dispatch while its status is being set, or the next task it runs would see an
     * interrupt that is not its own: this method names the task in {@link Carrier#interrupting} before it reads
     * {@link Carrier#current}, and the carrier clears {@code current} before it reads {@code interrupting} (both
     * volatile), waiting while it is set ({@link #settleInterrupt}). The task's own status stays set; the carrier
     * takes it back at the end of the dispatch.
     */
    private void deliverInterrupt(Carrier carrier, Task task) {
        if (task.interruptCarrier() == carrier && carrier.isInterrupted()) {
            return;
        }
        carrier.interrupting = task;
        try {
            if (Carrier.CURRENT.getVolatile(carrier) == task) {
                task.deliverInterruptTo(carrier);
            }
        } finally {
            carrier.interrupting = null;
        }
    }

    /**
     * Ends a dispatch's hand-over of interrupts: clears the carrier's running task (volatile), waits while another
     * thread is copying an interrupt status to the carrier, and takes a status copied to it back into the task.
     */
    private static void settleInterrupt(Carrier carrier, Task task) {
        Carrier.CURRENT.setVolatile(carrier, null);
        if (carrier.interrupting != null || task.interruptCarrier() != null) {
            while (carrier.interrupting != null) {
                Thread.onSpinWait();
            }
            if (task.interruptCarrier() == carrier) {
                task.settleInterrupt();
            }
        }
    }

    /**
     * Installs the I/O event source that idle carriers poll, and busy ones between dispatches; the first
     * installation wins and is returned, later ones return it unchanged.
     */
    public static IoPoller installPoller(IoPoller candidate) {
        synchronized (bootLock) {
            if (poller == null) {
                poller = candidate;
            }
            return poller;
        }
    }

    /**
     * Puts the running task to sleep for {@code nanos} (positive): throws the capture signal, or, when the task
     * is pinned, returns once the sleep is over or the task was interrupted.
     */
    void sleep(Task task, long nanos) {
        if (task.isInterrupted()) {
            task.wokenByInterrupt = true;
            return;
        }
        int waiting = task.beginWait(Task.SLEEPING);
        long deadline = armTimer(task, nanos);
        // An interrupt from another carrier that came before the wait began found nothing to wake: end it here.
        if (task.isInterrupted() && endOwnWait(task, waiting)) {
            task.wokenByInterrupt = true;
            return;
        }
        suspendOrBlockPinned(task, deadline);
    }

    /**
     * Makes the running task wait until {@code thread} (whose task is {@code target}, or null for a platform
     * thread) terminates, or for {@code nanos} when that is positive: throws the capture signal, or, when the
     * task is pinned, returns once the wait is over. Returns at once when the target has meanwhile terminated.
     */
    void join(Task task, Thread thread, Task target, long nanos) {
        if (target != null && target.state() == Task.TERMINATED) {
            return;
        }
        if (task.isInterrupted()) {
            task.wokenByInterrupt = true;
            return;
        }
        task.blocker = target != null ? target : thread;
        int waiting = task.beginWait(nanos > 0 ? Task.JOINING_TIMED : Task.JOINING);
        long deadline = nanos > 0 ? armTimer(task, nanos) : NO_DEADLINE;
        if (target != null && !target.addJoinerUnlessTerminated(task, waiting)) {
            if (endOwnWait(task, waiting)) {
                return;
            }
        } else if (task.isInterrupted() && endOwnWait(task, waiting)) {
            task.wokenByInterrupt = true;
            return;
        }
        if (target == null) {
            watchPlatformThread(task, thread, nanos);
        }
        suspendOrBlockPinned(task, deadline);
    }

    /**
     * Parks the running task, as {@link LockSupport#parkNanos} parks a thread: until it is unparked, interrupted,
     * or {@code nanos} have passed when positive. Returns at once when a permit is pending (consuming it) or the
     * task is interrupted. Otherwise throws the capture signal, or, when the task is pinned, returns once the park
     * is over. Like LockSupport's, a park may end for no reason: callers re-check their condition in a loop, and
     * a caller re-invoked after a capture must first call {@link Continuation#resumingPrimitive()}.
     *
     * @param blocker the object the task waits on, shown in thread dumps; must not be a Task
     */
    void park(Task task, long nanos, Object blocker) {
        if (task.permit) {
            task.permit = false;
            return;
        }
        if (task.isInterrupted()) {
            return;
        }
        task.blocker = blocker;
        int waiting = task.beginWait(nanos > 0 ? Task.PARKED_TIMED : Task.PARKED);
        long deadline = nanos > 0 ? armTimer(task, nanos) : NO_DEADLINE;
        // An unpark or interrupt that came before the wait began found nothing to wake: end it here.
        boolean permitted = task.permit;
        if ((permitted || task.isInterrupted()) && endOwnWait(task, waiting)) {
            if (permitted) {
                task.permit = false;
            }
            return;
        }
        suspendOrBlockPinned(task, deadline);
    }

    /**
     * Blocks the running task until it is unparked, as a thread waiting to enter a monitor that another owner holds
     * ({@code BLOCKED}): unlike {@link #park}, an interrupt neither prevents nor ends the wait, so that the task
     * enters the monitor with its interrupt status kept, as a platform thread does. Returns at once when a permit is
     * pending (consuming it). Otherwise throws the capture signal, or, when the task is pinned, returns once
     * unparked. The caller re-checks the monitor in a loop.
     *
     * @param monitor the object whose monitor the task waits to enter, shown in thread dumps; must not be a Task
     */
    void blockOnMonitor(Task task, Object monitor) {
        if (task.permit) {
            task.permit = false;
            return;
        }
        task.blocker = monitor;
        int waiting = task.beginWait(Task.BLOCKED);
        if (task.permit && endOwnWait(task, waiting)) {
            task.permit = false;
            return;
        }
        suspendOrBlockPinned(task, NO_DEADLINE);
    }

    /**
     * Unparks a task, as {@link LockSupport#unpark} does a thread: a parked task becomes ready; any other task
     * keeps a permit that makes its next park return at once. Any thread may call this.
     */
    void unpark(Task task) {
        int status = task.status();
        if (Task.isParked(Task.stateOf(status)) && endWait(task, status, false, true)) {
            return;
        }
        if (Task.stateOf(status) == Task.TERMINATED) {
            return;
        }
        task.permit = true;
        // The task may have started to park after the status was read, before it could see the permit.
        status = task.status();
        if (Task.isParked(Task.stateOf(status))) {
            endWait(task, status, false, true);
        }
    }

    /**
     * Lets the other ready tasks run before the running one continues: throws the capture signal with the task
     * ready again, or, when the task is pinned, lets a spare carrier run the others for a moment and returns.
     * Returns at once when nothing else could run.
     */
    void yieldTask(Task task) {
        Carrier carrier = Carrier.here();
        // Read without the locks: a yield is a hint, and one that misses a thread made ready this instant is as good
        // as one made a moment earlier.
        if (!anyReadyHint() && !anyTimerDue()) {
            return;
        }
        if (capturable(task)) {
            // A running thread that is not waiting is changed by nobody else (an unpark only gives it a permit, an
            // interrupt only sets its status), and its carrier queues it after the capture.
            task.yielded = true;
            task.setState(Task.RUNNABLE);
            throw Continuation.suspend();
        }
        carrier.counters.pinnedBlocks++;
        synchronized (lock) {
            beginPinnedBlock(carrier);
        }
        try {
            LockSupport.parkNanos(this, PINNED_YIELD_NANOS);
        } finally {
            synchronized (lock) {
                endPinnedBlock(carrier);
            }
        }
    }

    /**
     * True when the running task can be captured here: not pinned, and either marked by a direct runtime entry that
     * a restored activation called ({@link CallerToken}) or found by the frame check to have only capturable frames.
     * Counts a pin caused by a frame that was not rewritten.
     */
    private boolean capturable(Task task) {
        if (task.pinDepth > 0) {
            return false;
        }
        Carrier carrier = Carrier.here();
        if (task.callerRestored) {
            task.callerRestored = false;
            carrier.counters.framesTrustedByCaller++;
            if (CaptureSafety.VERIFY_TRUSTED) {
                CaptureSafety.verifyTrusted();
            }
            return true;
        }
        carrier.counters.framesChecked++;
        if (task.framesCheckedAhead) {
            task.framesCheckedAhead = false;
            return true;
        }
        if (CaptureSafety.everyFrameCapturable()) {
            return true;
        }
        carrier.counters.foreignFramePins++;
        return false;
    }

    /**
     * Suspends the running task, whose wait has begun, or blocks it pinned; {@code deadline} is its timer's
     * (System.nanoTime), or {@link #NO_DEADLINE} when it armed none.
     */
    private void suspendOrBlockPinned(Task task, long deadline) {
        if (capturable(task)) {
            throw Continuation.suspend();
        }
        blockPinned(task, deadline);
    }

    /**
     * Blocks a pinned task without capturing it: its frames stay on its carrier's stack, and the carrier parks for
     * real until the task's wait has been ended (timer, joined thread terminated, unpark, interrupt) and the task made
     * ready. Meanwhile a spare carrier is started if fewer than the configured number could run PicoThreads. The
     * carrier wakes at the task's own timer deadline as well, and fires the due timers itself, in case every carrier
     * is blocked.
     */
    private void blockPinned(Task task, long timerDeadline) {
        Carrier carrier = Carrier.here();
        carrier.counters.pinnedBlocks++;
        // Announced before the state is read, as the waker makes the task ready before it reads the carrier: one of
        // the two sees the other.
        Task.Occasional pinning = task.occasional();
        pinning.pinnedCarrier = carrier;
        if (task.state() == Task.RUNNABLE) {
            pinning.pinnedCarrier = null;
            task.setState(Task.RUNNING); // woken between arming its wake-up and getting here
            return;
        }
        pinning.pinnedWait = true;
        synchronized (lock) {
            beginPinnedBlock(carrier);
        }
        try {
            while (true) {
                fireDueTimers(carrier);
                if (task.state() == Task.RUNNABLE) {
                    return;
                }
                long deadline = task.timerLane != null ? timerDeadline : NO_DEADLINE;
                Thread.interrupted(); // a stray interrupt of the carrier would make every park return at once
                if (deadline != NO_DEADLINE) {
                    long wait = deadline - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(task, wait);
                    } else {
                        Thread.onSpinWait(); // its timer is being fired by another carrier
                    }
                } else {
                    LockSupport.park(task);
                }
            }
        } finally {
            pinning.pinnedWait = false;
            pinning.pinnedCarrier = null;
            task.setState(Task.RUNNING);
            synchronized (lock) {
                endPinnedBlock(carrier);
            }
        }
    }

    /**
     * Counts a carrier as blocked by its pinned task, taking over the unseen block the watchdog may have found it in
     * meanwhile, and compensates; under the lock.
     */
    private void beginPinnedBlock(Carrier carrier) {
        endUnseenBlockHoldingLock(carrier);
        carrier.pinnedBlock = true;
        blockedCarriers++;
        updateHints();
        compensate(carrier);
    }

    /** Counts a carrier blocked by its pinned task as free again; under the lock. */
    private void endPinnedBlock(Carrier carrier) {
        carrier.pinnedBlock = false;
        blockedCarriers--;
        updateHints();
    }

    /**
     * Counts a carrier that the watchdog found blocked in code the runtime does not see, within dispatch
     * {@code dispatch}, as blocked, and compensates as for a pinned block; nothing when the carrier has meanwhile
     * ended that dispatch, gone on into a pinned block, or ended. Called by the watchdog.
     *
     * @param how   what blocks it, for the thread dump
     * @param since when the watchdog first saw it blocked
     */
    void beginUnseenBlock(Carrier carrier, int dispatch, String how, long since) {
        synchronized (lock) {
            if (carrier.unseenBlock || carrier.pinnedBlock || carrier.current == null
                    || carrier.dispatchNumber != dispatch || !carriers.contains(carrier)) {
                return;
            }
            carrier.unseenBlock = true;
            carrier.unseenBlockHow = how;
            carrier.unseenBlockSinceNanos = since;
            if (carrier.current.isInterrupted()) {
                deliverInterrupt(carrier, carrier.current);
            }
            unseenBlocks++;
            unseenBlockedCarriers++;
            blockedCarriers++;
            updateHints();
            compensate(carrier);
        }
    }

    /**
     * Counts a carrier in an unseen block as free again: it came back from the code that blocked it (its dispatch
     * ended, or the watchdog sees it run). A spare carrier that compensated for it is then held back
     * ({@link Carrier#heldBack}): it stops taking threads, and ends once idle for its keep-alive.
     */
    void endUnseenBlock(Carrier carrier) {
        synchronized (lock) {
            endUnseenBlockHoldingLock(carrier);
        }
    }

    /** As {@link #endUnseenBlock}; under the lock. */
    private void endUnseenBlockHoldingLock(Carrier carrier) {
        if (carrier.unseenBlock) {
            carrier.unseenBlock = false;
            carrier.unseenBlockHow = null;
            unseenBlockedCarriers--;
            blockedCarriers--;
            updateHints();
        }
    }

    /** The carriers running now, in {@code reuse} when it is large enough (then null after the last). */
    Carrier[] carriersNow(Carrier[] reuse) {
        synchronized (lock) {
            return carriers.toArray(reuse);
        }
    }

    /**
     * The watchdog's look at the lanes, once per period ({@code seen}: each lane's {@link Lane#dispatches} at its look
     * before, updated here). An idle carrier chooses its wait by the lanes and the timers as they are when it begins
     * to wait: the I/O poller of a lane waits on that lane's share alone while every other lane's share with waits has
     * an idle poller of its own, and a carrier without the timers' role waits without a deadline. A carrier that then
     * leaves such a role for a dispatch that turns out long (a thread that computes) leaves the lane's I/O, or the
     * timers, to nobody until it ends. So: when a lane whose carriers began no dispatch since the look before has
     * threads waiting for I/O in its share and no idle poller, an idle carrier is woken to look again (its next wait
     * polls that share every {@link #UNCOVERED_LANE_POLL_NANOS}); and when a timer is due and no carrier waits for the
     * timers while one is idle, that carrier is woken to fire it and take the role. Without the lock; takes it only
     * to wake.
     */
    int[] serveStalledLanes(int[] seen) {
        int[] looked = seen.length == lanes.length ? seen : new int[lanes.length];
        boolean firstLook = looked != seen;
        IoPoller installed = poller;
        boolean uncoveredLane = false;
        for (Lane lane : lanes) {
            int dispatches = lane.dispatches;
            if (!firstLook && dispatches == looked[lane.index] && installed != null && lane.idlePoller == null
                    && installed.pendingWaits(lane.index) > 0) {
                uncoveredLane = true;
            }
            looked[lane.index] = dispatches;
        }
        boolean unwatchedTimer = timerWaiting == null && wakeableIdle > 0 && anyTimerDue();
        if (uncoveredLane || unwatchedTimer) {
            synchronized (lock) {
                Carrier parked = latestIdleNotHeldBack();
                if (uncoveredLane && idlePollers > 0 || parked == null) {
                    // Each of them, even one counted as woken already: a wake-up that a select cleared before it
                    // reached its carrier would otherwise leave the lane to nobody for good. At worst a select
                    // returns for nothing, once per period while the lane stays so.
                    wakeIdlePollers(true);
                } else {
                    LockSupport.unpark(parked); // it stays listed as idle, looks again and takes the roles left
                }
            }
        }
        return looked;
    }

    /** The carrier dispatching {@code task} now, or null. */
    Carrier carrierRunning(Task task) {
        synchronized (lock) {
            for (Carrier carrier : carriers) {
                if (Carrier.CURRENT.getVolatile(carrier) == task) {
                    return carrier;
                }
            }
        }
        return null;
    }

    /** True while a PicoThread is alive (admitted, not terminated). */
    boolean hasLiveTasks() {
        return liveTasks != null;
    }

    /**
     * Starts a spare carrier when fewer carriers than configured can run PicoThreads (the others are blocked by
     * pinned tasks or in unseen blocks), within the bound on carriers, on the lane of {@code blocked}, the carrier just
     * blocked, when no other free carrier takes it; under the lock.
     */
    private void compensate(Carrier blocked) {
        if (carriers.size() - blockedCarriers >= parallelism) {
            // one that parked without a role, as surplus while no carrier was blocked, would leave the blocked
            // carriers' timers unfired
            signalIfWorkUnserved();
        } else if (carriers.size() < mostCarriers) {
            startCarrier(blocked);
        }
    }

    /** Has a helper platform thread wait for a platform thread a task joins, and wake the task when it ends. */
    private void watchPlatformThread(Task task, Thread thread, long nanos) {
        long millis = nanos > 0 ? TimeUnit.NANOSECONDS.toMillis(nanos) + 1 : 0;
        Runnable watch = () -> {
            try {
                thread.join(millis);
                int status = task.status();
                if (task.blocker == thread && Task.isWaiting(Task.stateOf(status)) && !thread.isAlive()) {
                    endWait(task, status, false, false);
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                activeJoinWatchers.decrementAndGet();
            }
        };
        Thread watcher = RuntimeThreads.create(watch, "pico-join-watcher", 0, true);
        activeJoinWatchers.incrementAndGet();
        watcher.start();
    }

    /**
     * Ends the wait of a task whose status was {@code observed} (a waiting state): wins it from every other waker by
     * setting WAKING, then disarms its timer, takes it out of the joiner list, records whether an interrupt ended the
     * wait, and makes it ready ({@link #publishReady}). False when the wait had already ended, or is a later one.
     *
     * @param byInterrupt     an interrupt ends the wait, so that the blocking call throws InterruptedException
     * @param consumesPermit  an unpark ends the wait, and its permit is used up by it
     */
    private boolean endWait(Task task, int observed, boolean byInterrupt, boolean consumesPermit) {
        int expected = observed;
        while (!task.compareAndSetStatus(expected, Task.withState(expected, Task.WAKING))) {
            int current = task.status();
            if ((current | Task.DISPATCHED) != (observed | Task.DISPATCHED)) {
                return false;
            }
            expected = current; // only the dispatch bit changed: the capture finished meanwhile
        }
        Lane timerLane = task.timerLane;
        if (timerLane != null) {
            timerLane.cancel(task);
        }
        task.wokenByInterrupt = byInterrupt;
        if (consumesPermit) {
            task.permit = false;
        }
        byte waited = Task.stateOf(observed);
        if (task.blocker instanceof Task target && (waited == Task.JOINING || waited == Task.JOINING_TIMED)) {
            target.removeJoinerIfListed(task);
        }
        task.blocker = null;
        publishReady(task);
        return true;
    }

    /**
     * Ends the running task's own wait, whose status is {@code waiting}, before it suspends: false when a waker has
     * already won it (the task then suspends, and the waker makes it ready).
     */
    private static boolean endOwnWait(Task task, int waiting) {
        if (!task.compareAndSetStatus(waiting, Task.withState(waiting, Task.RUNNING))) {
            return false;
        }
        Lane timerLane = task.timerLane;
        if (timerLane != null) {
            timerLane.cancel(task);
        }
        task.blocker = null;
        return true;
    }

    /**
     * Makes a task that a waker has won (WAKING) ready: queues it when no carrier dispatches it, else leaves it to
     * its carrier, which queues it once its capture has unwound, or, when it waits pinned, runs it on.
     */
    private void publishReady(Task task) {
        while (true) {
            int current = task.status();
            if (task.compareAndSetStatus(current, Task.withState(current, Task.RUNNABLE))) {
                if ((current & Task.DISPATCHED) == 0) {
                    enqueue(task);
                } else {
                    Task.Occasional pinning = task.occasionalIfMade();
                    Carrier pinned = pinning == null ? null : pinning.pinnedCarrier;
                    if (pinned != null) {
                        LockSupport.unpark(pinned);
                    }
                }
                return;
            }
        }
    }

    /**
     * Queues a task made ready: on the lane of the carrier making it so, where it is likely to run next, or, made
     * ready by a platform thread, on the lane it last ran on; then gets an idle carrier to look.
     */
    private void enqueue(Task task) {
        Carrier here = carrierHere();
        (here != null ? here.lane : task.lane).add(task, false);
        signalIfIdle();
    }

    /** The carrier of this scheduler that the caller runs on, or null. */
    private Carrier carrierHere() {
        Carrier here = Carrier.here();
        return here != null && here.scheduler == this ? here : null;
    }

    /**
     * Arms the running task's timer for {@code nanos} from now, on its carrier's lane, and gets a carrier to wait for
     * it if it is the next; returns the deadline (System.nanoTime).
     */
    private long armTimer(Task task, long nanos) {
        long deadline = System.nanoTime() + Math.min(nanos, LONGEST_WAIT_NANOS);
        Carrier here = Carrier.here();
        here.lane.arm(task, deadline);
        Carrier waiter = timerWaiting;
        if (waiter != null) {
            if (deadline - timerWaitingDeadline < 0) {
                wakeIdle(waiter);
            }
        } else if (wakeableIdle > 0) {
            synchronized (lock) {
                if (timerWaiting == null) {
                    Carrier idle = latestIdleNotHeldBack();
                    if (idle != null) {
                        LockSupport.unpark(idle); // it stays listed as idle, looks again and waits for the deadline
                    } else {
                        wakeIdlePoller();
                    }
                }
            }
        }
        return deadline;
    }

    /** Wakes an idle carrier from its wait, whether it parks or polls I/O; it looks again. */
    private void wakeIdle(Carrier carrier) {
        if (carrier.pollingIdle) {
            poller.wakeup(carrier.lane.index);
        } else {
            LockSupport.unpark(carrier);
        }
    }

    /** Makes the tasks whose timers are due ready, in deadline order per lane, on the calling carrier's lane. */
    private void fireDueTimers(Carrier carrier) {
        long now = 0;
        Lane.DueTimers due = carrier.dueTimers;
        for (Lane lane : lanes) {
            if (lane.mayHaveTimers()) {
                if (now == 0) {
                    now = System.nanoTime();
                }
                if (lane.mayHaveDue(now)) {
                    lane.takeDue(now, due);
                }
            }
        }
        int count = due.size();
        if (count == 0) {
            return;
        }
        for (int index = 0; index < count; index++) {
            int status = due.status(index);
            if (Task.isWaiting(Task.stateOf(status))) {
                endWait(due.task(index), status, false, false);
            }
        }
        due.clear();
    }

    /** How many threads are ready in all lanes, as of each lane's last change; without the locks. */
    private int readyCountHint() {
        int count = 0;
        for (Lane lane : lanes) {
            count += lane.readyCountHint();
        }
        return count;
    }

    /** True when some lane may have a ready thread; without the locks. */
    private boolean anyReadyHint() {
        for (Lane lane : lanes) {
            if (lane.mayHaveReady()) {
                return true;
            }
        }
        return false;
    }

    /** True when some lane may have a timer due now; without the locks. */
    private boolean anyTimerDue() {
        long now = 0;
        for (Lane lane : lanes) {
            if (lane.mayHaveTimers()) {
                if (now == 0) {
                    now = System.nanoTime();
                }
                if (lane.mayHaveDue(now)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when a live timer is armed in some lane; takes each lane's timer lock, and drops cancelled entries. */
    private boolean anyLiveTimers() {
        boolean live = false;
        for (Lane lane : lanes) {
            live |= lane.hasLiveTimers();
        }
        return live;
    }

    /** The earliest timer deadline of the lanes, or {@code fallback} when none is armed; without the locks. */
    private long earliestDeadline(long fallback) {
        long earliest = fallback;
        boolean found = false;
        for (Lane lane : lanes) {
            if (lane.mayHaveTimers()) {
                long deadline = lane.earliestDeadlineOr(0);
                if (!found || deadline - earliest < 0) {
                    earliest = deadline;
                    found = true;
                }
            }
        }
        return earliest;
    }

    /** True while no carrier runs a task and there is nothing ready and no timer to wait for. */
    boolean isIdle() {
        synchronized (lock) {
            int waiting = idleCarriers.size() + idlePollers;
            if (waiting < carriers.size() - blockedCarriers) {
                return false;
            }
        }
        for (Lane lane : lanes) {
            if (lane.hasReady() || lane.hasLiveTimers()) {
                return false;
            }
        }
        return true;
    }

    /**
     * True while a join watcher, pending I/O, an offloaded call or a carrier in an unseen block (whatever blocks it
     * may end by itself) may still wake a task.
     */
    boolean hasExternalWakeSources() {
        IoPoller installed = poller;
        return activeJoinWatchers.get() > 0 || Offloads.pending() > 0 || unseenBlockedCarriers > 0
                || installed != null && installed.pendingWaits() > 0;
    }

    /** The dump printed on a deadlock, of every live task. */
    String deadlockDump() {
        return writeDump(true);
    }

    /** The dump of the live PicoThreads (see {@link PicoThreads#dump()}), written while no dispatch can begin. */
    public static String dump() {
        Scheduler scheduler = instance;
        if (scheduler == null) {
            return ThreadDump.liveHeader(0, 0, 0) + "\n";
        }
        return scheduler.writeDump(false);
    }

    /**
     * Writes a dump under the lock of the live list and of every lane's run queue, so that no carrier takes a task
     * meanwhile: the saved frames of a task that no carrier dispatches stay as they are while they are read.
     */
    private String writeDump(boolean deadlock) {
        Map<Task, String> unseen = new HashMap<>();
        Map<Task, Carrier> runningOn = new HashMap<>();
        int blocked;
        synchronized (lock) {
            blocked = blockedCarriers - unseenBlockedCarriers;
            long now = System.nanoTime();
            for (Carrier carrier : carriers) {
                Task running = carrier.current;
                if (running != null) {
                    runningOn.put(running, carrier);
                }
                if (carrier.unseenBlock && running != null) {
                    unseen.put(running, "on " + carrier.getName() + ", blocked in code the runtime does not see: "
                            + carrier.unseenBlockHow + " for "
                            + TimeUnit.NANOSECONDS.toMillis(now - carrier.unseenBlockSinceNanos)
                            + " ms; a spare carrier runs the others");
                }
            }
        }
        synchronized (liveLock) {
            return whileNoDispatchBegins(0, () -> {
                long live = threadsStarted - threadsTerminated;
                return ThreadDump.write(deadlock ? ThreadDump.deadlockHeader(live, blocked, unseen.size())
                        : ThreadDump.liveHeader(live, blocked, unseen.size()), liveTasks, unseen, runningOn);
            });
        }
    }

    /**
     * Another thread's view of {@code task}'s stack for {@link Thread#getStackTrace()}: its saved activations while
     * it is suspended, read under the lock of every lane's run queue as a dump reads them; while a carrier runs it,
     * or is parked for it while it is pinned, the frames the carrier runs for it and the activations still saved below
     * them ({@link ThreadDump#stackTraceOnCarrier}); empty before it has started and after it has ended.
     */
    StackTraceElement[] savedStackTrace(Task task) {
        long giveUp = System.nanoTime() + CAPTURE_SETTLING_NANOS;
        while (true) {
            Task.Occasional pinning = task.occasionalIfMade();
            Carrier pinnedOn = pinning == null ? null : pinning.pinnedCarrier;
            if (pinnedOn != null && pinning.pinnedWait) {
                StackTraceElement[] trace = ThreadDump.stackTraceOnCarrier(pinnedOn, task);
                if (trace != null && pinning.pinnedWait && pinning.pinnedCarrier == pinnedOn) {
                    return trace;
                }
            } else if (task.isDispatched() && task.state() == Task.RUNNING) {
                Carrier runningOn = carrierRunning(task);
                StackTraceElement[] trace = runningOn == null ? null : ThreadDump.stackTraceOnCarrier(runningOn, task);
                if (trace != null) {
                    return trace;
                }
            } else {
                Object[] saved = whileNoDispatchBegins(0, () -> ThreadDump.savedActivations(task));
                if (saved != null) {
                    return ThreadDump.stackTraceOfSaved(saved, task);
                }
            }
            // its dispatch, capture or pinned block begins or ends on another carrier, a matter of microseconds unless
            // that carrier is preempted
            if (System.nanoTime() - giveUp > 0) {
                return new StackTraceElement[0];
            }
            Thread.yield();
        }
    }

    /**
     * Runs {@code action} once the queues of lanes {@code index} and above are locked: no carrier can take a task
     * meanwhile, so the saved frames of a task that no carrier dispatches stay as they are while it reads them.
     */
    private <T> T whileNoDispatchBegins(int index, Supplier<T> action) {
        if (index < lanes.length) {
            return lanes[index].whileNoneTaken(() -> whileNoDispatchBegins(index + 1, action));
        }
        return action.get();
    }

    /**
     * The threads of the live PicoThreads (admitted, not terminated) in the order they were admitted, so that the
     * threads this thread started before are among them. Empty when no PicoThread has started.
     */
    static List<Thread> liveThreads() {
        Scheduler scheduler = instance;
        if (scheduler == null) {
            return List.of();
        }
        List<Thread> threads = new ArrayList<>();
        synchronized (scheduler.liveLock) {
            Task first = scheduler.liveTasks;
            if (first != null) {
                Task task = first;
                do {
                    threads.add(task.thread);
                    task = task.nextLive;
                } while (task != first);
            }
        }
        return threads;
    }

    /**
     * Runs a task taken from a lane on {@code carrier} until it returns, throws or suspends; returns the task when it
     * was captured, for the carrier to end its dispatch ({@link #work}), or null.
     */
    private Task dispatch(Task task, Carrier carrier) {
        carrier.dispatchNumber++;
        carrier.lane.dispatches++;
        carrier.current = task;
        if (task.isResumable()) {
            carrier.counters.resumes++;
            Continuation.beginRestoring(carrier);
        }
        try {
            if (DispatchFrame.run(task)) {
                Continuation.endRestoring(carrier);
                carrier.counters.suspensions++;
                return task;
            }
            Continuation.endRestoring(carrier);
            terminate(task, null);
            return null;
        } catch (Throwable failure) {
            Continuation.endRestoring(carrier);
            terminate(task, failure);
            return null;
        } finally {
            Continuation.endRestoring(carrier);
            settleInterrupt(carrier, task);
            if (carrier.unseenBlock) {
                endUnseenBlock(carrier);
            }
        }
    }

    /**
     * Ends the dispatch of a task that has just been captured, whose state was {@code state} when its dispatch bit
     * was cleared: if a wake-up (or its own yield) made it ready while the capture unwound, queues it on the
     * carrier's lane now; if it has just started to wait for I/O, gets an idle carrier to poll for it.
     */
    private void endSuspension(Task task, byte state, Carrier carrier) {
        if (state == Task.RUNNABLE) {
            boolean yielded = task.yielded;
            task.yielded = false;
            if (carrier.lane.add(task, yielded) > 1) {
                signalIfIdle();
            }
        } else if (wakeableIdle > 0 && idlePollers == 0) {
            // A thread that has just started to wait for I/O: an idle carrier polls for it, rather than the busy
            // ones only between their dispatches.
            IoPoller installed = poller;
            if (installed != null && installed.pendingWaits() > 0) {
                synchronized (lock) {
                    Carrier idle = takeIdleCarrier();
                    if (idle != null) {
                        idle.idle = false;
                        updateHints();
                        LockSupport.unpark(idle);
                    }
                }
            }
        }
    }

    private void terminate(Task task, Throwable failure) {
        if (failure != null) {
            dispatchUncaughtException(task, failure);
        }
        // A thread that died while a wake-up was armed (a capture that escaped through a frame that was not
        // rewritten, after its blocking call armed a timer) must never be dispatched again.
        Lane timerLane = task.timerLane;
        if (timerLane != null) {
            timerLane.cancel(task);
        }
        task.pinDepth = 0;
        Monitors.holderResuming(task);
        synchronized (liveLock) {
            threadsTerminated++;
            unlinkLive(task);
        }
        for (Task joiner : task.terminateAndTakeJoiners()) {
            int status = joiner.status();
            byte state = Task.stateOf(status);
            if (joiner.blocker == task && (state == Task.JOINING || state == Task.JOINING_TIMED)) {
                endWait(joiner, status, false, false);
            }
        }
        task.markTerminated();
        Monitors.threadTerminated(task.thread);
        if (!task.daemon) {
            Lifetime.nonDaemonThreadTerminated();
        }
    }

    /** Takes a terminated task out of the live list; under the live list's lock. */
    private void unlinkLive(Task task) {
        Task next = task.nextLive;
        if (next == null) {
            return;
        }
        if (next == task) {
            liveTasks = null;
        } else {
            Task previous = task.previousLive;
            previous.nextLive = next;
            next.previousLive = previous;
            if (liveTasks == task) {
                liveTasks = next;
            }
        }
        task.nextLive = null;
        task.previousLive = null;
    }

    /**
     * Hands an exception that ended a thread to its uncaught exception handler, as the JVM does: the handler
     * set on the thread, else its thread group, which prints {@code Exception in thread "NAME"} and the stack
     * trace. The handler runs as the dying thread, pinned, so that it may block but cannot be captured.
     */
    private void dispatchUncaughtException(Task task, Throwable failure) {
        Thread thread = task.thread;
        task.pinDepth++;
        try {
            Thread.UncaughtExceptionHandler handler = thread.getUncaughtExceptionHandler();
            if (handler != null) {
                handler.uncaughtException(thread, failure);
            }
        } catch (Throwable handlerFailure) {
            System.err.print("\nException: " + handlerFailure.getClass().getName()
                    + " thrown from the UncaughtExceptionHandler in thread \"" + thread.getName() + "\"\n");
        } finally {
            task.pinDepth--;
        }
    }

    /** What an idle carrier does until it looks for work again. */
    private enum IdleWait {
        /**
         * Polls its lane's share of the I/O poller until I/O is ready, the next timer deadline or a wake-up (after the
         * shares of the lanes without an idle carrier, without waiting).
         */
        POLL_IO,
        /** Parks until the next timer deadline or a wake-up. */
        AWAIT_TIMER,
        /** Looks for a deadlock while it parks. */
        WATCH_DEADLOCK,
        /** Parks until woken (a spare: at most until its keep-alive ends). */
        PARK,
        /**
         * Parks as {@link #PARK}, as a carrier held back ({@link Carrier#heldBack}): it takes no idle role and does
         * not look at the lanes before it parks.
         */
        PARK_AS_SURPLUS,
        /** Ends: a spare that stayed idle for its whole keep-alive. */
        RETIRE
    }

    /** The loop of a carrier, until it retires. */
    void work(Carrier carrier) {
        long idleSince = 0;
        Task captured = null;
        while (true) {
            boolean heldBack = carrier.heldBack;
            Task next = null;
            boolean taken = false;
            boolean yielded = false;
            if (captured != null) {
                yielded = captured.yielded;
                byte state = captured.endDispatch();
                if (state == Task.RUNNING) {
                    terminate(captured, new IllegalStateException("PicoThreads: thread \"" + captured.thread.getName()
                            + "\" threw the capture signal without arranging to be woken; a frame that was not"
                            + " rewritten let it through"));
                } else if (state == Task.RUNNABLE && !heldBack && !(yielded && lanes.length > 1) && !anyTimerDue()) {
                    // Ready again at once (it yielded, or was woken while its capture unwound), and no timer is due
                    // that would have to be made ready first: queue it and take the next under one lock.
                    captured.yielded = false;
                    next = carrier.lane.addAndTake(captured, yielded, carrier.lane);
                    taken = true;
                    if (carrier.lane.mayHaveReady()) {
                        signalIfIdle();
                    }
                } else {
                    endSuspension(captured, state, carrier);
                }
                captured = null;
            }
            if (!taken && !heldBack) {
                next = takeWork(carrier, yielded);
            }
            if (next != null) {
                idleSince = 0;
                if (--carrier.dispatchesUntilIoPoll <= 0) {
                    pollIoNow(carrier);
                    // At most once per round of the ready threads: a poll reports again the channels of threads it
                    // already woke that have not run yet (read interest stays armed), at most one per ready thread,
                    // so polling once per round keeps that work constant per dispatch.
                    carrier.dispatchesUntilIoPoll = Math.max(DISPATCHES_PER_IO_POLL, readyCountHint());
                }
                captured = dispatch(next, carrier);
                continue;
            }
            if (!heldBack && spinForWork()) {
                continue;
            }
            long now = System.nanoTime();
            idleSince = idleSince == 0 ? now : idleSince;
            IdleWait idle;
            synchronized (lock) {
                idle = becomeIdle(carrier, now, idleSince);
                if (idle == IdleWait.RETIRE) {
                    retire(carrier);
                    return;
                }
            }
            // Announced as idle first, then looked again under the lanes' locks: a thread made ready meanwhile either
            // saw this carrier idle and woke it, or is found here.
            if (idle != IdleWait.PARK_AS_SURPLUS && workAppeared(idle)) {
                leaveIdle(carrier);
                continue;
            }
            waitIdle(carrier, idle);
        }
    }

    /**
     * Looks at the lanes' hints for up to {@link #IDLE_SPIN_NANOS}: true as soon as a lane may have a ready thread or
     * a timer is due, false when none appeared. The loopback echo's carriers spent 14% of their CPU parking and being
     * unparked for a thread made ready a few microseconds later.
     */
    private boolean spinForWork() {
        long start = System.nanoTime();
        do {
            if (anyReadyHint() || anyTimerDue()) {
                return true;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() - start < IDLE_SPIN_NANOS);
        return false;
    }

    /**
     * Takes the next ready thread for a carrier, after making the threads whose timers are due ready: from its own
     * lane, else from another (it steals); after a yield, from another first, so that the yielding thread does not
     * take its own carrier back while other threads wait. Null when none is ready.
     */
    private Task takeWork(Carrier carrier, boolean afterYield) {
        fireDueTimers(carrier);
        Lane own = carrier.lane;
        Task next = null;
        if (afterYield && lanes.length > 1) {
            next = steal(carrier);
        }
        if (next == null && own.mayHaveReady()) {
            next = own.take(own);
            if (next != null && own.mayHaveReady()) {
                signalIfIdle();
            }
        }
        if (next == null && lanes.length > 1) {
            if (pollOwnLane(carrier)) {
                next = own.take(own);
                if (next != null && own.mayHaveReady()) {
                    signalIfIdle();
                }
            }
            if (next == null) {
                next = steal(carrier);
            }
        }
        return next;
    }

    /** Takes a ready thread from another carrier's lane, the lanes after its own first; null when none has one. */
    private Task steal(Carrier carrier) {
        int count = lanes.length;
        Lane own = carrier.lane;
        for (int offset = 1; offset < count; offset++) {
            Lane victim = lanes[(own.index + offset) % count];
            if (victim.mayHaveReady()) {
                Task stolen = victim.take(own);
                if (stolen != null) {
                    carrier.counters.steals++;
                    if (victim.mayHaveReady()) {
                        signalIfIdle();
                    }
                    return stolen;
                }
            }
        }
        return null;
    }

    /** True when, after the carrier announced itself idle, a lane has a ready thread or a timer nobody waits for. */
    private boolean workAppeared(IdleWait idle) {
        for (Lane lane : lanes) {
            if (lane.hasReady()) {
                return true;
            }
        }
        return (idle == IdleWait.PARK || idle == IdleWait.WATCH_DEADLOCK) && timerWaiting == null
                && anyTimerHint();
    }

    /** True when some lane may have a timer armed; without the locks. */
    private boolean anyTimerHint() {
        for (Lane lane : lanes) {
            if (lane.mayHaveTimers()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Chooses how a carrier without work waits, takes the role that goes with it (its lane's I/O poller, the timer
     * waiter, the deadlock watcher) and sets {@link Carrier#idleWaitNanos}; lists the carrier as idle unless it polls
     * I/O.
     * A carrier held back ({@link Carrier#heldBack}) takes no role and parks: polling I/O, it would find the channels
     * of the ready threads it does not take still readable, wake nobody, and poll again at once, holding the poller
     * that the carriers at work poll between their dispatches; it leaves the ready threads to a carrier that is not
     * held back, woken if one parks. Under the lock.
     */
    private IdleWait becomeIdle(Carrier carrier, long now, long idleSince) {
        // Read again under the lock: a carrier blocked since the top of this round may need this one and its roles.
        boolean heldBack = carrier.heldBack;
        IoPoller installed = poller;
        boolean surplus = carriers.size() - blockedCarriers > parallelism;
        // Only a carrier whose lane another carrier also takes may end, so that every lane keeps a carrier.
        boolean mayRetire = surplus && laneShared(carrier);
        IdleWait idle;
        long waitNanos = -1;
        if (mayRetire && now - idleSince >= SPARE_KEEPALIVE_NANOS) {
            return IdleWait.RETIRE;
        }
        boolean liveTimers = anyLiveTimers();
        if (!heldBack && installed != null && carrier.lane.idlePoller == null && installed.pendingWaits() > 0) {
            idle = IdleWait.POLL_IO;
            carrier.pollingIdle = true; // before timerWaiting, which a waker reads first
            carrier.pollingIdleWoken = false;
            carrier.lane.idlePoller = carrier;
            idlePollers++;
            idlePollersUnwoken++;
            if (liveTimers) {
                long earliest = earliestDeadline(now);
                if (timerWaiting == null || earliest - timerWaitingDeadline < 0) {
                    timerWaitingDeadline = earliest;
                    timerWaiting = carrier;
                    waitNanos = Math.max(0, earliest - now);
                }
            }
        } else if (!heldBack && liveTimers && timerWaiting == null) {
            idle = IdleWait.AWAIT_TIMER;
            long earliest = earliestDeadline(now);
            timerWaitingDeadline = earliest;
            timerWaiting = carrier;
            waitNanos = Math.max(0, earliest - now);
        } else if (!surplus && liveTasks != null && DeadlockDetector.ENABLED && deadlockWatching == null
                && !liveTimers) {
            idle = IdleWait.WATCH_DEADLOCK;
            deadlockWatching = carrier;
            if (deadlockDetector == null) {
                deadlockDetector = new DeadlockDetector(this);
            }
        } else {
            idle = heldBack ? IdleWait.PARK_AS_SURPLUS : IdleWait.PARK;
            // A carrier that shares its lane but is not surplus now (others are blocked) may be once their blocks
            // end, which wakes nobody: it looks again after a keep-alive, and retires then if it is.
            waitNanos = mayRetire ? SPARE_KEEPALIVE_NANOS - (now - idleSince)
                    : carriers.size() > lanes.length && laneShared(carrier) ? SPARE_KEEPALIVE_NANOS : -1;
        }
        carrier.idleWaitNanos = waitNanos;
        if (idle != IdleWait.POLL_IO) {
            carrier.idle = true;
            idleCarriers.push(carrier);
        }
        updateHints();
        if (heldBack) {
            signalIfWorkUnserved();
        }
        return idle;
    }

    /** Waits as {@link #becomeIdle} chose, then gives up the carrier's idle role. Outside the lock. */
    private void waitIdle(Carrier carrier, IdleWait idle) {
        long waitNanos = carrier.idleWaitNanos;
        if (idle == IdleWait.AWAIT_TIMER || idle == IdleWait.POLL_IO && timerWaiting == carrier) {
            // A timer armed since the role was taken, earlier than the one it was taken for.
            long now = System.nanoTime();
            waitNanos = Math.max(0, Math.min(waitNanos, earliestDeadline(now + waitNanos) - now));
        }
        Thread.interrupted(); // a stray interrupt of the carrier would make every park return at once
        switch (idle) {
            case POLL_IO -> pollIdle(carrier, waitNanos);
            case WATCH_DEADLOCK -> deadlockDetector.parkIdle();
            default -> {
                if (waitNanos < 0) {
                    LockSupport.park(this);
                } else if (waitNanos > 0) {
                    LockSupport.parkNanos(this, waitNanos);
                }
            }
        }
        leaveIdle(carrier);
    }

    /** Gives up the carrier's idle role and listing. */
    private void leaveIdle(Carrier carrier) {
        synchronized (lock) {
            if (carrier.idle) {
                carrier.idle = false;
                idleCarriers.remove(carrier);
            }
            if (carrier.pollingIdle) {
                carrier.pollingIdle = false;
                carrier.lane.idlePoller = null;
                idlePollers--;
                if (!carrier.pollingIdleWoken) {
                    idlePollersUnwoken--;
                }
            }
            if (timerWaiting == carrier) {
                timerWaiting = null;
            }
            if (deadlockWatching == carrier) {
                deadlockWatching = null;
            }
            updateHints();
        }
    }

    /** True when another running carrier takes the same lane as {@code carrier}; under the lock. */
    private boolean laneShared(Carrier carrier) {
        for (Carrier other : carriers) {
            if (other != carrier && other.lane == carrier.lane) {
                return true;
            }
        }
        return false;
    }

    /**
     * Ends a spare carrier, keeping its counters; under the lock. Until now a waker counted it as at work and so may
     * have woken nobody for the thread it made ready: that thread, or a timer left without a waiter, gets an idle
     * carrier now.
     */
    private void retire(Carrier carrier) {
        endUnseenBlockHoldingLock(carrier);
        carriers.remove(carrier);
        carrier.counters.addTo(endedCarriers);
        updateHints();
        signalIfWorkUnserved();
    }

    /**
     * Gets an idle carrier to take the ready threads, or the timers' role when no carrier holds it and a timer is
     * armed: for when the carriers' count changed without any waker seeing it (one blocked, one retired). Under the
     * lock.
     */
    private void signalIfWorkUnserved() {
        if (anyReadyHint() || timerWaiting == null && anyLiveTimers()) {
            signalWork();
        }
    }

    /**
     * Polls, without waiting, the carrier's lane's share of the I/O poller when threads wait there, then the shares of
     * the lanes whose carriers have all stayed inside one dispatch since this carrier's last look and have no idle
     * carrier waiting on them: a busy carrier between two of its dispatches.
     */
    private void pollIoNow(Carrier carrier) {
        IoPoller installed = poller;
        if (installed == null) {
            return;
        }
        pollOwnLane(carrier);
        Lane own = carrier.lane;
        if (lanes.length > 1) {
            int[] seen = carrier.laneDispatchesSeen;
            for (Lane lane : lanes) {
                int dispatches = lane.dispatches;
                if (lane != own && dispatches == seen[lane.index] && lane.idlePoller == null
                        && installed.pendingWaits(lane.index) > 0) {
                    pollLaneNow(installed, lane);
                }
                seen[lane.index] = dispatches;
            }
        }
    }

    /**
     * Polls a lane's share of the I/O poller without waiting, for a carrier that is not the lane's idle poller: true
     * when it made a thread ready. A select clears the selector's pending wake-up, so when an idle carrier took the
     * lane's I/O role meanwhile, a wake-up meant for it may have been cleared before its wait began: it is made again
     * (at worst a spurious one, after which the idle carrier looks and waits again).
     */
    private static boolean pollLaneNow(IoPoller installed, Lane lane) {
        boolean woke = installed.pollNow(lane.index);
        if (lane.idlePoller != null) {
            installed.wakeup(lane.index);
        }
        return woke;
    }

    /**
     * Polls, without waiting, the carrier's lane's share of the I/O poller when threads wait there: true when a thread
     * was made ready on its lane. What a carrier does when its lane has run dry, before it steals: its own threads'
     * I/O first, so that each thread keeps to the lane whose share holds its channels.
     */
    private boolean pollOwnLane(Carrier carrier) {
        IoPoller installed = poller;
        Lane own = carrier.lane;
        return installed != null && installed.pendingWaits(own.index) > 0 && pollLaneNow(installed, own);
    }

    /**
     * The wait of the carrier that took its lane's I/O role: polls, without waiting, the shares of the other lanes that
     * have waits and no idle carrier of their own, then waits on its own lane's share, until {@code waitNanos} (its
     * timer role's deadline, negative: none) or a wake-up, at most {@link #UNCOVERED_LANE_POLL_NANOS} while such a
     * lane remains. Returns at once when the first polls made a thread ready.
     */
    private void pollIdle(Carrier carrier, long waitNanos) {
        IoPoller installed = poller;
        int own = carrier.lane.index;
        boolean uncovered = false;
        for (Lane lane : lanes) {
            if (lane.index != own && lane.idlePoller == null && installed.pendingWaits(lane.index) > 0) {
                uncovered = true;
                if (pollLaneNow(installed, lane)) {
                    return;
                }
            }
        }
        if (uncovered && (waitNanos < 0 || waitNanos > UNCOVERED_LANE_POLL_NANOS)) {
            waitNanos = UNCOVERED_LANE_POLL_NANOS;
        }
        installed.poll(own, waitNanos);
    }

    /** Gets an idle carrier to look at the lanes when one could be woken or started; without the lock. */
    private void signalIfIdle() {
        if (wakeableIdle > 0 || carrierShortage) {
            synchronized (lock) {
                signalWork();
            }
        }
    }

    /**
     * Gets a carrier to look at the lanes: an idle one unparked, else the one polling I/O woken, else a new one
     * while fewer than configured can run PicoThreads; under the lock.
     */
    private void signalWork() {
        if (busyCarriers() >= parallelism) {
            return;
        }
        Carrier idle = takeIdleCarrier();
        if (idle != null) {
            idle.idle = false;
            updateHints();
            LockSupport.unpark(idle);
            return;
        }
        if (idlePollers > 0) {
            wakeIdlePoller();
            return;
        }
        if (carriers.size() - blockedCarriers < parallelism && carriers.size() < mostCarriers) {
            startCarrier();
        }
    }

    /**
     * Wakes an idle carrier waiting on its lane's share of the I/O poller that has not been woken yet, if there is
     * one, so that it looks for work; under the lock.
     */
    private void wakeIdlePoller() {
        wakeIdlePollers(false);
    }

    /**
     * Wakes the idle carriers waiting on their lanes' shares of the I/O poller so that they look for work: the first
     * not woken yet, or, {@code every}, each of them, even one counted as woken already; under the lock.
     */
    private void wakeIdlePollers(boolean every) {
        for (Lane lane : lanes) {
            Carrier polling = lane.idlePoller;
            if (polling != null && (every || !polling.pollingIdleWoken)) {
                if (!polling.pollingIdleWoken) {
                    polling.pollingIdleWoken = true;
                    idlePollersUnwoken--;
                    updateHints();
                }
                poller.wakeup(lane.index);
                if (!every) {
                    return;
                }
            }
        }
    }

    /** The idle carrier that parked last and is not held back, left listed; null when there is none. Under the lock. */
    private Carrier latestIdleNotHeldBack() {
        for (Carrier parked : idleCarriers) {
            if (!parked.heldBack) {
                return parked;
            }
        }
        return null;
    }

    /**
     * Takes a parked idle carrier off the list to wake it, the latest to park first, but the one waiting for the next
     * timer deadline only when no other is parked (woken for work, it gives up that role, and the carriers still
     * parked without a role would leave the timers unfired while it runs, until one of them idles again), and never
     * one held back ({@link Carrier#heldBack}); null when there is none. Under the lock.
     */
    private Carrier takeIdleCarrier() {
        Carrier chosen = null;
        for (Carrier parked : idleCarriers) {
            if (parked.heldBack) {
                continue;
            }
            if (parked != timerWaiting) {
                chosen = parked;
                break;
            }
            chosen = chosen == null ? parked : chosen;
        }
        if (chosen != null) {
            idleCarriers.remove(chosen);
        }
        return chosen;
    }

    /**
     * The carriers neither idle, nor blocked by a pinned thread, nor held back: those running threads or about to;
     * under the lock.
     */
    private int busyCarriers() {
        return carriers.size() - blockedCarriers - idleCarriers.size() - idlePollers
                - heldBackAtWork;
    }

    /** Recomputes the fields that the carriers read without the lock from those it guards; under the lock. */
    private void updateHints() {
        carrierShortage = carriers.size() - blockedCarriers < parallelism && carriers.size() < mostCarriers;
        if (carriers.size() > parallelism || heldBackCarriers > 0) {
            holdBackSurplus();
        }
        wakeableIdle = idleCarriers.size() - heldBackParked + idlePollersUnwoken;
    }

    /**
     * Marks as held back every carrier that comes after the first {@code parallelism} carriers not blocked, in the
     * order they started, and counts them; under the lock. While carriers are blocked, the spares started for them
     * are among the first and run threads; once the blocks end, the spares come after and stop, so that no more
     * carriers run threads than configured (one carrier is deterministic again) and the ones to end are always the
     * same: were any idle carrier woken for work, the spares would take turns with the others, each rarely idle for a
     * whole keep-alive, and more carriers than cores would take and leave the cores for the rest of the run.
     */
    private void holdBackSurplus() {
        int kept = 0;
        int heldBack = 0;
        int parked = 0;
        int working = 0;
        for (Carrier carrier : carriers) {
            boolean blocked = carrier.pinnedBlock || carrier.unseenBlock;
            boolean hold = !blocked && kept >= parallelism;
            if (!blocked && !hold) {
                kept++;
            }
            if (hold) {
                heldBack++;
                if (carrier.idle) {
                    parked++;
                } else if (!carrier.pollingIdle) {
                    working++;
                }
            }
            if (carrier.heldBack != hold) {
                carrier.heldBack = hold;
            }
        }
        heldBackCarriers = heldBack;
        heldBackParked = parked;
        heldBackAtWork = working;
    }
}
