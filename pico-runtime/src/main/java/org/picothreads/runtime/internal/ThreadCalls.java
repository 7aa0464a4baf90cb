package org.picothreads.runtime.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The targets to which the transformer redirects calls of {@link Thread}'s static and final methods and of
 * {@link ThreadGroup}'s counting, listing and interrupting methods: each
 * behaves exactly like the JDK method when called on a platform thread or for a platform thread, and
 * cooperatively when called by a PicoThread on the carrier.
 *
 * <p>A blocking method, called by a PicoThread, follows the protocol below, in this order:
 * <pre>
 *   task = the PicoThread running on this thread   none: behave as the JDK method (block this platform thread)
 *   Continuation.resumingPrimitive()               re-invoked at the end of a restore: complete, throwing
 *                                                  InterruptedException if an interrupt ended the wait
 *   the interrupt status is set                    clear it, throw InterruptedException
 *   the task is pinned (pinDepth &gt; 0, or a        block the carrier for real, without capture, while a
 *   frame that cannot be captured is below it)       spare carrier runs the others (compensation)
 *   otherwise                                      arm the wake-up, throw Continuation.suspend()
 * </pre>
 * A wait that an interrupt ended completes by clearing the status and throwing InterruptedException (a sleep's
 * says "sleep interrupted", a join's has no message, as the JDK's do on platform threads); a wait that ended
 * otherwise returns normally even if an interrupt arrived before the thread ran again, leaving the status set.
 */
public final class ThreadCalls {
    private static final String SLEEP_INTERRUPTED = "sleep interrupted";

    private ThreadCalls() {
    }

    /**
     * The stack trace of {@code task}'s thread for {@link Thread#getStackTrace()}: on that thread itself, its running
     * and saved activations (see ThreadDump); from any other thread, its saved activations while it is suspended, and
     * none while a carrier runs it or before it has suspended.
     */
    public static StackTraceElement[] stackTrace(Task task) {
        if (task == Carrier.currentTaskOnThisThread()) {
            return ThreadDump.stackTraceOfCurrent(task);
        }
        Scheduler scheduler = Scheduler.running();
        return scheduler == null ? new StackTraceElement[0] : scheduler.savedStackTrace(task);
    }

    /**
     * {@link Thread#getAllStackTraces()}: the JDK's map of the live platform threads, with each live PicoThread and
     * its stack trace as {@link Thread#getStackTrace()} gives it to the caller.
     */
    public static Map<Thread, StackTraceElement[]> getAllStackTraces() {
        Map<Thread, StackTraceElement[]> traces = new HashMap<>(Thread.getAllStackTraces());
        for (Thread thread : Scheduler.liveThreads()) {
            traces.put(thread, thread.getStackTrace());
        }
        return traces;
    }

    /** {@link Thread#currentThread()}: the running PicoThread on the carrier, else the current platform thread. */
    public static Thread currentThread() {
        Task task = Carrier.currentTaskOnThisThread();
        return task != null ? task.thread : Thread.currentThread();
    }

    /**
     * {@link Thread#sleep(long)}. Invoked again by a resumed activation, it reads neither argument (the transformer
     * passes zeros there and saves none: its {@code RuntimeNames.isReinvokedWithoutArguments}); only
     * {@link #sleepNanos} completes the wait the task kept. {@link #sleep(long, int)} likewise.
     */
    public static void sleep(long millis) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            Thread.sleep(millis);
            return;
        }
        sleepNanos(task, TimeUnit.MILLISECONDS.toNanos(millis), caller);
    }

    /** {@link Thread#sleep(long, int)}. */
    public static void sleep(long millis, int nanos) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        checkTimeout(millis, nanos);
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            Thread.sleep(millis, nanos);
            return;
        }
        long total = TimeUnit.MILLISECONDS.toNanos(millis);
        sleepNanos(task, total + Math.min(Long.MAX_VALUE - total, nanos), caller);
    }

    /**
     * {@code Thread.sleep(Duration)} of JDK 19 and later: a negative duration returns at once. Invoked again by a
     * resumed activation, it reads no argument (the transformer passes null and saves none), as {@link #sleep(long)}.
     */
    public static void sleep(Duration duration) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        if (Continuation.reinvoking()) {
            sleepNanos(Carrier.currentTaskOnThisThread(), 0, caller);
            return;
        }
        long nanos = TimeUnit.NANOSECONDS.convert(duration);
        if (nanos < 0) {
            return;
        }
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            return;
        }
        sleepNanos(task, nanos, caller);
    }

    /** {@link Thread#yield()}. */
    public static void yieldNow() {
        yieldTask(false);
    }

    /**
     * {@link Thread#onSpinWait()}: on a PicoThread, a yield, so that a thread spinning until another one acts
     * ({@code while (!done) Thread.onSpinWait();}) lets it run on the carrier they share; on a platform thread, the
     * JDK's hint.
     */
    public static void onSpinWait() {
        yieldTask(true);
    }

    /** The direct entry of {@link #yieldNow()} and {@link #onSpinWait()}, which differ on platform threads only. */
    private static void yieldTask(boolean spinning) {
        int caller = CallerToken.claimCaller();
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            if (spinning) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
            return;
        }
        if (Continuation.resumingPrimitive()) {
            return;
        }
        task.callerRestored = caller != CallerToken.NOT_RESTORED;
        try {
            Scheduler.running().yieldTask(task);
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            task.callerRestored = false;
        }
    }

    /** {@link Thread#interrupted()}: returns and clears the interrupt status of the current thread. */
    public static boolean interrupted() {
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            return Thread.interrupted();
        }
        return task.clearInterrupt();
    }

    /** {@link Thread#join()}. */
    public static void join(Thread thread) throws InterruptedException {
        join(thread, 0L);
    }

    /** {@link Thread#join(long)}: waits at most {@code millis}, or forever when it is 0. */
    public static void join(Thread thread, long millis) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        long nanos = millis == 0 ? 0 : TimeUnit.MILLISECONDS.toNanos(millis);
        Task task = Carrier.currentTaskOnThisThread();
        Task target = Task.of(thread);
        if (task == null) {
            if (target == null) {
                thread.join(millis);
            } else {
                target.awaitTermination(nanos);
            }
            return;
        }
        joinNanos(task, thread, target, nanos, caller);
    }

    /** {@link Thread#join(long, int)}: the nanoseconds round the wait up to the next millisecond. */
    public static void join(Thread thread, long millis, int nanos) throws InterruptedException {
        checkTimeout(millis, nanos);
        if (Carrier.currentTaskOnThisThread() == null && Task.of(thread) == null) {
            thread.join(millis, nanos);
            return;
        }
        join(thread, nanos > 0 && millis < Long.MAX_VALUE ? millis + 1 : millis);
    }

    /**
     * {@code Thread.join(Duration)} of JDK 19 and later: waits at most {@code duration} and returns true if the
     * thread has terminated; throws IllegalThreadStateException if it was not started.
     */
    public static boolean join(Thread thread, Duration duration) throws InterruptedException {
        boolean callerRestored = CallerToken.claim();
        long nanos = TimeUnit.NANOSECONDS.convert(duration);
        Task task = Carrier.currentTaskOnThisThread();
        Task target = Task.of(thread);
        if (task != null && Continuation.resumingPrimitive()) {
            completeWait(task, null);
            return isTerminated(thread, target);
        }
        Thread.State state = target != null ? target.threadState() : thread.getState();
        if (state == Thread.State.NEW) {
            throw new IllegalThreadStateException("Thread not started");
        }
        if (state == Thread.State.TERMINATED) {
            return true;
        }
        if (nanos <= 0) {
            return false;
        }
        if (task == null) {
            if (target == null) {
                long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
                thread.join(nanos > TimeUnit.MILLISECONDS.toNanos(millis) ? millis + 1 : millis);
            } else {
                target.awaitTermination(nanos);
            }
            return isTerminated(thread, target);
        }
        throwIfInterrupted(task, null);
        task.callerRestored = callerRestored;
        try {
            if (CaptureSafety.checksAhead(task)) {
                task.framesCheckedAhead = CaptureSafety.walkerAhead().walk(CaptureSafety.CHECK_AHEAD) == null;
            }
            Scheduler.running().join(task, thread, target, nanos);
        } finally {
            task.callerRestored = false;
            task.framesCheckedAhead = false;
        }
        completeWait(task, null);
        return isTerminated(thread, target);
    }

    /** {@link Thread#isAlive()}: started and not yet terminated. */
    public static boolean isAlive(Thread thread) {
        Task target = Task.of(thread);
        return target != null ? target.isAlive() : thread.isAlive();
    }

    /** {@link Thread#setDaemon(boolean)}: IllegalThreadStateException if the thread is alive. */
    public static void setDaemon(Thread thread, boolean on) {
        Task target = Task.of(thread);
        if (target != null && target.isAlive()) {
            throw new IllegalThreadStateException();
        }
        thread.setDaemon(on);
    }

    /** {@link Thread#getThreadGroup()}: null once the thread has terminated. */
    public static ThreadGroup getThreadGroup(Thread thread) {
        Task target = Task.of(thread);
        return target != null && target.isTerminated() ? null : thread.getThreadGroup();
    }

    /** {@link Thread#activeCount()}: the live threads of the current thread's group and its subgroups. */
    public static int activeCount() {
        return activeCount(currentThread().getThreadGroup());
    }

    /** {@link Thread#enumerate(Thread[])}: the live threads of the current thread's group and its subgroups. */
    public static int enumerate(Thread[] threads) {
        return enumerate(currentThread().getThreadGroup(), threads, true);
    }

    /** {@link ThreadGroup#activeCount()}: its live platform threads and PicoThreads, subgroups included. */
    public static int activeCount(ThreadGroup group) {
        int count = group.activeCount();
        for (Thread thread : Scheduler.liveThreads()) {
            if (group.parentOf(thread.getThreadGroup())) {
                count++;
            }
        }
        return count;
    }

    /** {@link ThreadGroup#enumerate(Thread[])}: its live threads, subgroups included. */
    public static int enumerate(ThreadGroup group, Thread[] threads) {
        return enumerate(group, threads, true);
    }

    /**
     * {@link ThreadGroup#enumerate(Thread[], boolean)}: copies its live platform threads, then its live PicoThreads
     * in the order they started, into {@code threads} while there is room; returns how many it copied.
     */
    public static int enumerate(ThreadGroup group, Thread[] threads, boolean recurse) {
        int count = group.enumerate(threads, recurse);
        for (Thread thread : Scheduler.liveThreads()) {
            if (count == threads.length) {
                break;
            }
            ThreadGroup threadGroup = thread.getThreadGroup();
            if (recurse ? group.parentOf(threadGroup) : threadGroup == group) {
                threads[count++] = thread;
            }
        }
        return count;
    }

    /** {@link ThreadGroup#interrupt()}: interrupts its platform threads and PicoThreads, subgroups included. */
    public static void interrupt(ThreadGroup group) {
        group.interrupt();
        for (Thread thread : Scheduler.liveThreads()) {
            if (group.parentOf(thread.getThreadGroup())) {
                thread.interrupt();
            }
        }
    }

    /** The argument checks, with the JDK's messages, of the methods that take a timeout in millis and nanos. */
    static void checkTimeout(long millis, int nanos) {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        if (nanos < 0 || nanos > 999_999) {
            throw new IllegalArgumentException("nanosecond timeout value out of range");
        }
    }

    private static void sleepNanos(Task task, long nanos, int caller) throws InterruptedException {
        if (Continuation.resumingPrimitive()) {
            completeWait(task, SLEEP_INTERRUPTED);
            return;
        }
        throwIfInterrupted(task, SLEEP_INTERRUPTED);
        task.callerRestored = caller != CallerToken.NOT_RESTORED;
        try {
            if (nanos == 0) {
                Scheduler.running().yieldTask(task);
                return;
            }
            if (CaptureSafety.checksAhead(task)) {
                task.framesCheckedAhead = CaptureSafety.walkerAhead().walk(CaptureSafety.CHECK_AHEAD) == null;
            }
            Scheduler.running().sleep(task, nanos);
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
            return;
        } finally {
            task.callerRestored = false;
            task.framesCheckedAhead = false;
        }
        completeWait(task, SLEEP_INTERRUPTED);
    }

    private static void joinNanos(Task task, Thread thread, Task target, long nanos, int caller)
            throws InterruptedException {
        if (Continuation.resumingPrimitive()) {
            completeWait(task, null);
            return;
        }
        if (!(target != null ? target.isAlive() : thread.isAlive())) {
            return;
        }
        throwIfInterrupted(task, null);
        task.callerRestored = caller != CallerToken.NOT_RESTORED;
        try {
            if (CaptureSafety.checksAhead(task)) {
                task.framesCheckedAhead = CaptureSafety.walkerAhead().walk(CaptureSafety.CHECK_AHEAD) == null;
            }
            Scheduler.running().join(task, thread, target, nanos);
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
            return;
        } finally {
            task.callerRestored = false;
            task.framesCheckedAhead = false;
        }
        completeWait(task, null);
    }

    /**
     * Completes a wait that is over: if an interrupt ended it, clears the interrupt status and throws
     * InterruptedException; a wait that ended otherwise returns and leaves a later interrupt's status set.
     */
    private static void completeWait(Task task, String message) throws InterruptedException {
        if (task.wokenByInterrupt) {
            task.wokenByInterrupt = false;
            task.clearInterrupt();
            throw new InterruptedException(message);
        }
    }

    /** Clears the interrupt status and throws InterruptedException with the message if it was set. */
    private static void throwIfInterrupted(Task task, String message) throws InterruptedException {
        if (task.clearInterrupt()) {
            throw new InterruptedException(message);
        }
    }

    private static boolean isTerminated(Thread thread, Task target) {
        return target != null ? target.isTerminated() : thread.getState() == Thread.State.TERMINATED;
    }
}
