package org.picothreads.runtime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.picothreads.runtime.PicoThreads;
import org.picothreads.runtime.SchedulingPolicy;

/**
 * The scheduler: daemon platform threads, the carriers (one per available processor unless
 * {@code picothreads.carriers} says otherwise), that run PicoThreads until each returns or suspends.
 *
 * <pre>
 * each carrier, one round:
 *   1. under the scheduler's lock: make the tasks whose timers are due ready, earliest deadline first;
 *      take one ready task (FIFO, LIFO or RANDOM) and mark it dispatched
 *   2. dispatch it, outside the lock:
 *        restoring (this carrier) = task has suspended before; current = task; task.thread.run()
 *          returns      -> terminated: wake its joiners
 *          Capture      -> suspended: the blocking call already armed its wake-up; a wake-up that came while the
 *                          capture unwound made it ready again, and the carrier queues it now
 *          throws       -> uncaught exception handler, then terminated
 *   3. or, when no task is ready, wait: for I/O (one idle carrier polls the I/O poller), for the next timer
 *      deadline (one idle carrier), or until woken for new work (the others); a spare carrier idle for
 *      SPARE_KEEPALIVE ends
 * </pre>
 *
 * <p>A thread that must block but cannot be captured (it is pinned) blocks its carrier for real, see
 * {@link #blockPinned}, so the JVM's monitor, class-initialization and lock semantics hold for it exactly as for a
 * platform thread; while it does, the scheduler compensates by starting a spare carrier, so that as many carriers as
 * configured stay able to run PicoThreads, up to {@code picothreads.maxCarriers} in all.
 *
 * <p>The run queue, the timers, the list of live tasks and every task's scheduling state change under one short
 * lock, {@link #lock}, never held while user code runs or a carrier waits. With one carrier the policies order the
 * tasks exactly as the paper's scheduler does: the same program and seed give the same interleaving (unless a
 * pinned thread blocks, when a spare carrier runs the others meanwhile).
 */
public final class Scheduler {
    /** Default stack size of a carrier, which runs deep rewritten recursion: 256 MiB. */
    private static final long DEFAULT_CARRIER_STACK_SIZE = 256L << 20;
    /** The class path resource with the build's defaults (keys scheduler, seed, carriers), which the system properties override. */
    private static final String DEFAULTS_RESOURCE = "META-INF/picothreads.properties";
    /** Longest wait that is armed as given; longer ones are cut to it so that deadlines cannot overflow. */
    private static final long LONGEST_WAIT_NANOS = Long.MAX_VALUE / 4;
    /** The default bound on carriers, compensation included: the JDK's virtual thread scheduler's. */
    private static final int DEFAULT_MOST_CARRIERS = 256;
    /** The largest number of carriers any setting may ask for. */
    private static final int MOST_CARRIERS_LIMIT = 32_767;
    /** How long a carrier beyond the configured number stays idle before it ends. */
    private static final long SPARE_KEEPALIVE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long a pinned thread's yield lets a spare carrier run the others before it continues. */
    private static final long PINNED_YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /**
     * Fewest dispatches between two polls of the I/O poller by a busy carrier while tasks are ready, so that I/O is
     * never starved; a longer run queue waits one round of it.
     */
    private static final int DISPATCHES_PER_IO_POLL = 64;

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

    /** Guards everything below, and every task's scheduling state; never held while user code runs or anyone waits. */
    private final Object lock = new Object();
    private final RunQueue runQueue;
    private final TimerHeap timers = new TimerHeap();
    /** Every carrier started and not ended. */
    private final List<Carrier> carriers = new ArrayList<>();
    /** The carriers parked for lack of work, the latest to park first; the one polling I/O is not among them. */
    private final ArrayDeque<Carrier> idleCarriers = new ArrayDeque<>();
    /** How many carriers are blocked for real by a pinned task. */
    private int blockedCarriers;
    /** The carrier polling the I/O poller, or null. */
    private Carrier ioPolling;
    /** True once the carrier polling I/O was woken for new work, so that it is woken once. */
    private boolean ioPollingWoken;
    /** The idle carrier that waits for the next timer deadline, or null; and the deadline it waits for. */
    private Carrier timerWaiting;
    private long timerWaitingDeadline;
    /** The idle carrier that looks for a deadlock, or null. */
    private Carrier deadlockWatching;
    /** Numbers the carriers' names. */
    private int carriersNumbered;
    private long sparesStarted;

    private long threadsStarted;
    private long threadsTerminated;
    /** The counters of the carriers that have ended. */
    private final CarrierCounters endedCarriers = new CarrierCounters();

    /** The first of the live tasks (admitted, not terminated), linked in a circle in admission order; or null. */
    private Task liveTasks;
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
        this.runQueue = new RunQueue(policy, seed);
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

    private static Scheduler boot() {
        synchronized (bootLock) {
            Scheduler scheduler = instance;
            if (scheduler == null) {
                SchedulingPolicy policy = configuredPolicy;
                long seed = configuredSeed;
                BuildDefaults defaults = BuildDefaults.read();
                if (policy == null) {
                    policy = policyProperty(defaults);
                    seed = seedProperty(defaults);
                }
                int parallelism = carriersProperty(defaults);
                scheduler = new Scheduler(policy, seed, parallelism, mostCarriersProperty(parallelism),
                        stackSizeProperty());
                synchronized (scheduler.lock) {
                    scheduler.startCarrier();
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
            return new PicoThreads.Statistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        synchronized (scheduler.lock) {
            CarrierCounters total = new CarrierCounters();
            scheduler.endedCarriers.addTo(total);
            for (Carrier carrier : scheduler.carriers) {
                carrier.counters.addTo(total);
            }
            long started = scheduler.threadsStarted;
            long terminated = scheduler.threadsTerminated;
            return new PicoThreads.Statistics(started, terminated, started - terminated, total.suspensions,
                    total.resumes, total.pinnedBlocks, total.foreignFramePins, total.framesChecked,
                    total.framesTrustedByCaller, scheduler.carriers.size(), scheduler.sparesStarted,
                    total.activationsSaved, total.activationsRestored);
        }
    }

    /** The policy from picothreads.scheduler, else from the defaults resource's scheduler, else FIFO. */
    private static SchedulingPolicy policyProperty(BuildDefaults defaults) {
        String value = System.getProperty("picothreads.scheduler");
        boolean fromResource = value == null && defaults.scheduler() != null;
        if (fromResource) {
            value = defaults.scheduler();
        }
        value = value == null ? "fifo" : value.trim();
        switch (value.toLowerCase(Locale.ROOT)) {
            case "fifo":
                return SchedulingPolicy.FIFO;
            case "lifo":
                return SchedulingPolicy.LIFO;
            case "random":
                return SchedulingPolicy.RANDOM;
            default:
                String setting = fromResource ? "scheduler in " + defaults.origin() : "picothreads.scheduler";
                throw new IllegalArgumentException(
                        "PicoThreads: " + setting + " must be fifo, lifo or random, not '" + value + "'");
        }
    }

    /** The RANDOM policy's seed from picothreads.seed, else from the defaults resource's seed, else 0. */
    private static long seedProperty(BuildDefaults defaults) {
        String value = defaults.seed();
        if (System.getProperty("picothreads.seed") != null || value == null) {
            return Long.getLong("picothreads.seed", 0L);
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("PicoThreads: seed in " + defaults.origin()
                    + " must be a whole number, not '" + value + "'", e);
        }
    }

    /**
     * The build's default policy from {@link #DEFAULTS_RESOURCE} on the class path, as the Maven plugin writes it:
     * found through the booting thread's context class loader, else the runtime's own, each searched parents first
     * as {@link ClassLoader#getResource} does.
     *
     * <p>On the class path, each loader is asked through its unnamed module, which searches only that loader's own
     * class path: {@code getResource} would first search the JDK's modules through the boot loader, whose first
     * resource lookup opens the runtime image (10 to 20 ms before the first PicoThread could run). A program
     * started from a module path, where the resource may be in a named module, is searched with getResource.
     *
     * @param scheduler the {@code scheduler} value, or null
     * @param seed      the {@code seed} value, or null
     * @param carriers  the {@code carriers} value, or null
     * @param source    the class loader that found the resource, or null when there is none
     */
    private record BuildDefaults(String scheduler, String seed, String carriers, ClassLoader source) {
        static BuildDefaults read() {
            ClassLoader contextLoader = Thread.currentThread().getContextClassLoader();
            ClassLoader runtimeLoader = Scheduler.class.getClassLoader();
            for (ClassLoader loader : new ClassLoader[] {contextLoader,
                    runtimeLoader != null ? runtimeLoader : ClassLoader.getSystemClassLoader()}) {
                BuildDefaults found = loader == null ? null : readThrough(loader);
                if (found != null) {
                    return found;
                }
            }
            return new BuildDefaults(null, null, null, null);
        }

        /** The defaults that {@code loader} or one of its parents finds, searched parents first; null if none. */
        private static BuildDefaults readThrough(ClassLoader loader) {
            if (System.getProperty("jdk.module.path") != null) {
                URL resource = loader.getResource(DEFAULTS_RESOURCE);
                if (resource == null) {
                    return null;
                }
                try {
                    return load(resource.openStream(), loader);
                } catch (IOException e) {
                    throw new UncheckedIOException("PicoThreads: cannot read " + resource, e);
                }
            }
            List<ClassLoader> rootFirst = new ArrayList<>();
            for (ClassLoader each = loader; each != null; each = each.getParent()) {
                rootFirst.add(0, each);
            }
            for (ClassLoader each : rootFirst) {
                try {
                    InputStream in = each.getUnnamedModule().getResourceAsStream(DEFAULTS_RESOURCE);
                    if (in != null) {
                        return load(in, each);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("PicoThreads: cannot read " + DEFAULTS_RESOURCE + " of " + each, e);
                }
            }
            return null;
        }

        private static BuildDefaults load(InputStream resource, ClassLoader source) throws IOException {
            Properties values = new Properties();
            try (InputStream in = resource) {
                values.load(in);
            }
            return new BuildDefaults(values.getProperty("scheduler"), values.getProperty("seed"),
                    values.getProperty("carriers"), source);
        }

        /** The resource's URL, for messages. */
        String origin() {
            URL resource = source.getResource(DEFAULTS_RESOURCE);
            return resource != null ? resource.toString() : DEFAULTS_RESOURCE;
        }
    }

    /**
     * The number of carriers from picothreads.carriers, else from the defaults resource's carriers, else one per
     * available processor.
     */
    private static int carriersProperty(BuildDefaults defaults) {
        String value = System.getProperty("picothreads.carriers");
        boolean fromResource = value == null && defaults.carriers() != null;
        if (fromResource) {
            value = defaults.carriers();
        }
        if (value == null || value.isBlank()) {
            return Runtime.getRuntime().availableProcessors();
        }
        return carrierCount(value, fromResource ? "carriers in " + defaults.origin() : "picothreads.carriers");
    }

    /**
     * The most carriers there may be at once, compensation included, from picothreads.maxCarriers, else 256 (as the
     * JDK's virtual thread scheduler), and never fewer than {@code carriers}.
     */
    private static int mostCarriersProperty(int carriers) {
        String value = System.getProperty("picothreads.maxCarriers");
        if (value == null || value.isBlank()) {
            return Math.max(carriers, DEFAULT_MOST_CARRIERS);
        }
        return Math.max(carriers, carrierCount(value, "picothreads.maxCarriers"));
    }

    /** A number of carriers given by {@code setting}: a whole number from 1 to {@link #MOST_CARRIERS_LIMIT}. */
    private static int carrierCount(String value, String setting) {
        try {
            int count = Integer.parseInt(value.trim());
            if (count >= 1 && count <= MOST_CARRIERS_LIMIT) {
                return count;
            }
        } catch (NumberFormatException e) {
            // reported below, as a number out of range is
        }
        throw new IllegalArgumentException("PicoThreads: " + setting + " must be a whole number from 1 to "
                + MOST_CARRIERS_LIMIT + ", not '" + value + "'");
    }

    /** The carrier stack size from picothreads.carrierStackSize, in bytes or with a k, m or g suffix. */
    private static long stackSizeProperty() {
        String value = System.getProperty("picothreads.carrierStackSize");
        if (value == null || value.isBlank()) {
            return DEFAULT_CARRIER_STACK_SIZE;
        }
        String digits = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        char suffix = digits.charAt(digits.length() - 1);
        if (suffix == 'k' || suffix == 'm' || suffix == 'g') {
            unit = suffix == 'k' ? 1L << 10 : suffix == 'm' ? 1L << 20 : 1L << 30;
            digits = digits.substring(0, digits.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(digits), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("PicoThreads: picothreads.carrierStackSize must be a size in bytes,"
                    + " optionally with a k, m or g suffix, not '" + value + "'", e);
        }
    }

    /** Starts one more carrier; under the lock. */
    private void startCarrier() {
        Carrier carrier = new Carrier(this, "pico-carrier-" + ++carriersNumbered, carrierStackSize);
        carriers.add(carrier);
        if (carriers.size() > parallelism) {
            sparesStarted++;
        }
        carrier.start();
    }

    /** Admits a task whose thread has just been started; any thread may call this. */
    void start(Task task) {
        synchronized (lock) {
            admit(task);
        }
    }

    /** Wakes a task whose interrupt status was just set, if it is sleeping, joining or parked; any thread may call this. */
    void interrupt(Task task) {
        synchronized (lock) {
            if (task.interrupted && task.isWaiting()) {
                wake(task, true);
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
        synchronized (lock) {
            if (interruptedBeforeWaiting(task)) {
                return;
            }
            task.state = Task.SLEEPING;
            armTimer(task, nanos);
        }
        suspendOrBlockPinned(task);
    }

    /**
     * True when the task's interrupt status was set after its blocking call checked it but before it could wait (an
     * interrupt from another carrier): the wait then ends at once, as if the interrupt had woken it. Under the lock,
     * which the interrupt takes after setting the status, so that one of them sees the other.
     */
    private static boolean interruptedBeforeWaiting(Task task) {
        if (!task.interrupted) {
            return false;
        }
        task.wokenByInterrupt = true;
        return true;
    }

    /**
     * Makes the running task wait until {@code thread} (whose task is {@code target}, or null for a platform
     * thread) terminates, or for {@code nanos} when that is positive: throws the capture signal, or, when the
     * task is pinned, returns once the wait is over. Returns at once when the target has meanwhile terminated.
     */
    void join(Task task, Thread thread, Task target, long nanos) {
        synchronized (lock) {
            if (target != null && target.state == Task.TERMINATED || interruptedBeforeWaiting(task)) {
                return;
            }
            task.state = nanos > 0 ? Task.JOINING_TIMED : Task.JOINING;
            if (target != null) {
                task.blocker = target;
                target.addJoiner(task);
            } else {
                task.blocker = thread;
            }
            if (nanos > 0) {
                armTimer(task, nanos);
            }
        }
        if (target == null) {
            watchPlatformThread(task, thread, nanos);
        }
        suspendOrBlockPinned(task);
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
        synchronized (lock) {
            if (task.permit) {
                task.permit = false;
                return;
            }
            if (task.interrupted) {
                return;
            }
            task.state = nanos > 0 ? Task.PARKED_TIMED : Task.PARKED;
            task.blocker = blocker;
            if (nanos > 0) {
                armTimer(task, nanos);
            }
        }
        suspendOrBlockPinned(task);
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
        synchronized (lock) {
            if (task.permit) {
                task.permit = false;
                return;
            }
            task.state = Task.BLOCKED;
            task.blocker = monitor;
        }
        suspendOrBlockPinned(task);
    }

    /**
     * Unparks a task, as {@link LockSupport#unpark} does a thread: a parked task becomes ready; any other task
     * keeps a permit that makes its next park return at once. Any thread may call this.
     */
    void unpark(Task task) {
        synchronized (lock) {
            if (task.isParked()) {
                task.permit = false;
                wake(task, false);
            } else if (task.state != Task.TERMINATED) {
                task.permit = true;
            }
        }
    }

    /**
     * Lets the other ready tasks run before the running one continues: throws the capture signal with the task
     * ready again, or, when the task is pinned, lets a spare carrier run the others for a moment and returns.
     * Returns at once when nothing else could run.
     */
    void yieldTask(Task task) {
        // Read without the lock: a yield is a hint, and one that misses a thread made ready this instant is as good
        // as one made a moment earlier.
        if (runQueue.isEmpty()) {
            synchronized (lock) {
                if (runQueue.isEmpty() && !hasDueTimer()) {
                    return;
                }
            }
        }
        if (capturable(task)) {
            // No lock either: a running thread that is not waiting is changed by nobody else (an unpark only gives
            // it a permit, an interrupt only sets its status), and its carrier queues it after the capture.
            task.yielded = true;
            task.state = Task.RUNNABLE;
            throw Continuation.suspend();
        }
        Carrier carrier = Carrier.here();
        carrier.counters.pinnedBlocks++;
        synchronized (lock) {
            blockedCarriers++;
            compensate();
        }
        try {
            LockSupport.parkNanos(this, PINNED_YIELD_NANOS);
        } finally {
            synchronized (lock) {
                blockedCarriers--;
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
            return true;
        }
        carrier.counters.framesChecked++;
        if (CaptureSafety.everyFrameCapturable()) {
            return true;
        }
        carrier.counters.foreignFramePins++;
        return false;
    }

    private void suspendOrBlockPinned(Task task) {
        if (capturable(task)) {
            throw Continuation.suspend();
        }
        blockPinned(task);
    }

    /**
     * Blocks a pinned task without capturing it: its frames stay on its carrier's stack, and the carrier parks for
     * real until the task's wake-up (timer, joined thread terminated, unpark, interrupt) has set it running again.
     * Meanwhile a spare carrier is started if fewer than the configured number could run PicoThreads. The carrier
     * wakes at the task's own timer deadline as well, and fires the due timers itself, in case every carrier is
     * blocked.
     */
    private void blockPinned(Task task) {
        Carrier carrier = Carrier.here();
        carrier.counters.pinnedBlocks++;
        synchronized (lock) {
            if (task.state == Task.RUNNABLE) {
                task.state = Task.RUNNING; // woken between arming its wake-up and getting here
                return;
            }
            task.pinnedWait = true;
            task.pinnedCarrier = carrier;
            blockedCarriers++;
            compensate();
        }
        try {
            while (true) {
                long deadline;
                synchronized (lock) {
                    fireDueTimers();
                    if (task.state == Task.RUNNING) {
                        return;
                    }
                    deadline = task.timerKey != 0 ? task.timerDeadline : 0;
                }
                Thread.interrupted(); // a stray interrupt of the carrier would make every park return at once
                if (deadline != 0) {
                    long wait = deadline - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(task, wait);
                    }
                } else {
                    LockSupport.park(task);
                }
            }
        } finally {
            synchronized (lock) {
                task.pinnedWait = false;
                task.pinnedCarrier = null;
                blockedCarriers--;
            }
        }
    }

    /**
     * Starts a spare carrier when fewer carriers than configured can run PicoThreads (the others are blocked by
     * pinned tasks), within the bound on carriers; under the lock.
     */
    private void compensate() {
        if (carriers.size() - blockedCarriers >= parallelism) {
            if (!runQueue.isEmpty()) {
                signalWork(); // an idle carrier takes the ready threads
            }
        } else if (carriers.size() < mostCarriers) {
            startCarrier();
        }
    }

    /** Has a helper platform thread wait for a platform thread a task joins, and wake the task when it ends. */
    private void watchPlatformThread(Task task, Thread thread, long nanos) {
        long millis = nanos > 0 ? TimeUnit.NANOSECONDS.toMillis(nanos) + 1 : 0;
        Runnable watch = () -> {
            try {
                thread.join(millis);
                synchronized (lock) {
                    if (task.blocker == thread && task.isWaiting() && !thread.isAlive()) {
                        wake(task, false);
                    }
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

    /** What an idle carrier does until it looks for work again. */
    private enum IdleWait {
        /** Polls the I/O poller until I/O is ready, the next timer deadline or a wake-up. */
        POLL_IO,
        /** Parks until the next timer deadline or a wake-up. */
        AWAIT_TIMER,
        /** Looks for a deadlock while it parks. */
        WATCH_DEADLOCK,
        /** Parks until woken (a spare: at most until its keep-alive ends). */
        PARK,
        /** Ends: a spare that stayed idle for its whole keep-alive. */
        RETIRE
    }

    /** The loop of a carrier, until it retires. */
    void work(Carrier carrier) {
        long idleSince = 0;
        Task captured = null;
        while (true) {
            Task next;
            IdleWait idle = null;
            Task strayCapture = null;
            synchronized (lock) {
                if (captured != null && !suspended(captured)) {
                    strayCapture = captured;
                }
                captured = null;
                next = takeReady();
                if (next == null) {
                    long now = System.nanoTime();
                    idleSince = idleSince == 0 ? now : idleSince;
                    idle = becomeIdle(carrier, now, idleSince);
                    if (idle == IdleWait.RETIRE) {
                        retire(carrier);
                        return;
                    }
                }
            }
            if (strayCapture != null) {
                terminate(strayCapture, new IllegalStateException("PicoThreads: thread \""
                        + strayCapture.thread.getName() + "\" threw the capture signal without arranging to be woken;"
                        + " a frame that was not rewritten let it through"));
            }
            if (next != null) {
                idleSince = 0;
                if (--carrier.dispatchesUntilIoPoll <= 0) {
                    carrier.dispatchesUntilIoPoll = DISPATCHES_PER_IO_POLL;
                    pollIoNow(carrier);
                }
                captured = dispatch(next, carrier);
            } else {
                waitIdle(carrier, idle);
            }
        }
    }

    /**
     * Takes the next ready thread for a carrier and marks it dispatched, after making the threads whose timers are
     * due ready; null when there is none, or when this carrier is one too many at work. Under the lock.
     */
    private Task takeReady() {
        fireDueTimers();
        // Once no carrier is blocked any more, a carrier beyond the configured number at work (a pinned thread's
        // carrier came back while its spare still runs) stops taking threads, so that no more run at once than
        // configured (one carrier is deterministic again); while some are blocked, all take them.
        if (blockedCarriers == 0 && busyCarriers() > parallelism) {
            return null;
        }
        Task next = runQueue.poll();
        while (next != null && next.state == Task.TERMINATED) {
            next = runQueue.poll();
        }
        if (next != null) {
            next.dispatched = true;
            next.state = Task.RUNNING;
            if (!runQueue.isEmpty()) {
                signalWork();
            }
        }
        return next;
    }

    /**
     * Chooses how a carrier without work waits, takes the role that goes with it (the I/O poller, the timer waiter,
     * the deadlock watcher) and sets {@link Carrier#idleWaitNanos}; lists the carrier as idle unless it polls I/O.
     * Under the lock.
     */
    private IdleWait becomeIdle(Carrier carrier, long now, long idleSince) {
        IoPoller installed = poller;
        boolean surplus = carriers.size() - blockedCarriers > parallelism;
        IdleWait idle;
        long waitNanos = -1;
        if (surplus && now - idleSince >= SPARE_KEEPALIVE_NANOS) {
            return IdleWait.RETIRE;
        }
        if (installed != null && ioPolling == null && installed.pendingWaits() > 0) {
            idle = IdleWait.POLL_IO;
            ioPolling = carrier;
            ioPollingWoken = false;
            if (timers.hasLiveTimers()
                    && (timerWaiting == null || timers.nextDeadline() - timerWaitingDeadline < 0)) {
                timerWaiting = carrier;
                timerWaitingDeadline = timers.nextDeadline();
                waitNanos = Math.max(0, timerWaitingDeadline - now);
            }
        } else if (timers.hasLiveTimers() && timerWaiting == null) {
            idle = IdleWait.AWAIT_TIMER;
            timerWaiting = carrier;
            timerWaitingDeadline = timers.nextDeadline();
            waitNanos = Math.max(0, timerWaitingDeadline - now);
        } else if (!surplus && liveTasks != null && DeadlockDetector.ENABLED && deadlockWatching == null
                && !timers.hasLiveTimers()) {
            idle = IdleWait.WATCH_DEADLOCK;
            deadlockWatching = carrier;
            if (deadlockDetector == null) {
                deadlockDetector = new DeadlockDetector(this);
            }
        } else {
            idle = IdleWait.PARK;
            waitNanos = surplus ? SPARE_KEEPALIVE_NANOS - (now - idleSince) : -1;
        }
        carrier.idleWaitNanos = waitNanos;
        if (idle != IdleWait.POLL_IO) {
            carrier.idle = true;
            idleCarriers.push(carrier);
        }
        return idle;
    }

    /** Waits as {@link #becomeIdle} chose, then gives up the carrier's idle role. Outside the lock. */
    private void waitIdle(Carrier carrier, IdleWait idle) {
        long waitNanos = carrier.idleWaitNanos;
        Thread.interrupted(); // a stray interrupt of the carrier would make every park return at once
        switch (idle) {
            case POLL_IO -> poller.poll(waitNanos);
            case WATCH_DEADLOCK -> deadlockDetector.parkIdle();
            default -> {
                if (waitNanos < 0) {
                    LockSupport.park(this);
                } else if (waitNanos > 0) {
                    LockSupport.parkNanos(this, waitNanos);
                }
            }
        }
        synchronized (lock) {
            if (carrier.idle) {
                carrier.idle = false;
                idleCarriers.remove(carrier);
            }
            if (ioPolling == carrier) {
                ioPolling = null;
            }
            if (timerWaiting == carrier) {
                timerWaiting = null;
            }
            if (deadlockWatching == carrier) {
                deadlockWatching = null;
            }
        }
    }

    /** Ends a spare carrier, keeping its counters; under the lock. */
    private void retire(Carrier carrier) {
        carriers.remove(carrier);
        carrier.counters.addTo(endedCarriers);
    }

    /** Polls the I/O poller without waiting, when threads wait for I/O and no other carrier polls it. */
    private void pollIoNow(Carrier carrier) {
        IoPoller installed = poller;
        if (installed == null || installed.pendingWaits() == 0) {
            return;
        }
        synchronized (lock) {
            if (ioPolling != null) {
                return;
            }
            ioPolling = carrier;
            ioPollingWoken = true; // a poll that does not wait needs no wake-up
        }
        try {
            installed.poll(0);
        } finally {
            synchronized (lock) {
                ioPolling = null;
            }
        }
    }

    /**
     * Gets a carrier to look at the run queue: an idle one unparked, else the one polling I/O woken, else a new one
     * while fewer than configured can run PicoThreads; under the lock.
     */
    private void signalWork() {
        if (busyCarriers() >= parallelism) {
            return;
        }
        Carrier idle = idleCarriers.poll();
        if (idle != null) {
            idle.idle = false;
            LockSupport.unpark(idle);
            return;
        }
        if (ioPolling != null) {
            if (!ioPollingWoken) {
                ioPollingWoken = true;
                poller.wakeup();
            }
            return;
        }
        if (carriers.size() - blockedCarriers < parallelism) {
            startCarrier();
        }
    }

    /** The carriers neither idle nor blocked by a pinned thread: those running threads or about to; under the lock. */
    private int busyCarriers() {
        return carriers.size() - blockedCarriers - idleCarriers.size() - (ioPolling != null ? 1 : 0);
    }

    /** Arms the task's timer for {@code nanos} from now, and gets an idle carrier to wait for it if it is the next; under the lock. */
    private void armTimer(Task task, long nanos) {
        long deadline = System.nanoTime() + Math.min(nanos, LONGEST_WAIT_NANOS);
        timers.arm(task, deadline);
        task.timerDeadline = deadline;
        if (timerWaiting != null) {
            if (deadline - timerWaitingDeadline < 0) {
                timerWaitingDeadline = deadline;
                if (timerWaiting == ioPolling) {
                    ioPollingWoken = true;
                    poller.wakeup();
                } else {
                    LockSupport.unpark(timerWaiting);
                }
            }
            return;
        }
        Carrier idle = idleCarriers.peek();
        if (idle != null) {
            LockSupport.unpark(idle); // it stays listed as idle, looks again and waits for the deadline
        } else if (ioPolling != null && !ioPollingWoken) {
            ioPollingWoken = true;
            poller.wakeup();
        }
    }

    /** Makes the tasks whose timers are due ready; under the lock. */
    private void fireDueTimers() {
        if (timers.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        Task task;
        while ((task = timers.pollExpired(now)) != null) {
            wake(task, false);
        }
    }

    private boolean hasDueTimer() {
        return timers.hasLiveTimers() && timers.nextDeadline() - System.nanoTime() <= 0;
    }

    /** True while no carrier runs a task and there is nothing ready and no timer to wait for. */
    boolean isIdle() {
        synchronized (lock) {
            int waiting = idleCarriers.size() + (ioPolling != null ? 1 : 0);
            return runQueue.isEmpty() && !timers.hasLiveTimers() && waiting >= carriers.size() - blockedCarriers;
        }
    }

    /** True while a join watcher, pending I/O or an offloaded call may still wake a task. */
    boolean hasExternalWakeSources() {
        IoPoller installed = poller;
        return activeJoinWatchers.get() > 0 || Offloads.pending() > 0
                || installed != null && installed.pendingWaits() > 0;
    }

    /** The dump printed on a deadlock, of every live task. */
    String deadlockDump() {
        synchronized (lock) {
            return ThreadDump.write(ThreadDump.deadlockHeader(threadsStarted - threadsTerminated, blockedCarriers),
                    liveTasks);
        }
    }

    /** The dump of the live PicoThreads (see {@link PicoThreads#dump()}), written under the scheduler's lock. */
    public static String dump() {
        Scheduler scheduler = instance;
        if (scheduler == null) {
            return ThreadDump.liveHeader(0, 0) + "\n";
        }
        synchronized (scheduler.lock) {
            return ThreadDump.write(ThreadDump.liveHeader(scheduler.threadsStarted - scheduler.threadsTerminated,
                    scheduler.blockedCarriers), scheduler.liveTasks);
        }
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
        synchronized (scheduler.lock) {
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

    /** Lists a started task as live and makes it ready; under the lock. */
    private void admit(Task task) {
        threadsStarted++;
        Task first = liveTasks;
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
        runQueue.add(task);
        signalWork();
    }

    /**
     * Runs a task taken from the run queue on {@code carrier} until it returns, throws or suspends; returns the task
     * when it was captured, for the carrier to finish its suspension ({@link #suspended}) under the lock it takes next
     * anyway, or null.
     */
    private Task dispatch(Task task, Carrier carrier) {
        carrier.current = task;
        if (task.resumable) {
            carrier.counters.resumes++;
            Continuation.beginRestoring(carrier);
        }
        try {
            DispatchFrame.run(task);
            Continuation.endRestoring(carrier);
            terminate(task, null);
            return null;
        } catch (Capture signal) {
            Continuation.endRestoring(carrier);
            carrier.counters.suspensions++;
            task.resumable = true;
            return task;
        } catch (Throwable failure) {
            Continuation.endRestoring(carrier);
            terminate(task, failure);
            return null;
        } finally {
            Continuation.endRestoring(carrier);
            carrier.current = null;
        }
    }

    /**
     * Ends the dispatch of a task that has just been captured: if a wake-up (or its own yield) made it ready while
     * the capture unwound, queues it now. False when the task threw the signal without arming any wake-up. Under
     * the lock.
     */
    private boolean suspended(Task task) {
        task.dispatched = false;
        byte state = task.state;
        if (state == Task.RUNNING) {
            return false;
        }
        if (state == Task.RUNNABLE) {
            if (task.yielded) {
                task.yielded = false;
                runQueue.addYielded(task);
            } else {
                runQueue.add(task);
            }
            if (runQueue.size() > 1) {
                signalWork();
            }
        } else if (ioPolling == null && !idleCarriers.isEmpty()) {
            // A thread that has just started to wait for I/O: an idle carrier polls for it, rather than the
            // busy ones only between their dispatches.
            IoPoller installed = poller;
            if (installed != null && installed.pendingWaits() > 0) {
                Carrier idle = idleCarriers.poll();
                idle.idle = false;
                LockSupport.unpark(idle);
            }
        }
        return true;
    }

    private void terminate(Task task, Throwable failure) {
        if (failure != null) {
            dispatchUncaughtException(task, failure);
        }
        synchronized (lock) {
            // A thread that died while a wake-up was armed (a capture that escaped through a frame that was not
            // rewritten, after its blocking call armed a timer) must never be dispatched again.
            timers.cancel(task);
            task.pinDepth = 0;
            task.dispatched = false;
            Monitors.holderResuming(task);
            threadsTerminated++;
            unlinkLive(task);
            task.state = Task.TERMINATED;
            Task joiner;
            while ((joiner = task.joiners) != null) {
                wake(joiner, false);
            }
        }
        task.markTerminated();
        Monitors.threadTerminated(task.thread);
        if (!task.daemon) {
            Lifetime.nonDaemonThreadTerminated();
        }
    }

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

    /**
     * Ends a task's wait: disarms its timer, leaves its joiner list, records whether an interrupt ended the wait,
     * and makes the task ready (or, if pinned, running: its carrier is unparked). A task woken while its capture is
     * still unwinding on its carrier is queued by that carrier when the capture is done. Under the lock.
     */
    private void wake(Task task, boolean byInterrupt) {
        timers.cancel(task);
        task.wokenByInterrupt = byInterrupt;
        Object blocker = task.blocker;
        if (blocker instanceof Task && (task.state == Task.JOINING || task.state == Task.JOINING_TIMED)) {
            ((Task) blocker).removeJoiner(task);
        }
        task.blocker = null;
        if (task.pinnedWait) {
            task.state = Task.RUNNING;
            LockSupport.unpark(task.pinnedCarrier);
        } else {
            task.state = Task.RUNNABLE;
            if (!task.dispatched) {
                runQueue.add(task);
                signalWork();
            }
        }
    }
}
