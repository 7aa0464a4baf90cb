package org.picothreads.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The monitors of synchronized regions that can suspend, and Object's wait/notify for rewritten code.
 *
 * <p>A JVM monitor belongs to a carrier thread, and a PicoThread suspended inside a region gives it up (it may
 * resume on another carrier, and its carrier runs other PicoThreads meanwhile), so the JVM monitor gives no
 * exclusion once its holder suspends. A region that can suspend therefore also takes a runtime monitor,
 * owned by the PicoThread (or platform thread) and held across its suspensions; the rewritten code takes
 * the runtime monitor before the JVM monitor and, when it suspends inside the region, releases the JVM
 * monitors it holds and takes them again on resume. A platform thread running the same rewritten code
 * takes the runtime monitor too, so it and the PicoThreads exclude each other.
 *
 * <p>A region that cannot suspend takes only the JVM monitor. To exclude a PicoThread suspended inside a region
 * on the same object (which has given its JVM monitor up and kept the runtime monitor), rewritten code reads
 * {@link #suspendedHolders} right after its MONITORENTER; only when it is not zero does it ask
 * {@link #mustBackOff}, and on true it leaves the JVM monitor, blocks for real in {@link #awaitUnowned} until
 * the runtime monitor is free, and enters again. The count is raised before a holder's capture handlers give
 * up any JVM monitor and lowered only once its restore has taken them all back, so a thread that holds the JVM
 * monitor and reads zero is alone in the region.
 *
 * <p>Owners are Tasks (PicoThreads, on any carrier) or Threads (platform threads). Monitors exist in the
 * tables only while owned or waited on. The monitors are spread over {@link #STRIPE_COUNT} stripes by the object's
 * identity hash, each a table under a short lock of its own, so that carriers entering regions on different objects
 * rarely meet on one lock; everything about one object's monitor (its owner, entrants, wait set, the platform
 * threads waiting for it) is under its stripe's lock, so exclusion is exactly as with one table. No stripe's lock is
 * held while anyone waits.
 *
 * <p>An object of PicoThreads' own libraries that is a {@link MonitorHome} (pico-net's streams, readers and writers,
 * whose regions are entered at every call) keeps its monitor itself, made with it by {@link #newHomedMonitor()} and
 * bound to a stripe then: its regions find the monitor without hashing the object or touching a table, and an unused
 * one stays where it is instead of being removed. The monitor is the same one for every region on that object,
 * the program's and the library's, under the same stripe's lock, so exclusion is unchanged.
 */
public final class Monitors {
    /**
     * How many PicoThreads are suspended owning at least one runtime monitor; rewritten code reads it after each
     * MONITORENTER of a region that cannot suspend. Updated through {@link #SUSPENDED_HOLDERS}.
     */
    public static volatile int suspendedHolders;
    private static final VarHandle SUSPENDED_HOLDERS;

    static {
        try {
            SUSPENDED_HOLDERS = MethodHandles.lookup().findStaticVarHandle(Monitors.class, "suspendedHolders",
                    int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How many stripes the monitors are spread over, by identity hash: a power of two. */
    private static final int STRIPE_COUNT = 64;
    /** The stripes; an object's monitor always lives in the same one. */
    private static final Stripe[] STRIPES = new Stripe[STRIPE_COUNT];

    static {
        for (int index = 0; index < STRIPE_COUNT; index++) {
            STRIPES[index] = new Stripe();
        }
    }

    /**
     * Platform threads in Object.wait on a PicoThread's monitor: while above zero, a terminating PicoThread notifies
     * its JVM monitor too.
     */
    private static final AtomicInteger PLATFORM_WAITERS_ON_PICO_THREADS = new AtomicInteger();

    /** How many unused monitors each stripe keeps for reuse. */
    private static final int MOST_SPARE = 16;

    /**
     * A share of the monitors, those of the objects whose identity hash falls in it: its table, and the unused
     * monitors it keeps for reuse so that an uncontended region allocates nothing. The stripe is the lock that guards
     * both and the monitors in the table, and platform threads wait on it; never held while anyone waits, and never
     * two at once.
     */
    private static final class Stripe {
        final Map<Object, Monitor> table = new IdentityHashMap<>();
        final ArrayDeque<Monitor> spare = new ArrayDeque<>();
    }

    /** The stripe for the next homed monitor; racy on purpose, any stripe will do. */
    private static int nextHomedStripe;

    /** The stripe that holds the monitor of {@code object}: its home's, or the one its identity hash picks. */
    private static Stripe stripeOf(Object object) {
        return stripeOf(homedMonitor(object), object);
    }

    /** As {@link #stripeOf(Object)}, given what {@link #homedMonitor} answered for {@code object}. */
    private static Stripe stripeOf(Monitor homed, Object object) {
        return homed != null ? homed.stripe : STRIPES[System.identityHashCode(object) & (STRIPE_COUNT - 1)];
    }

    /**
     * A monitor for a {@link MonitorHome} to keep for the object it is made with (one per object, never shared):
     * unused until a region on that object needs it.
     */
    public static Monitor newHomedMonitor() {
        int index = nextHomedStripe++;
        return new Monitor(STRIPES[index & (STRIPE_COUNT - 1)]);
    }

    /** The monitor of {@code object} if it has one now (always, for a homed one), else null; under the stripe. */
    private static Monitor lookup(Stripe stripe, Object object) {
        return lookup(stripe, homedMonitor(object), object);
    }

    /** As {@link #lookup(Stripe, Object)}, given what {@link #homedMonitor} answered for {@code object}. */
    private static Monitor lookup(Stripe stripe, Monitor homed, Object object) {
        return homed != null ? homed : stripe.table.get(object);
    }

    /**
     * The monitor {@code object} keeps itself, or null when it is not a {@link MonitorHome} or has not made its monitor
     * yet (a region entered by its superclass's constructor, which also leaves it there, uses the table).
     */
    private static Monitor homedMonitor(Object object) {
        return object instanceof MonitorHome home ? home.runtimeMonitor() : null;
    }

    /**
     * The runtime state of one object's monitor. Most monitors are entered and left by one owner with nobody
     * waiting, so the queues are created only when someone waits. Public only as the type a {@link MonitorHome} holds;
     * nothing of it is open to other classes.
     */
    public static final class Monitor {
        /** The stripe whose lock guards this monitor when it is homed, or null for one of a stripe's table. */
        private final Stripe stripe;
        /** The owning Task or platform Thread, or null. */
        private Object owner;
        /** How many times the owner has entered. */
        private int recursions;
        /** PicoThreads waiting to enter, in arrival order; null until one waits. */
        private ArrayDeque<Task> entrants;
        /** PicoThreads blocked in {@link #awaitUnowned} until the monitor is free; null until one waits. */
        private ArrayDeque<Task> backedOff;
        /** Owners waiting in Object.wait, in arrival order; null until one waits. */
        private ArrayDeque<Waiter> waitSet;
        /** Platform threads waiting to enter or in wait(). */
        private int platformWaiters;

        private Monitor(Stripe stripe) {
            this.stripe = stripe;
        }

        private ArrayDeque<Task> entrants() {
            if (entrants == null) {
                entrants = new ArrayDeque<>();
            }
            return entrants;
        }

        private ArrayDeque<Waiter> waitSet() {
            if (waitSet == null) {
                waitSet = new ArrayDeque<>();
            }
            return waitSet;
        }

        private ArrayDeque<Task> backedOff() {
            if (backedOff == null) {
                backedOff = new ArrayDeque<>();
            }
            return backedOff;
        }

        private boolean isUnused() {
            return owner == null && (entrants == null || entrants.isEmpty()) && (waitSet == null || waitSet.isEmpty())
                    && (backedOff == null || backedOff.isEmpty()) && platformWaiters == 0;
        }
    }

    /** The monitor of {@code object}, put in its stripe's table (a spare one when there is one) if absent; under the stripe. */
    private static Monitor monitorOf(Stripe stripe, Object object) {
        return monitorOf(stripe, homedMonitor(object), object);
    }

    /** As {@link #monitorOf(Stripe, Object)}, given what {@link #homedMonitor} answered for {@code object}. */
    private static Monitor monitorOf(Stripe stripe, Monitor homed, Object object) {
        if (homed != null) {
            return homed;
        }
        Monitor monitor = stripe.table.get(object);
        if (monitor == null) {
            monitor = stripe.spare.poll();
            if (monitor == null) {
                monitor = new Monitor(null);
            }
            stripe.table.put(object, monitor);
        }
        return monitor;
    }

    /**
     * Removes an unused monitor from its stripe's table and keeps it for reuse, or leaves a homed one in its home;
     * under the stripe.
     */
    private static void discard(Stripe stripe, Object object, Monitor monitor) {
        monitor.recursions = 0;
        if (monitor.stripe != null) {
            return;
        }
        stripe.table.remove(object);
        if (stripe.spare.size() < MOST_SPARE) {
            stripe.spare.push(monitor);
        }
    }

    /** One PicoThread or platform thread in an object's wait set. */
    static final class Waiter {
        final Object who;
        final Object object;
        final int recursions;
        /** When the wait times out (System.nanoTime), or 0 for none. */
        final long deadline;
        boolean notified;

        Waiter(Object who, Object object, int recursions, long deadline) {
            this.who = who;
            this.object = object;
            this.recursions = recursions;
            this.deadline = deadline;
        }
    }

    private Monitors() {
    }

    /**
     * Enters the runtime monitor of {@code object}, waiting (suspending a PicoThread, blocking a platform
     * thread) while another owner holds it. Rewritten code calls this just before MONITORENTER.
     */
    public static void enter(Object object) {
        int caller = CallerToken.claimCaller();
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            enterOnPlatformThread(object, Thread.currentThread());
            return;
        }
        Continuation.resumingPrimitive();
        task.callerRestored = caller != CallerToken.NOT_RESTORED;
        try {
            acquire(task, object, 1);
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            task.callerRestored = false;
        }
    }

    /**
     * Counts a PicoThread that is about to be captured while it owns a runtime monitor; called before the capture
     * signal is thrown, so before any capture handler gives up a JVM monitor.
     */
    static void holderSuspending(Task task) {
        if (task.ownedMonitors > 0 && !task.suspendedHolder) {
            task.suspendedHolder = true;
            SUSPENDED_HOLDERS.getAndAdd(1);
        }
    }

    /**
     * Stops counting a PicoThread as a suspended holder; called when its restore has re-entered every JVM monitor
     * its frames hold (the blocking call it suspended in is re-invoked), and when it terminates. Not earlier: a
     * region that cannot suspend and reads zero while the holder waits to re-enter a JVM monitor would run between
     * the holder's code before the suspension and its code after.
     */
    static void holderResuming(Task task) {
        if (task.suspendedHolder) {
            task.suspendedHolder = false;
            SUSPENDED_HOLDERS.getAndAdd(-1);
        }
    }

    /**
     * True when a region that cannot suspend, which has just entered the JVM monitor of {@code object} and read a
     * non-zero {@link #suspendedHolders}, must leave it again: another owner holds the runtime monitor (suspended
     * inside a region, or waiting for the JVM monitor the caller holds). An owner blocked pinned holds its JVM monitor as
     * well (a pinned thread blocks its carrier for real), so it is never the owner found here.
     */
    public static boolean mustBackOff(Object object) {
        Monitor homed = homedMonitor(object);
        Stripe stripe = stripeOf(homed, object);
        Object me = owner();
        synchronized (stripe) {
            Monitor monitor = lookup(stripe, homed, object);
            return monitor != null && monitor.owner != null && monitor.owner != me;
        }
    }

    /**
     * Blocks the caller for real, as a thread waiting to enter a monitor ({@code BLOCKED}), until no other owner
     * holds the runtime monitor of {@code object}; rewritten code calls this after leaving the JVM monitor on
     * {@link #mustBackOff}, then enters it again. A PicoThread here cannot be captured (the region has no capture
     * code), so it is pinned while it waits. An interrupt does not end the wait and stays set.
     */
    public static void awaitUnowned(Object object) {
        Stripe stripe = stripeOf(object);
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            awaitUnownedOnPlatformThread(object, Thread.currentThread());
            return;
        }
        while (true) {
            synchronized (stripe) {
                Monitor monitor = lookup(stripe, object);
                if (monitor == null || monitor.owner == null || monitor.owner == task) {
                    return;
                }
                if (!monitor.backedOff().contains(task)) {
                    monitor.backedOff().add(task);
                }
            }
            task.pinDepth++;
            try {
                Scheduler.running().blockOnMonitor(task, object);
            } finally {
                task.pinDepth--;
                synchronized (stripe) {
                    Monitor monitor = lookup(stripe, object);
                    if (monitor != null && monitor.backedOff != null) {
                        monitor.backedOff.remove(task);
                        if (monitor.isUnused()) {
                            discard(stripe, object, monitor);
                        }
                    }
                }
            }
        }
    }

    private static void awaitUnownedOnPlatformThread(Object object, Thread thread) {
        Stripe stripe = stripeOf(object);
        boolean interrupted = false;
        synchronized (stripe) {
            while (true) {
                Monitor monitor = lookup(stripe, object);
                if (monitor == null || monitor.owner == null || monitor.owner == thread) {
                    break;
                }
                monitor.platformWaiters++;
                try {
                    stripe.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                } finally {
                    monitor.platformWaiters--;
                    if (monitor.isUnused()) {
                        discard(stripe, object, monitor);
                    }
                }
            }
        }
        if (interrupted) {
            thread.interrupt();
        }
    }

    /**
     * Leaves the runtime monitor of {@code object}; rewritten code calls this just before MONITOREXIT. It
     * never throws: when the caller does not own the monitor, the MONITOREXIT that follows reports it, and an
     * exception here could send javac's catch-any handler of the region (which covers itself) round forever.
     */
    public static void exit(Object object) {
        Monitor homed = homedMonitor(object);
        Stripe stripe = stripeOf(homed, object);
        Object me = owner();
        synchronized (stripe) {
            Monitor monitor = lookup(stripe, homed, object);
            if (monitor != null && monitor.owner == me && --monitor.recursions == 0) {
                release(stripe, object, monitor);
            }
        }
    }

    /** {@link Object#wait()} for rewritten code. */
    public static void waitOn(Object object) throws InterruptedException {
        waitOn(object, 0L, 0);
    }

    /** {@link Object#wait(long)} for rewritten code. */
    public static void waitOn(Object object, long millis) throws InterruptedException {
        waitOn(object, millis, 0);
    }

    /** {@link Object#wait(long, int)} for rewritten code. */
    public static void waitOn(Object object, long millis, int nanos) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        ThreadCalls.checkTimeout(millis, nanos);
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            waitOnPlatformThread(object, millis, nanos);
            return;
        }
        task.callerRestored = caller != CallerToken.NOT_RESTORED;
        try {
            waitOnCarrier(task, object, millis, nanos);
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            task.callerRestored = false;
        }
    }

    private static void waitOnCarrier(Task task, Object object, long millis, int nanos) throws InterruptedException {
        Stripe stripe = stripeOf(object);
        boolean resumed = Continuation.resumingPrimitive();
        Task.Occasional waiting = task.occasional();
        Waiter waiter = waiting.monitorWaiter;
        if (!resumed || waiter == null || waiter.object != object) {
            if (task.clearInterrupt()) {
                throw new InterruptedException();
            }
            long timeout = TimeUnit.MILLISECONDS.toNanos(millis) + (nanos > 0 ? 1 : 0);
            synchronized (stripe) {
                Monitor monitor = lookup(stripe, object);
                if (monitor == null || monitor.owner != task) {
                    if (!Thread.holdsLock(object)) {
                        throw new IllegalMonitorStateException("current thread is not owner");
                    }
                    monitor = monitorOf(stripe, object);
                    waiter = new Waiter(task, object, 0, timeout > 0 ? System.nanoTime() + timeout : 0);
                    monitor.waitSet().add(waiter);
                } else {
                    waiter = new Waiter(task, object, monitor.recursions, timeout > 0 ? System.nanoTime() + timeout : 0);
                    // Join the wait set before releasing, so the monitor stays in the table for the notifier.
                    monitor.waitSet().add(waiter);
                    monitor.recursions = 0;
                    release(stripe, object, monitor);
                }
                waiting.monitorWaiter = waiter;
            }
        }
        awaitNotification(task, waiter);
        synchronized (stripe) {
            Monitor monitor = lookup(stripe, object);
            if (monitor != null && !waiter.notified) {
                if (monitor.waitSet != null) {
                    monitor.waitSet.remove(waiter);
                }
            }
        }
        if (waiter.recursions > 0) {
            acquire(task, object, waiter.recursions);
        }
        waiting.monitorWaiter = null;
        if (task.clearInterrupt()) {
            throw new InterruptedException();
        }
    }

    /**
     * Wakes every thread waiting on the monitor of a PicoThread that has just terminated, as the JVM notifies a
     * platform thread's monitor when it ends, so that {@code synchronized (t) { while (t.isAlive()) t.wait(); }}
     * returns. Called on the carrier once the thread's task is marked terminated.
     */
    static void threadTerminated(Thread thread) {
        Stripe stripe = stripeOf(thread);
        synchronized (stripe) {
            Monitor monitor = lookup(stripe, thread);
            if (monitor != null && monitor.waitSet != null) {
                Waiter waiter;
                while ((waiter = monitor.waitSet.poll()) != null) {
                    waiter.notified = true;
                    if (waiter.who instanceof Task waitingTask) {
                        Scheduler.running().unpark(waitingTask);
                    }
                }
                if (monitor.isUnused()) {
                    discard(stripe, thread, monitor);
                }
            }
        }
        if (PLATFORM_WAITERS_ON_PICO_THREADS.get() > 0) {
            // A platform thread counted here holds the JVM monitor from its check of the thread to its wait.
            synchronized (thread) {
                thread.notifyAll();
            }
        }
    }

    /** {@link Object#notify()} for rewritten code. */
    public static void notify(Object object) {
        wakeWaiters(object, false);
    }

    /** {@link Object#notifyAll()} for rewritten code. */
    public static void notifyAll(Object object) {
        wakeWaiters(object, true);
    }

    /** {@link Thread#holdsLock(Object)} for rewritten code. */
    public static boolean holdsLock(Object object) {
        Stripe stripe = stripeOf(object);
        Object me = owner();
        synchronized (stripe) {
            Monitor monitor = lookup(stripe, object);
            if (monitor != null && monitor.owner != null) {
                return monitor.owner == me;
            }
        }
        return Thread.holdsLock(object);
    }

    private static Object owner() {
        Task task = Carrier.currentTaskOnThisThread();
        return task != null ? task : Thread.currentThread();
    }

    /**
     * Takes the monitor for a PicoThread with the given recursion count, blocked while another owner holds it; an
     * interrupt does not end the wait and stays set, as on a platform thread.
     */
    private static void acquire(Task task, Object object, int recursions) {
        Monitor homed = homedMonitor(object);
        Stripe stripe = stripeOf(homed, object);
        while (true) {
            synchronized (stripe) {
                Monitor monitor = monitorOf(stripe, homed, object);
                if (monitor.owner == task) {
                    monitor.recursions += recursions;
                    return;
                }
                if (monitor.owner == null) {
                    if (monitor.entrants != null) {
                        monitor.entrants.remove(task);
                    }
                    monitor.owner = task;
                    monitor.recursions = recursions;
                    task.ownedMonitors++;
                    return;
                }
                if (!monitor.entrants().contains(task)) {
                    monitor.entrants().add(task);
                }
            }
            Scheduler.running().blockOnMonitor(task, object);
        }
    }

    /** Parks a waiting PicoThread until it is notified, its timeout passes or it is interrupted. */
    private static void awaitNotification(Task task, Waiter waiter) {
        Stripe stripe = stripeOf(waiter.object);
        while (true) {
            synchronized (stripe) {
                if (waiter.notified) {
                    return;
                }
            }
            if (task.isInterrupted()) {
                return;
            }
            long remaining = 0;
            if (waiter.deadline != 0) {
                remaining = waiter.deadline - System.nanoTime();
                if (remaining <= 0) {
                    return;
                }
            }
            Scheduler.running().park(task, remaining, waiter.object);
        }
    }

    /** Releases a monitor whose recursion count reached zero and lets the next entrant try. Under its stripe. */
    private static void release(Stripe stripe, Object object, Monitor monitor) {
        if (monitor.owner instanceof Task owner) {
            owner.ownedMonitors--;
        }
        monitor.owner = null;
        Task next = monitor.entrants == null ? null : monitor.entrants.poll();
        if (next != null) {
            Scheduler.running().unpark(next);
        }
        Task backedOff;
        while (monitor.backedOff != null && (backedOff = monitor.backedOff.poll()) != null) {
            Scheduler.running().unpark(backedOff);
        }
        if (monitor.platformWaiters > 0) {
            stripe.notifyAll();
        }
        if (monitor.isUnused()) {
            discard(stripe, object, monitor);
        }
    }

    private static void wakeWaiters(Object object, boolean all) {
        Stripe stripe = stripeOf(object);
        Object me = owner();
        synchronized (stripe) {
            Monitor monitor = lookup(stripe, object);
            boolean ownsRuntimeMonitor = monitor != null && monitor.owner == me;
            if (!ownsRuntimeMonitor && !Thread.holdsLock(object)) {
                throw new IllegalMonitorStateException("current thread is not owner");
            }
            if (monitor != null) {
                Waiter waiter;
                while (monitor.waitSet != null && (waiter = monitor.waitSet.poll()) != null) {
                    waiter.notified = true;
                    if (waiter.who instanceof Task waitingTask) {
                        Scheduler.running().unpark(waitingTask);
                    } else {
                        stripe.notifyAll();
                    }
                    if (!all) {
                        break;
                    }
                }
                if (monitor.isUnused()) {
                    discard(stripe, object, monitor);
                }
            }
        }
        if (Thread.holdsLock(object)) {
            if (all) {
                object.notifyAll();
            } else {
                object.notify();
            }
        }
    }

    private static void enterOnPlatformThread(Object object, Thread thread) {
        Stripe stripe = stripeOf(object);
        boolean interrupted = false;
        synchronized (stripe) {
            while (true) {
                Monitor monitor = monitorOf(stripe, object);
                if (monitor.owner == thread) {
                    monitor.recursions++;
                    break;
                }
                if (monitor.owner == null) {
                    monitor.owner = thread;
                    monitor.recursions = 1;
                    break;
                }
                monitor.platformWaiters++;
                try {
                    stripe.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                } finally {
                    monitor.platformWaiters--;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Object.wait on a platform thread. On a PicoThread's monitor, the waiter is counted so that the thread's end
     * notifies it, and a thread that has already ended makes the wait return at once (a spurious wake-up).
     */
    private static void waitOnPlatformThread(Object object, long millis, int nanos) throws InterruptedException {
        Task waitedThread = object instanceof Thread ? Task.of((Thread) object) : null;
        if (waitedThread != null) {
            // Counted before the check, which the terminating carrier makes in the other order, so that either
            // this thread sees the thread terminated or the carrier sees it counted and notifies.
            PLATFORM_WAITERS_ON_PICO_THREADS.incrementAndGet();
            if (waitedThread.isTerminated()) {
                PLATFORM_WAITERS_ON_PICO_THREADS.decrementAndGet();
                if (!Thread.holdsLock(object)) {
                    throw new IllegalMonitorStateException("current thread is not owner");
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                return; // the notification of its end has already been given: a spurious wake-up
            }
        }
        try {
            waitOnPlatformThreadCounted(object, millis, nanos);
        } finally {
            if (waitedThread != null) {
                PLATFORM_WAITERS_ON_PICO_THREADS.decrementAndGet();
            }
        }
    }

    /**
     * The wait of {@link #waitOnPlatformThread}: gives up the runtime monitor if it holds it, waits on the JVM
     * monitor (which a rewritten region holds too), then takes the runtime monitor back.
     */
    private static void waitOnPlatformThreadCounted(Object object, long millis, int nanos) throws InterruptedException {
        Stripe stripe = stripeOf(object);
        Thread thread = Thread.currentThread();
        int recursions = 0;
        synchronized (stripe) {
            Monitor monitor = lookup(stripe, object);
            if (monitor != null && monitor.owner == thread) {
                recursions = monitor.recursions;
                monitor.recursions = 0;
                release(stripe, object, monitor);
            }
        }
        try {
            object.wait(millis, nanos);
        } finally {
            if (recursions > 0) {
                retakeOnPlatformThread(object, thread, recursions);
            }
        }
    }

    /**
     * Takes the runtime monitor back after Object.wait, which has just re-acquired the JVM monitor. The order is
     * the reverse of entry (runtime, then JVM), so this must not block while holding the JVM monitor: a PicoThread
     * that owns the runtime monitor may need the JVM monitor to leave its region, and it runs on the carrier. So
     * the thread waits inside {@code object.wait}, which lends the JVM monitor out, until the runtime monitor is free.
     */
    private static void retakeOnPlatformThread(Object object, Thread thread, int recursions) {
        Stripe stripe = stripeOf(object);
        boolean interrupted = false;
        while (true) {
            synchronized (stripe) {
                Monitor monitor = monitorOf(stripe, object);
                if (monitor.owner == null || monitor.owner == thread) {
                    monitor.owner = thread;
                    monitor.recursions += recursions;
                    break;
                }
            }
            try {
                object.wait(1);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            thread.interrupt();
        }
    }
}
