package org.picothreads.runtime.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Finds, in the scheduler's idle path, a program whose PicoThreads are all blocked with nothing left that could wake
 * any of them; it then prints their dump and exits the JVM, instead of letting it hang.
 *
 * <pre>
 * carrier idle (no ready task, no submission) with live tasks:
 *   a timer is armed, I/O is pending, or a task joins a platform thread  -> park as usual, not a deadlock
 *   otherwise park for the grace period (200 ms), then look at the platform threads:
 *     each is the runtime's own, a JVM thread, inside a PlatformWaits wait, the DestroyJavaVM thread,
 *     or a daemon thread in WAITING or BLOCKED                         -> recheck after another grace period
 *     any other (it might still start, interrupt or unpark something)  -> not a deadlock; look again later,
 *                                                                         twice as late each time, up to 2 s
 *   nothing changed on the recheck                                      -> print the dump, System.exit(status)
 * </pre>
 *
 * The thread enumeration costs a walk over the platform threads, done only while the carrier is idle.
 * {@code -Dpicothreads.deadlockDetection=false} turns detection off; {@code -Dpicothreads.deadlockExitStatus=N}
 * sets the exit status (default 1).
 */
final class DeadlockDetector {
    /** False when picothreads.deadlockDetection is false. */
    static final boolean ENABLED = RuntimeSettings.deadlockDetection();
    /** How long the carrier must have been idle before the platform threads are looked at. */
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Longest wait between two looks while some platform thread is busy. */
    private static final long LONGEST_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** The name HotSpot gives the launcher's thread once main has returned and it waits for the JVM to end. */
    private static final String DESTROY_JAVA_VM = "DestroyJavaVM";
    /** The class of the JDK's own system threads, such as Common-Cleaner. */
    private static final String INNOCUOUS_THREAD = "jdk.internal.misc.InnocuousThread";

    /** True once a deadlock was declared and the JVM is exiting. */
    private static volatile boolean exiting;

    private final Scheduler scheduler;
    /** How long the next idle period lasts before the next look. */
    private long intervalNanos = GRACE_NANOS;

    DeadlockDetector(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** True once a deadlock has been declared: the JVM is exiting. */
    static boolean exiting() {
        return exiting;
    }

    /**
     * Parks the idle carrier (no ready task, no submission, no armed timer) while tasks are alive, and declares a
     * deadlock when nothing could ever wake them. Returns as soon as a submission arrives.
     */
    void parkIdle() {
        if (!stayedIdle(intervalNanos)) {
            intervalNanos = GRACE_NANOS;
            return;
        }
        if (!nothingCanWakeATask()) {
            intervalNanos = Math.min(intervalNanos * 2, LONGEST_INTERVAL_NANOS);
            return;
        }
        if (stayedIdle(GRACE_NANOS) && nothingCanWakeATask()) {
            exiting = true;
            ThreadDump.print(scheduler.deadlockDump());
            System.exit(RuntimeSettings.deadlockExitStatus());
        }
    }

    /** Parks for {@code nanos}; false as soon as the carrier has work or a timer, true if it stayed idle. */
    private boolean stayedIdle(long nanos) {
        long deadline = System.nanoTime() + nanos;
        while (true) {
            if (!scheduler.isIdle()) {
                return false;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return true;
            }
            LockSupport.parkNanos(scheduler, remaining);
            Thread.interrupted();
        }
    }

    /** True when no wake-up source is left: no join watcher, no pending I/O, and every platform thread is stuck. */
    private boolean nothingCanWakeATask() {
        if (scheduler.hasExternalWakeSources()) {
            return false;
        }
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads;
        int count;
        do {
            threads = new Thread[root.activeCount() * 2 + 8];
            count = root.enumerate(threads, true);
        } while (count == threads.length);
        for (int index = 0; index < count; index++) {
            if (mightWakeATask(threads[index], root)) {
                return false;
            }
        }
        return true;
    }

    /** True when a platform thread might still act: it is neither the runtime's, nor the JVM's, nor stuck. */
    private boolean mightWakeATask(Thread thread, ThreadGroup systemGroup) {
        if (thread == Thread.currentThread() || Lifetime.isKeepalive(thread) || ThreadDump.isReporter(thread)
                || Watchdog.isWatchdog(thread)
                || thread.getThreadGroup() == systemGroup || thread.getClass().getName().equals(INNOCUOUS_THREAD)
                || PlatformWaits.isWaiting(thread)) {
            return false;
        }
        Thread.State state = thread.getState();
        if (state == Thread.State.TERMINATED) {
            return false;
        }
        if (thread.isDaemon()) {
            return state != Thread.State.WAITING && state != Thread.State.BLOCKED;
        }
        return !thread.getName().equals(DESTROY_JAVA_VM);
    }
}
