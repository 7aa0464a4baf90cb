package org.picothreads.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import org.picothreads.runtime.PicoThread;

/**
 * The scheduler's record of one PicoThread: its saved continuation, its scheduling state and the links that
 * put it in a waiting list.
 *
 * <p>The task's {@link #status} word holds its state, whether a carrier is dispatching it, and the number of its
 * current wait; it changes by compare-and-set, without a lock:
 *
 * <pre>
 *   NEW      -&gt; RUNNABLE          start()                                 (under the task's monitor)
 *   RUNNABLE -&gt; RUNNING+D         a carrier takes it from a lane          (under the lane's lock)
 *   RUNNING+D -&gt; WAIT+D, wait+1   the task starts a wait (SLEEPING, JOINING..., PARKED..., BLOCKED) on its carrier
 *   WAIT(+D) -&gt; WAKING(+D)        a waker wins the wait (timer, unpark, interrupt, joined thread's end); it alone
 *                                 disarms the timer, leaves the joiner list and records why, then
 *   WAKING(+D) -&gt; RUNNABLE(+D)    publishes it: without D it queues the task, with D the carrier does
 *   WAIT+D -&gt; RUNNING+D          the task ends its own wait before suspending (permit, interrupt, target ended)
 *   RUNNING+D -&gt; RUNNABLE+D       the task yields
 *   X+D -&gt; X                     its carrier ends the dispatch once the capture has unwound; X = RUNNABLE: the
 *                                 carrier queues it, X = WAKING: the waker will
 *   RUNNABLE+D -&gt; RUNNING+D       a pinned task's carrier, parked until its wait ended, runs it on
 *   any -&gt; TERMINATED             its run() returned or threw
 * </pre>
 *
 * The wait number makes a waker that read the status of one wait fail against any later wait: a timer popped just
 * as another waker ended its wait never ends the next one. The frames, the pin depth and the wait in progress belong
 * to the carrier running the task. The joiner list is guarded by the task's monitor, which is also the lock that
 * platform threads joining this thread wait on. The class is public only so that {@link PicoThread} can hold and
 * drive one; a task is never handed to user code.
 */
public final class Task {
    /** Created, not yet started. */
    static final byte NEW = 0;
    /** Started and waiting in the run queue, or started by another platform thread and not yet admitted. */
    static final byte RUNNABLE = 1;
    /** Running on a carrier, or woken from a pinned block while its frames are still on its carrier's stack. */
    static final byte RUNNING = 2;
    /** Sleeping until its timer fires. */
    static final byte SLEEPING = 3;
    /** Joining another thread without a timeout. */
    static final byte JOINING = 4;
    /** Joining another thread with a timeout. */
    static final byte JOINING_TIMED = 5;
    /** Finished: its run method returned or threw. */
    static final byte TERMINATED = 6;
    /** Parked without a timeout, until unparked or interrupted (LockSupport.park and what is built on it). */
    static final byte PARKED = 7;
    /** Parked with a timeout. */
    static final byte PARKED_TIMED = 8;
    /** Waiting to enter a runtime monitor that another owner holds, until unparked; an interrupt does not end it. */
    static final byte BLOCKED = 9;
    /** Its wait has just been ended by a waker, which is disarming its timer and will make it ready. */
    static final byte WAKING = 10;

    /** The bits of {@link #status} that hold the state. */
    private static final int STATE_MASK = 0xFF;
    /** The bit of {@link #status} set from the moment a carrier takes the task until its dispatch has ended. */
    static final int DISPATCHED = 0x100;
    /** The lowest bit of the wait number in {@link #status}. */
    private static final int WAIT_UNIT = 0x200;
    /** The bits of {@link #status} that hold the wait number. */
    private static final int WAIT_MASK = -WAIT_UNIT;

    /** Compare-and-set access to {@link #status}. */
    private static final VarHandle STATUS;
    /** Compare-and-set access to {@link #occasional}. */
    private static final VarHandle OCCASIONAL;
    /** The joiners of a task that has none. */
    private static final Task[] NO_TASKS = new Task[0];

    /** PicoThread's private field holding its task. */
    private static final VarHandle PICO_THREAD_TASK;
    /** PicoThread's private field holding the Runnable given to its constructor. */
    private static final VarHandle PICO_THREAD_TARGET;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(PicoThread.class, MethodHandles.lookup());
            PICO_THREAD_TASK = lookup.findVarHandle(PicoThread.class, "task", Task.class);
            PICO_THREAD_TARGET = lookup.findVarHandle(PicoThread.class, "target", Runnable.class);
            STATUS = MethodHandles.lookup().findVarHandle(Task.class, "status", int.class);
            OCCASIONAL = MethodHandles.lookup().findVarHandle(Task.class, "occasional", Occasional.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The thread's saved activations while it is suspended, laid out as {@link Frame} describes (its carrier's frame
     * holds them while it runs): null until its first dispatch ends (see {@link #isResumable()}), then kept, so that
     * suspending again at the same depth allocates nothing.
     */
    Object[] savedReferences;
    /** The primitive values of the saved activations, in int slots; null until the first capture that saves one. */
    int[] savedPrimitives;
    /** The ends of the saved activations in the two arrays. */
    int savedReferenceTop;
    int savedPrimitiveTop;
    /** How many pinned regions the running code is inside; blocking calls block for real while above zero. */
    int pinDepth;
    /**
     * True while a direct runtime entry called by a restored activation runs ({@link CallerToken}): a capture
     * below it needs no frame check. Consumed by the check.
     */
    boolean callerRestored;
    /**
     * True while a runtime entry that made the frame check itself, above the scheduler's frames, goes on to block
     * ({@link CaptureSafety#checksAhead}): a capture below it needs no second walk. Consumed by the check.
     */
    boolean framesCheckedAhead;

    /** The PicoThread this task schedules; set when it starts. */
    Thread thread;
    /**
     * The interrupt status; set by any thread, cleared by the thread itself. While {@link #interruptCarrier()} is
     * set, the status is that carrier's own (see {@link #isInterrupted}); the thread itself clears it through
     * {@link #clearInterrupt}.
     */
    private volatile boolean interrupted;
    /** The state (one of the constants above), the {@link #DISPATCHED} bit and the wait number; see the table above. */
    private volatile int status;
    /** The thread's daemon flag, fixed when it started. */
    boolean daemon;
    /** True when an interrupt ended the task's last wait, so that the blocking call throws InterruptedException. */
    boolean wokenByInterrupt;
    /** The lane of the carrier that last took the task, where a platform thread that wakes it queues it. */
    Lane lane;
    /** The lane whose timer heap holds the task's armed timer, or null; written under that lane's timer lock. */
    volatile Lane timerLane;
    /** True when the task suspended by yielding, so that it is queued where the policy takes it last. */
    boolean yielded;
    /** Identifies the task's armed timer in the timer heap, or 0 when none is armed. */
    int timerKey;
    /**
     * What the task waits for: the joined Task or platform Thread while joining, the blocker object given to
     * {@code park} while parked; null otherwise.
     */
    Object blocker;
    /** A pending unpark (LockSupport's permit): the next park returns at once and consumes it. */
    volatile boolean permit;
    /** How many runtime monitors the task owns; changed only by the task itself, as it takes and leaves them. */
    int ownedMonitors;
    /** True while the task is suspended owning a runtime monitor, counted in {@link Monitors#suspendedHolders}. */
    boolean suspendedHolder;
    /**
     * What only some threads ever need (see {@link Occasional}): null until the first of them, then kept. Made by
     * {@link #occasional()}, which any thread may call.
     */
    private volatile Occasional occasional;
    /**
     * The wait on a runtime synchronizer (latch, lock, queue...) this task is in the middle of, kept across a
     * suspension so that the re-invoked blocking call continues it; null otherwise.
     */
    Waiter waiter;

    /** The thread's PicoThreadLocal values; null until it first uses one or inherits one. */
    ThreadLocalValues threadLocalValues;
    /** The next task in the scheduler's list of live tasks (admitted, not yet terminated). */
    Task nextLive;
    /** The previous task in the scheduler's list of live tasks. */
    Task previousLive;

    /** Creates the task of a new PicoThread. */
    public Task() {
    }

    /** Gives a new thread the thread-local values it inherits from the thread constructing it (null for none). */
    public void inheritThreadLocalValues(ThreadLocalValues inherited) {
        threadLocalValues = inherited;
    }

    /**
     * True once the task has suspended by capture, so every later dispatch of it is a restore: the end of each
     * dispatch that did not terminate the task gives it its saved stack ({@link Frame#detach}), empty or not.
     */
    boolean isResumable() {
        return savedReferences != null;
    }

    /** The Runnable given to the constructor of this task's PicoThread, or null. */
    Runnable target() {
        return (Runnable) PICO_THREAD_TARGET.get((PicoThread) thread);
    }

    /** The task of a PicoThread, or null when the thread is not a PicoThread. */
    static Task of(Thread thread) {
        return thread instanceof PicoThread ? (Task) PICO_THREAD_TASK.get((PicoThread) thread) : null;
    }

    /**
     * Starts {@code thread}, the PicoThread that owns this task: counts it for the JVM's lifetime and hands it to
     * the scheduler, booting the scheduler first if needed.
     */
    public void start(Thread thread) {
        Scheduler scheduler = Scheduler.get();
        synchronized (this) {
            if (state() != NEW) {
                throw new IllegalThreadStateException();
            }
            this.thread = thread;
            status = RUNNABLE;
            daemon = thread.isDaemon();
        }
        boolean firstNonDaemon = !daemon && Lifetime.nonDaemonThreadStarted();
        scheduler.start(this);
        if (firstNonDaemon) {
            Lifetime.keepJvmAlive();
        }
    }

    /** Sets the interrupt status and wakes the thread if it is sleeping or joining. */
    public void interrupt() {
        synchronized (this) {
            interruptedSinceDelivery();
            interrupted = true;
        }
        Scheduler scheduler = Scheduler.running();
        if (scheduler != null && state() != NEW) {
            scheduler.interrupt(this);
        }
    }

    /**
     * The interrupt status, left unchanged: while it was copied to {@link #interruptCarrier()}, that carrier's own
     * (which the JDK's code that ran there may have cleared, throwing InterruptedException), or set when another
     * interrupt came since.
     */
    public boolean isInterrupted() {
        Occasional more = occasional;
        Carrier carrier = more == null ? null : more.interruptCarrier;
        if (carrier == null) {
            return interrupted;
        }
        synchronized (this) {
            return carrier.isInterrupted() || more.interruptedSinceDelivery;
        }
    }

    /** Clears the interrupt status, by the thread itself on its carrier; returns whether it was set. */
    boolean clearInterrupt() {
        if (interruptCarrier() == null && !interrupted) {
            return false;
        }
        // Under the monitor, so that a copy to the carrier (deliverInterruptTo) comes wholly before or after this.
        synchronized (this) {
            Occasional more = occasional;
            if (more == null || more.interruptCarrier == null) {
                interrupted = false;
                return true;
            }
            boolean was = Thread.interrupted() | more.interruptedSinceDelivery;
            more.interruptedSinceDelivery = false;
            interrupted = false;
            return was;
        }
    }

    /** Sets the interrupt status again, by the thread itself (an interrupt it deferred while it waited). */
    void restoreInterrupt() {
        synchronized (this) {
            interruptedSinceDelivery();
            interrupted = true;
        }
    }

    /**
     * Records, under the task's monitor, that an interrupt came after the status was last copied to the carrier or
     * cleared: only while a copy is made can that be read, and a copy clears it first.
     */
    private void interruptedSinceDelivery() {
        Occasional more = occasional;
        if (more != null) {
            more.interruptedSinceDelivery = true;
        }
    }

    /**
     * The carrier to whose own interrupt status the scheduler copied this thread's, because the thread runs there in
     * code that was not rewritten and blocks in a wait of the JDK's ({@link Scheduler#deliverInterrupt}), or null;
     * the carrier takes the status back at the end of the dispatch ({@link #settleInterrupt}).
     */
    Carrier interruptCarrier() {
        Occasional more = occasional;
        return more == null ? null : more.interruptCarrier;
    }

    /**
     * Copies the interrupt status to {@code carrier}'s own, on which the thread runs, blocked in a wait of the JDK's
     * that reads only that; by the scheduler under its lock, while the carrier cannot end the dispatch.
     */
    void deliverInterruptTo(Carrier carrier) {
        synchronized (this) {
            if (!interrupted) {
                return; // the thread cleared it meanwhile
            }
            Occasional more = occasional();
            more.interruptedSinceDelivery = false;
            more.interruptCarrier = carrier;
            // Under the monitor, so that no thread reads the status between the two writes and this interrupt, which
            // the waiting thread may see at once.
            carrier.interrupt();
        }
    }

    /**
     * Takes the interrupt status back from the carrier at the end of the dispatch, by the carrier: set when the
     * carrier's own is still set (clearing that), or when another interrupt came since it was copied.
     */
    void settleInterrupt() {
        boolean pending = Thread.interrupted();
        synchronized (this) {
            Occasional more = occasional;
            interrupted = pending || more.interruptedSinceDelivery;
            more.interruptCarrier = null;
        }
    }

    /** The thread's state as {@link Thread#getState()} defines it. */
    public Thread.State threadState() {
        switch (state()) {
            case NEW:
                return Thread.State.NEW;
            case SLEEPING:
            case JOINING_TIMED:
            case PARKED_TIMED:
                return Thread.State.TIMED_WAITING;
            case JOINING:
            case PARKED:
                return Thread.State.WAITING;
            case BLOCKED:
                return Thread.State.BLOCKED;
            case TERMINATED:
                return Thread.State.TERMINATED;
            case RUNNING:
                return runningState();
            default:
                return Thread.State.RUNNABLE;
        }
    }

    /**
     * The state of a running thread as another thread sees it: its carrier's when that carrier is blocked in a wait
     * the runtime does not make (entering a JVM monitor that another thread holds, a wait inside JDK code), as a
     * mounted virtual thread's state is its carrier's; RUNNABLE otherwise, and always for the thread itself.
     */
    private Thread.State runningState() {
        Scheduler scheduler = Scheduler.running();
        Carrier carrier = scheduler == null ? null : scheduler.carrierRunning(this);
        if (carrier == null || carrier == Thread.currentThread()) {
            return Thread.State.RUNNABLE;
        }
        Thread.State carrierState = carrier.getState();
        return Watchdog.isBlockedState(carrierState) && Carrier.CURRENT.getVolatile(carrier) == this ? carrierState
                : Thread.State.RUNNABLE;
    }

    /** True once the thread has finished. */
    public boolean isTerminated() {
        return state() == TERMINATED;
    }

    /** True from the start of the thread until it has finished. */
    boolean isAlive() {
        byte current = state();
        return current != NEW && current != TERMINATED;
    }

    /** True while the thread waits for a timer, a joined thread, an unpark or an interrupt. */
    boolean isWaiting() {
        return isWaiting(state());
    }

    /** True for the states a timer, a joined thread, an unpark or an interrupt ends. */
    static boolean isWaiting(byte state) {
        return state == SLEEPING || state == JOINING || state == JOINING_TIMED || state == PARKED
                || state == PARKED_TIMED;
    }

    /** True for the states an unpark ends: parked, or blocked on a monitor. */
    static boolean isParked(byte state) {
        return state == PARKED || state == PARKED_TIMED || state == BLOCKED;
    }

    /** The status word: state, {@link #DISPATCHED} bit and wait number. */
    int status() {
        return status;
    }

    /** The state, one of the constants above. */
    byte state() {
        return stateOf(status);
    }

    /** The state held in a status word. */
    static byte stateOf(int status) {
        return (byte) (status & STATE_MASK);
    }

    /** {@code status} with its state replaced by {@code state}, its dispatch bit and wait number kept. */
    static int withState(int status, byte state) {
        return (status & ~STATE_MASK) | state;
    }

    /** True while a carrier dispatches the task: from its take until the end of its run or capture. */
    boolean isDispatched() {
        return (status & DISPATCHED) != 0;
    }

    /** Sets the status from {@code expected} to {@code next}; false when it was not {@code expected}. */
    boolean compareAndSetStatus(int expected, int next) {
        return STATUS.compareAndSet(this, expected, next);
    }

    /**
     * Changes only the state, keeping the dispatch bit and wait number; by the task's own carrier only, from a state
     * no waker changes (RUNNING or RUNNABLE), so a release write is enough.
     */
    void setState(byte state) {
        STATUS.setRelease(this, withState(status, state));
    }

    /**
     * Marks the task taken by a carrier of {@code from}: running and dispatched. Under the lane's lock; a release
     * write, since no waker acts on RUNNABLE or RUNNING.
     */
    void beginDispatch(Lane from) {
        lane = from;
        STATUS.setRelease(this, (status & WAIT_MASK) | DISPATCHED | RUNNING);
    }

    /**
     * Starts a new wait in {@code state} on the task's own carrier, numbered one above the last; returns the status
     * that a waker must find to end it.
     */
    int beginWait(byte state) {
        int next = ((status & WAIT_MASK) + WAIT_UNIT) | DISPATCHED | state;
        status = next;
        return next;
    }

    /**
     * Ends the dispatch once the capture has unwound (clears {@link #DISPATCHED}); returns the state then: RUNNABLE
     * when the carrier must queue the task.
     */
    byte endDispatch() {
        while (true) {
            int current = status;
            byte state = stateOf(current);
            if (state == RUNNABLE || state == RUNNING) {
                // Nobody but this carrier changes the status from these states.
                STATUS.setRelease(this, current & ~DISPATCHED);
                return state;
            }
            if (STATUS.compareAndSet(this, current, current & ~DISPATCHED)) {
                return state;
            }
        }
    }

    /**
     * Called by a platform thread joining this task's thread: waits on this task's monitor until the thread
     * has terminated or, when {@code nanos} is positive, until that much time has passed.
     */
    void awaitTermination(long nanos) throws InterruptedException {
        synchronized (this) {
            if (nanos <= 0) {
                PlatformWaits.enter();
                try {
                    while (isAlive()) {
                        wait();
                    }
                } finally {
                    PlatformWaits.exit();
                }
                return;
            }
            long deadline = System.nanoTime() + nanos;
            while (isAlive()) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            }
        }
    }

    /**
     * Marks the task terminated, drops the thread's Runnable as the JDK does when a thread exits, and wakes the
     * platform threads that join it.
     */
    void markTerminated() {
        savedReferences = null;
        savedPrimitives = null;
        threadLocalValues = null;
        PICO_THREAD_TARGET.set((PicoThread) thread, (Runnable) null);
        synchronized (this) {
            status = TERMINATED;
            notifyAll();
        }
    }

    /**
     * Appends a task to this task's list of joiners while that task is still in the wait whose status is
     * {@code joinerStatus} and this task has not terminated; false when this task has terminated.
     */
    synchronized boolean addJoinerUnlessTerminated(Task joiner, int joinerStatus) {
        if (state() == TERMINATED) {
            return false;
        }
        if (joiner.status() == joinerStatus) {
            addJoiner(joiner);
        }
        return true;
    }

    /** Removes a task from this task's list of joiners if it is still in it. */
    synchronized void removeJoinerIfListed(Task joiner) {
        Occasional more = occasional;
        if (more == null) {
            return;
        }
        if (more.joiners == joiner) {
            more.joiners = null;
        } else if (more.joiners instanceof ArrayList<?> list && list.remove(joiner) && list.isEmpty()) {
            more.joiners = null;
        }
    }

    /** Marks this task terminated and returns its joiners, in the order they started to wait, emptying the list. */
    synchronized Task[] terminateAndTakeJoiners() {
        status = TERMINATED;
        Occasional more = occasional;
        if (more == null) {
            return NO_TASKS;
        }
        Object taken = more.joiners;
        more.joiners = null;
        if (taken == null) {
            return NO_TASKS;
        }
        if (taken instanceof Task single) {
            return new Task[] {single};
        }
        return ((ArrayList<?>) taken).toArray(NO_TASKS);
    }

    /** Appends a waiting task to this task's list of joiners; under this task's monitor. */
    @SuppressWarnings("unchecked")
    private void addJoiner(Task joiner) {
        Occasional more = occasional();
        Object listed = more.joiners;
        if (listed == null) {
            more.joiners = joiner;
        } else if (listed instanceof Task first) {
            ArrayList<Task> list = new ArrayList<>(4);
            list.add(first);
            list.add(joiner);
            more.joiners = list;
        } else {
            ((ArrayList<Task>) listed).add(joiner);
        }
    }

    /** The task's {@link Occasional} fields, made now if no thread has needed them before. */
    Occasional occasional() {
        Occasional more = occasional;
        if (more == null) {
            Occasional made = new Occasional();
            more = OCCASIONAL.compareAndSet(this, null, made) ? made : occasional;
        }
        return more;
    }

    /** True while the task waits pinned, its frames on its carrier's stack ({@link Occasional#pinnedWait}). */
    boolean waitsPinned() {
        Occasional more = occasional;
        return more != null && more.pinnedWait;
    }

    /** The task's {@link Occasional} fields, or null when no thread has needed them yet. */
    Occasional occasionalIfMade() {
        return occasional;
    }

    /**
     * The fields of a task that only some threads ever use (a thread that is joined, waits in Object.wait, blocks
     * pinned, or is interrupted while blocked in a wait of the JDK's), kept apart so that the many threads that never
     * do are smaller ({@code Footprint}: a task of 96 bytes instead of 120). Made once, by the first thread that
     * needs them ({@link #occasional()}), and kept until the task is collected.
     */
    static final class Occasional {
        /**
         * The carrier to whose own interrupt status the scheduler copied the thread's ({@link #interruptCarrier()}),
         * or null. Set and cleared under the task's monitor; read without it.
         */
        volatile Carrier interruptCarrier;
        /**
         * True when the thread was interrupted after its status was last copied to {@link #interruptCarrier} or
         * cleared since; under the task's monitor.
         */
        boolean interruptedSinceDelivery;
        /** True while the task waits pinned: its frames stay on the carrier stack; read by thread dumps. */
        volatile boolean pinnedWait;
        /** The carrier blocked by the task's pinned wait, which the waker that ends it unparks; null otherwise. */
        volatile Carrier pinnedCarrier;
        /** The task's entry in an object's wait set while it is in Object.wait, else null; the task's own. */
        Monitors.Waiter monitorWaiter;
        /**
         * The tasks joining this one, in the order they started to wait: null when there is none, the one task when
         * there is one, else an {@code ArrayList<Task>} of them. Guarded by the task's monitor.
         */
        Object joiners;
    }

    @Override
    public String toString() {
        Thread owner = thread;
        return owner != null ? "PicoThread \"" + owner.getName() + "\"" : "unstarted PicoThread";
    }
}
