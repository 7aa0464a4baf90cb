package org.picothreads.runtime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.picothreads.runtime.PicoThreads;
import org.picothreads.runtime.SchedulingPolicy;

/**
 * The cooperative scheduler: one loop on one daemon platform thread, the carrier, that runs PicoThreads one at a
 * time until each returns or suspends.
 *
 * <pre>
 * loop, one round:
 *   1. run the submissions other platform threads queued (start, interrupt, a joined platform thread ended)
 *   2. move the tasks whose timers are due to the run queue, earliest deadline first
 *   3. take one task from the run queue (FIFO, LIFO or RANDOM) and dispatch it:
 *        restoring = task has suspended before; current = task; task.thread.run()
 *          returns      -> terminated: wake its joiners
 *          Capture      -> suspended: the blocking call already armed its wake-up
 *          throws       -> uncaught exception handler, then terminated
 *        restoring = false; current = null
 *   4. or, when no task is ready, park until the next timer deadline or the next submission
 * </pre>
 *
 * <p>All scheduling state (run queue, timers, joiner lists, statistics) belongs to the carrier; other threads
 * only add to the submission queue and unpark the carrier. A thread that must block but cannot be captured (it
 * is pinned) runs the same rounds nested on the carrier stack until its own wake-up arrives, see
 * {@link #blockPinned(Task)}.
 */
public final class Scheduler {
    /** Default stack size of the carrier, which runs deep rewritten recursion: 256 MiB. */
    private static final long DEFAULT_CARRIER_STACK_SIZE = 256L << 20;
    /** The class path resource with the build's default policy (keys scheduler and seed), which the system properties override. */
    private static final String DEFAULTS_RESOURCE = "META-INF/picothreads.properties";
    /** Longest wait that is armed as given; longer ones are cut to it so that deadlines cannot overflow. */
    private static final long LONGEST_WAIT_NANOS = Long.MAX_VALUE / 4;

    private static final Object bootLock = new Object();
    private static volatile Scheduler instance;
    /** The policy set through {@link PicoThreads#configure}, or null to read the system properties. */
    private static SchedulingPolicy configuredPolicy;
    private static long configuredSeed;

    private final SchedulingPolicy policy;
    private final long seed;
    private final RunQueue runQueue;
    private final TimerHeap timers = new TimerHeap();
    private final ConcurrentLinkedQueue<Runnable> submissions = new ConcurrentLinkedQueue<>();
    private final Thread carrier;

    private long threadsStarted;
    private long threadsTerminated;
    private long suspensions;
    private long resumes;
    private long pinnedBlocks;
    private long foreignFramePins;
    private long framesChecked;
    private long framesTrustedByCaller;

    /** The first of the live tasks (admitted, not terminated), linked in a circle in admission order; or null. */
    private Task liveTasks;
    /** Join-watcher threads still waiting for a platform thread that a task joins; each may wake a task. */
    private final AtomicInteger activeJoinWatchers = new AtomicInteger();
    /**
     * Outside sources still able to wake a task, which the deadlock detector must wait for: the hook for I/O, whose
     * support is to count each pending operation here (on the carrier) until it completes.
     */
    private int pendingExternalWakeSources;
    /** Created on the carrier's first idle period with live tasks, unless deadlock detection is off. */
    private DeadlockDetector deadlockDetector;
    /** The I/O event source installed by pico-net, or null while no program uses it. */
    private static volatile IoPoller poller;
    /**
     * Fewest dispatches between two polls of the I/O poller while tasks are ready, so that I/O is never starved; a
     * longer run queue waits one round of it (see {@link #runReady()}).
     */
    private static final int DISPATCHES_PER_IO_POLL = 64;
    /** Dispatches left before the next poll of the I/O poller. */
    private int dispatchesUntilIoPoll = DISPATCHES_PER_IO_POLL;

    private Scheduler(SchedulingPolicy policy, long seed, long carrierStackSize) {
        this.policy = policy;
        this.seed = seed;
        this.runQueue = new RunQueue(policy, seed);
        this.carrier = RuntimeThreads.create(new CarrierLoop(this), "pico-carrier", carrierStackSize, true);
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
                if (policy == null) {
                    BuildDefaults defaults = BuildDefaults.read();
                    policy = policyProperty(defaults);
                    seed = seedProperty(defaults);
                }
                scheduler = new Scheduler(policy, seed, stackSizeProperty());
                Carrier.thread = scheduler.carrier;
                instance = scheduler;
                scheduler.carrier.start();
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

    /** A snapshot of the counters; exact when read on the carrier, possibly a little stale elsewhere. */
    public static PicoThreads.Statistics statistics() {
        Scheduler scheduler = instance;
        if (scheduler == null) {
            return new PicoThreads.Statistics(0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        long started = scheduler.threadsStarted;
        long terminated = scheduler.threadsTerminated;
        return new PicoThreads.Statistics(started, terminated, started - terminated, scheduler.suspensions,
                scheduler.resumes, scheduler.pinnedBlocks, scheduler.foreignFramePins, scheduler.framesChecked,
                scheduler.framesTrustedByCaller);
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
     * @param source    the class loader that found the resource, or null when there is none
     */
    private record BuildDefaults(String scheduler, String seed, ClassLoader source) {
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
            return new BuildDefaults(null, null, null);
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
            return new BuildDefaults(values.getProperty("scheduler"), values.getProperty("seed"), source);
        }

        /** The resource's URL, for messages. */
        String origin() {
            URL resource = source.getResource(DEFAULTS_RESOURCE);
            return resource != null ? resource.toString() : DEFAULTS_RESOURCE;
        }
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

    /** Admits a task whose thread has just been started, directly on the carrier or through a submission. */
    void start(Task task) {
        if (Thread.currentThread() == carrier) {
            admit(task);
        } else {
            submit(new Admission(this, task));
        }
    }

    /** Wakes a task whose interrupt status was just set, if it is sleeping or joining. */
    void interrupt(Task task) {
        if (Thread.currentThread() == carrier) {
            wakeIfInterrupted(task);
        } else {
            submit(() -> wakeIfInterrupted(task));
        }
    }

    /** Queues an action for the carrier and wakes it; any thread may call this. */
    void submit(Runnable action) {
        submissions.add(action);
        IoPoller installed = poller;
        if (installed != null) {
            installed.wakeup();
        }
        LockSupport.unpark(carrier);
    }

    /**
     * The answer to {@code question}, computed on the carrier: at once when called there, otherwise at the start of
     * its next round (it is woken for it) while this thread waits, without giving up on an interrupt, which stays
     * set; any thread may call this. Without a running scheduler there is no carrier, and it is computed at once. An
     * exception the question throws is thrown here.
     */
    public static <T> T answerOnCarrier(Supplier<T> question) {
        Scheduler scheduler = instance;
        if (scheduler == null || Thread.currentThread() == scheduler.carrier) {
            return question.get();
        }
        CompletableFuture<T> answer = new CompletableFuture<>();
        scheduler.submit(() -> {
            try {
                answer.complete(question.get());
            } catch (RuntimeException | Error e) {
                answer.completeExceptionally(e);
            }
        });
        try {
            return answer.join(); // waits through interrupts, and leaves the status set
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) cause;
        }
    }

    /**
     * Installs the I/O event source that the carrier polls between dispatches and waits on when idle; the first
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
        task.state = Task.SLEEPING;
        timers.arm(task, System.nanoTime() + Math.min(nanos, LONGEST_WAIT_NANOS));
        suspendOrBlockPinned(task);
    }

    /**
     * Makes the running task wait until {@code thread} (whose task is {@code target}, or null for a platform
     * thread) terminates, or for {@code nanos} when that is positive: throws the capture signal, or, when the
     * task is pinned, returns once the wait is over.
     */
    void join(Task task, Thread thread, Task target, long nanos) {
        task.state = nanos > 0 ? Task.JOINING_TIMED : Task.JOINING;
        if (target != null) {
            task.blocker = target;
            target.addJoiner(task);
        } else {
            task.blocker = thread;
            watchPlatformThread(task, thread, nanos);
        }
        if (nanos > 0) {
            timers.arm(task, System.nanoTime() + Math.min(nanos, LONGEST_WAIT_NANOS));
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
            timers.arm(task, System.nanoTime() + Math.min(nanos, LONGEST_WAIT_NANOS));
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
        if (task.permit) {
            task.permit = false;
            return;
        }
        task.state = Task.BLOCKED;
        task.blocker = monitor;
        suspendOrBlockPinned(task);
    }

    /**
     * Unparks a task, as {@link LockSupport#unpark} does a thread: a parked task becomes ready; any other task
     * keeps a permit that makes its next park return at once. Any thread may call this.
     */
    void unpark(Task task) {
        if (Thread.currentThread() == carrier) {
            unparkOnCarrier(task);
        } else {
            task.permit = true;
            submit(() -> unparkOnCarrier(task));
        }
    }

    private void unparkOnCarrier(Task task) {
        if (task.isParked()) {
            task.permit = false;
            wake(task, false);
        } else if (task.state != Task.TERMINATED) {
            task.permit = true;
        }
    }

    /**
     * Lets the other ready tasks run before the running one continues: throws the capture signal with the task
     * back in the run queue, or, when the task is pinned, runs one round of the others nested and returns.
     * Returns at once when nothing else could run.
     */
    void yieldTask(Task task) {
        if (runQueue.isEmpty() && submissions.isEmpty() && !hasDueTimer()) {
            return;
        }
        if (capturable(task)) {
            task.state = Task.RUNNABLE;
            runQueue.addYielded(task);
            throw Continuation.suspend();
        }
        pinnedBlocks++;
        Carrier.current = null;
        try {
            drainSubmissions();
            fireDueTimers();
            for (int turns = runQueue.size(); turns > 0 && !runQueue.isEmpty(); turns--) {
                dispatch(runQueue.poll());
            }
        } finally {
            Carrier.current = task;
            Continuation.restoring = false;
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
        if (task.callerRestored) {
            task.callerRestored = false;
            framesTrustedByCaller++;
            return true;
        }
        framesChecked++;
        if (CaptureSafety.everyFrameCapturable()) {
            return true;
        }
        foreignFramePins++;
        return false;
    }

    private void suspendOrBlockPinned(Task task) {
        if (capturable(task)) {
            throw Continuation.suspend();
        }
        blockPinned(task);
    }

    /**
     * Blocks a pinned task without capturing it: its frames stay on the carrier stack while this runs the
     * scheduler's rounds nested, dispatching the other tasks, until the task's own wake-up (timer, joined thread
     * terminated, interrupt) has set it running again. Tasks it dispatches may block pinned in turn; each nested
     * block returns only after its own wake-up, so an outer pinned task woken meanwhile continues when the inner
     * ones have returned.
     */
    private void blockPinned(Task task) {
        pinnedBlocks++;
        task.pinnedWait = true;
        Carrier.current = null;
        try {
            while (task.state != Task.RUNNING) {
                if (!runReady() && task.state != Task.RUNNING) {
                    park();
                }
            }
        } finally {
            task.pinnedWait = false;
            Carrier.current = task;
            Continuation.restoring = false;
        }
    }

    /** Has a helper platform thread wait for a platform thread a task joins, and wake the task when it ends. */
    private void watchPlatformThread(Task task, Thread thread, long nanos) {
        long millis = nanos > 0 ? TimeUnit.NANOSECONDS.toMillis(nanos) + 1 : 0;
        Runnable watch = () -> {
            try {
                thread.join(millis);
                submit(() -> {
                    if (task.blocker == thread && task.isWaiting() && !thread.isAlive()) {
                        wake(task, false);
                    }
                });
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
     * The carrier's body. The scheduler's boot and a start from a platform thread use classes of their own rather
     * than lambdas, whose first use bootstraps a class at run time and delays the first PicoThread by milliseconds.
     */
    private record CarrierLoop(Scheduler scheduler) implements Runnable {
        @Override
        public void run() {
            scheduler.loop();
        }
    }

    /** The submission that admits a task started by another platform thread. */
    private record Admission(Scheduler scheduler, Task task) implements Runnable {
        @Override
        public void run() {
            scheduler.admit(task);
        }
    }

    private void loop() {
        while (true) {
            if (!runReady()) {
                park();
            }
        }
    }

    /** One round of the loop: runs the submissions, fires the due timers, then dispatches one ready task if any. */
    private boolean runReady() {
        drainSubmissions();
        fireDueTimers();
        Task next = runQueue.poll();
        if (next == null) {
            return false;
        }
        if (--dispatchesUntilIoPoll <= 0) {
            // At least once per round of the run queue: a poll reports again the channels of threads it already
            // woke that have not run yet (read interest stays armed), at most one per queued task, so polling
            // once per round keeps that work constant per dispatch.
            dispatchesUntilIoPoll = Math.max(DISPATCHES_PER_IO_POLL, runQueue.size());
            pollIoNow();
        }
        dispatch(next);
        return true;
    }

    /** Polls the I/O poller without waiting, when threads wait for I/O. */
    private void pollIoNow() {
        IoPoller installed = poller;
        if (installed != null && installed.pendingWaits() > 0) {
            installed.poll(0);
        }
    }

    private void drainSubmissions() {
        Runnable action;
        while ((action = submissions.poll()) != null) {
            action.run();
        }
    }

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

    private void park() {
        // A stray interrupt of the carrier (from code that was not rewritten) would make every park return at once.
        Thread.interrupted();
        if (!submissions.isEmpty()) {
            return;
        }
        IoPoller installed = poller;
        if (installed != null && installed.pendingWaits() > 0) {
            long wait = timers.hasLiveTimers() ? Math.max(0, timers.nextDeadline() - System.nanoTime()) : -1;
            installed.poll(wait);
            return;
        }
        if (timers.hasLiveTimers()) {
            long wait = timers.nextDeadline() - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
            }
        } else if (liveTasks != null && DeadlockDetector.ENABLED) {
            if (deadlockDetector == null) {
                deadlockDetector = new DeadlockDetector(this);
            }
            deadlockDetector.parkIdle();
        } else {
            LockSupport.park(this);
        }
    }

    /** True while the carrier has nothing to do and no timer to wait for. */
    boolean isIdle() {
        return submissions.isEmpty() && !timers.hasLiveTimers() && runQueue.isEmpty();
    }

    /** True while a join watcher, pending I/O or an offloaded call may still wake a task. */
    boolean hasExternalWakeSources() {
        IoPoller installed = poller;
        return activeJoinWatchers.get() > 0 || pendingExternalWakeSources > 0 || Offloads.pending() > 0
                || installed != null && installed.pendingWaits() > 0;
    }

    /** The dump printed on a deadlock, of every live task. Called on the carrier. */
    String deadlockDump() {
        return ThreadDump.write(ThreadDump.deadlockHeader(threadsStarted - threadsTerminated), liveTasks);
    }

    /**
     * The dump of the live PicoThreads (see {@link PicoThreads#dump()}): written on the carrier, directly when called
     * there, otherwise through a submission whose answer this thread waits for, at most a few seconds.
     */
    public static String dump() {
        Scheduler scheduler = instance;
        if (scheduler == null) {
            return ThreadDump.liveHeader(0) + "\n";
        }
        if (Thread.currentThread() == scheduler.carrier) {
            return scheduler.liveDump();
        }
        CompletableFuture<String> answer = new CompletableFuture<>();
        scheduler.submit(() -> answer.complete(scheduler.liveDump()));
        try {
            return answer.get(ThreadDump.CARRIER_ANSWER_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            Task running = Carrier.current;
            return "PicoThreads: no dump: the carrier did not answer within " + ThreadDump.CARRIER_ANSWER_SECONDS
                    + " s" + (running != null ? "; it runs " + running + ", which has not blocked since" : "") + "\n";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "PicoThreads: no dump: interrupted while waiting for the carrier\n";
        } catch (ExecutionException e) {
            throw new IllegalStateException("PicoThreads: writing the thread dump failed", e.getCause());
        }
    }

    /**
     * The threads of the live PicoThreads (admitted, not terminated) in the order they were admitted, read on the
     * carrier: directly when called there, otherwise through a submission whose answer this thread waits for, so
     * that the threads it started before are among them. Empty when no PicoThread has started.
     */
    static List<Thread> liveThreads() {
        Scheduler scheduler = instance;
        if (scheduler == null) {
            return List.of();
        }
        return answerOnCarrier(scheduler::liveThreadsOnCarrier);
    }

    private List<Thread> liveThreadsOnCarrier() {
        List<Thread> threads = new ArrayList<>();
        Task first = liveTasks;
        if (first != null) {
            Task task = first;
            do {
                threads.add(task.thread);
                task = task.nextLive;
            } while (task != first);
        }
        return threads;
    }

    private String liveDump() {
        return ThreadDump.write(ThreadDump.liveHeader(threadsStarted - threadsTerminated), liveTasks);
    }

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
    }

    private void dispatch(Task task) {
        if (task.state == Task.TERMINATED) {
            return;
        }
        Carrier.current = task;
        task.state = Task.RUNNING;
        if (task.resumable) {
            resumes++;
            Continuation.restoring = true;
        }
        try {
            DispatchFrame.run(task.thread);
            Continuation.restoring = false;
            terminate(task, null);
        } catch (Capture signal) {
            Continuation.restoring = false;
            suspensions++;
            task.resumable = true;
            if (task.state == Task.RUNNING) {
                terminate(task, new IllegalStateException("PicoThreads: thread \"" + task.thread.getName()
                        + "\" threw the capture signal without arranging to be woken; a frame that was not"
                        + " rewritten let it through"));
            }
        } catch (Throwable failure) {
            Continuation.restoring = false;
            terminate(task, failure);
        } finally {
            Continuation.restoring = false;
            Carrier.current = null;
        }
    }

    private void terminate(Task task, Throwable failure) {
        if (failure != null) {
            dispatchUncaughtException(task, failure);
        }
        // A thread that died while a wake-up was armed (a capture that escaped through a frame that was not
        // rewritten, after its blocking call armed a timer) must never be dispatched again.
        timers.cancel(task);
        task.pinDepth = 0;
        Monitors.holderResuming(task);
        threadsTerminated++;
        unlinkLive(task);
        task.markTerminated();
        Monitors.threadTerminated(task.thread);
        Task joiner;
        while ((joiner = task.joiners) != null) {
            wake(joiner, false);
        }
        if (!task.daemon) {
            Lifetime.nonDaemonThreadTerminated();
        }
    }

    private void unlinkLive(Task task) {
        Task next = task.nextLive;
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
            Carrier.current = task;
            Continuation.restoring = false;
        }
    }

    /**
     * Ends a task's wait: disarms its timer, leaves its joiner list, records whether an interrupt ended the wait,
     * and makes the task ready (or, if pinned, running).
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
        } else {
            task.state = Task.RUNNABLE;
            runQueue.add(task);
        }
    }

    private void wakeIfInterrupted(Task task) {
        if (task.interrupted && task.isWaiting()) {
            wake(task, true);
        }
    }
}
