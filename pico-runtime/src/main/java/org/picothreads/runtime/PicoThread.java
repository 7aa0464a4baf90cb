package org.picothreads.runtime;

import java.time.Duration;
import org.picothreads.runtime.internal.CallerToken;
import org.picothreads.runtime.internal.Task;
import org.picothreads.runtime.internal.ThreadCalls;

/**
 * A user-level thread that the PicoThreads scheduler runs cooperatively on its single carrier thread; rewritten
 * code creates one wherever the original created a {@link Thread}.
 *
 * <p>It is a {@link Thread}, so that it fits wherever a Thread is expected (a {@code ThreadFactory}, a method
 * taking a Thread, a user subclass of Thread, whose superclass the transformer replaces by this class), and it
 * declares every public constructor of JDK 17's Thread with the same parameters, because the transformer turns
 * {@code new Thread(...)} into {@code new PicoThread(...)} without changing the arguments. The JVM never runs
 * its code as a platform thread: {@link #start()} hands it to the scheduler (and so does {@link #run()} when JDK
 * code started it without {@code start()}), and the methods the JVM would answer for a started thread (state,
 * interrupt status, uncaught exception handler) are answered from its {@link Task}.
 *
 * <p>A thread created by a PicoThread inherits the daemon status, priority, context class loader and thread
 * group of that PicoThread, not of the carrier. Unnamed threads are numbered {@code Thread-N} by the JDK, as they
 * would be without the rewrite; the runtime's own platform threads are named and take no number.
 *
 * <p>Thread's final methods ({@code join}, {@code isAlive}, {@code setDaemon}) and its static methods cannot be
 * overridden; rewritten code calls {@link ThreadCalls} for them instead. This class also hides Thread's
 * blocking static methods with ones that call ThreadCalls, so that a call compiled against a Thread subclass
 * ({@code sleep(10)} inside {@code class Worker extends Thread}) reaches the scheduler too.
 */
// The constructors call Thread's own final methods on the new thread to correct what Thread's constructor
// inherited from the carrier; those methods never call back into a subclass.
@SuppressWarnings("this-escape")
public class PicoThread extends Thread {
    /** JDK 19 and later print the thread id in {@link Thread#toString()}. */
    private static final boolean TO_STRING_SHOWS_ID = Runtime.version().feature() >= 19;

    /** The scheduling state; the runtime reads this field through a VarHandle. */
    private final Task task;
    /** The Runnable given to the constructor, or null; the runtime clears it when the thread terminates. */
    private Runnable target;

    /** As {@link Thread#Thread()}. */
    public PicoThread() {
        super(inheritedGroup(null), (Runnable) null);
        task = new Task();
        inheritFromCreator(true);
    }

    /** As {@link Thread#Thread(Runnable)}. */
    public PicoThread(Runnable target) {
        super(inheritedGroup(null), (Runnable) null);
        task = new Task();
        this.target = target;
        inheritFromCreator(true);
    }

    /** As {@link Thread#Thread(ThreadGroup, Runnable)}. */
    public PicoThread(ThreadGroup group, Runnable target) {
        super(inheritedGroup(group), (Runnable) null);
        task = new Task();
        this.target = target;
        inheritFromCreator(true);
    }

    /** As {@link Thread#Thread(String)}. */
    public PicoThread(String name) {
        super(inheritedGroup(null), null, name);
        task = new Task();
        inheritFromCreator(true);
    }

    /** As {@link Thread#Thread(ThreadGroup, String)}. */
    public PicoThread(ThreadGroup group, String name) {
        super(inheritedGroup(group), null, name);
        task = new Task();
        inheritFromCreator(true);
    }

    /** As {@link Thread#Thread(Runnable, String)}. */
    public PicoThread(Runnable target, String name) {
        super(inheritedGroup(null), null, name);
        task = new Task();
        this.target = target;
        inheritFromCreator(true);
    }

    /** As {@link Thread#Thread(ThreadGroup, Runnable, String)}. */
    public PicoThread(ThreadGroup group, Runnable target, String name) {
        super(inheritedGroup(group), null, name);
        task = new Task();
        this.target = target;
        inheritFromCreator(true);
    }

    /** As {@link Thread#Thread(ThreadGroup, Runnable, String, long)}; the stack size is recorded and unused. */
    public PicoThread(ThreadGroup group, Runnable target, String name, long stackSize) {
        super(inheritedGroup(group), null, name, stackSize);
        task = new Task();
        this.target = target;
        inheritFromCreator(true);
    }

    /**
     * As {@link Thread#Thread(ThreadGroup, Runnable, String, long, boolean)}; the stack size is recorded and
     * unused.
     */
    public PicoThread(ThreadGroup group, Runnable target, String name, long stackSize, boolean inheritThreadLocals) {
        super(inheritedGroup(group), null, name, stackSize, inheritThreadLocals);
        task = new Task();
        this.target = target;
        inheritFromCreator(inheritThreadLocals);
    }

    /**
     * The group to pass to Thread's constructor: the given one, else, when a PicoThread creates this one, that
     * PicoThread's group, else null so that the JDK picks the creating platform thread's group.
     */
    private static ThreadGroup inheritedGroup(ThreadGroup group) {
        if (group != null) {
            return group;
        }
        Thread creator = ThreadCalls.currentThread();
        return creator != Thread.currentThread() ? creator.getThreadGroup() : null;
    }

    /**
     * Gives the new thread the values of the creating thread's {@link PicoInheritableThreadLocal}s, through their
     * {@code childValue}, unless {@code inheritThreadLocals} is false. Thread's constructor copied the daemon status,
     * priority and context class loader of the platform thread it runs on; when that is the carrier, copies them
     * from the creating PicoThread instead.
     */
    private void inheritFromCreator(boolean inheritThreadLocals) {
        if (inheritThreadLocals) {
            task.inheritThreadLocalValues(PicoInheritableThreadLocal.inheritedByNewThread());
        }
        Thread creator = ThreadCalls.currentThread();
        if (creator == Thread.currentThread()) {
            return;
        }
        if (isDaemon() != creator.isDaemon()) {
            setDaemon(creator.isDaemon());
        }
        int priority = Math.min(creator.getPriority(), getThreadGroup().getMaxPriority());
        if (getPriority() != priority) {
            setPriority(priority);
        }
        ClassLoader loader = creator.getContextClassLoader();
        if (super.getContextClassLoader() != loader) {
            super.setContextClassLoader(loader);
        }
    }

    /** Schedules this thread on the carrier; throws IllegalThreadStateException if it was started before. */
    @Override
    public void start() {
        task.start(this);
    }

    /**
     * Runs the Runnable given to the constructor, if any; subclasses override this, as with Thread. When the JVM
     * runs it as a platform thread instead, because JDK code started it without calling {@link #start()} (a thread
     * container's start, as a ThreadPoolExecutor of JDK 21 and later starts the threads of its ThreadFactory), hands
     * it to the scheduler and keeps that platform thread until it terminates, so that the JDK does not see it end.
     */
    @Override
    public void run() {
        if (Thread.currentThread() == this) {
            runStartedByJdk();
            return;
        }
        Runnable runnable = target;
        if (runnable != null) {
            runnable.run();
        }
    }

    /** Schedules this thread, which the JVM runs as a platform thread, and waits there until it terminates. */
    private void runStartedByJdk() {
        task.start(this);
        while (true) {
            try {
                ThreadCalls.join(this);
                return;
            } catch (InterruptedException ignored) {
                // only the PicoThread's own interrupt status counts; this platform thread just waits for it
            }
        }
    }

    /** Sets the interrupt status; a sleeping or joining PicoThread wakes with InterruptedException. */
    @Override
    public void interrupt() {
        task.interrupt();
    }

    @Override
    public boolean isInterrupted() {
        return task.isInterrupted();
    }

    /**
     * NEW, RUNNABLE (ready or running), BLOCKED (entering a monitor another thread holds), WAITING (untimed join,
     * park or wait), TIMED_WAITING (sleep, timed join, park or wait) or TERMINATED.
     */
    @Override
    public State getState() {
        return task.threadState();
    }

    /** The handler set on this thread, else its thread group; null once the thread has terminated. */
    @Override
    public UncaughtExceptionHandler getUncaughtExceptionHandler() {
        return task.isTerminated() ? null : super.getUncaughtExceptionHandler();
    }

    /**
     * On this thread itself, the activations it is running and, below them, those a lazy resume has not re-entered
     * yet, as a platform thread shows them; from another thread, its saved activations while it is suspended, and an
     * empty array while a carrier runs it (see ThreadCalls#stackTrace).
     */
    @Override
    public StackTraceElement[] getStackTrace() {
        return ThreadCalls.stackTrace(task);
    }

    /** As {@link Thread#toString()} on the running JDK: {@code Thread[#id,name,priority,group]} on JDK 19 and later. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Thread[");
        if (TO_STRING_SHOWS_ID) {
            text.append('#').append(getId()).append(',');
        }
        text.append(getName()).append(',').append(getPriority()).append(',');
        ThreadGroup group = task.isTerminated() ? null : getThreadGroup();
        if (group != null) {
            text.append(group.getName());
        }
        return text.append(']').toString();
    }

    /** Hides {@link Thread#currentThread()}: see {@link ThreadCalls#currentThread()}. */
    public static Thread currentThread() {
        return ThreadCalls.currentThread();
    }

    /** Hides {@link Thread#sleep(long)}: see {@link ThreadCalls#sleep(long)}. */
    public static void sleep(long millis) throws InterruptedException {
        CallerToken.discard(); // called by a subclass's own name, which rewritten code gives no token
        ThreadCalls.sleep(millis);
    }

    /** Hides {@link Thread#sleep(long, int)}: see {@link ThreadCalls#sleep(long, int)}. */
    public static void sleep(long millis, int nanos) throws InterruptedException {
        CallerToken.discard(); // called by a subclass's own name, which rewritten code gives no token
        ThreadCalls.sleep(millis, nanos);
    }

    /** Hides {@code Thread.sleep(Duration)} of JDK 19 and later: see {@link ThreadCalls#sleep(Duration)}. */
    public static void sleep(Duration duration) throws InterruptedException {
        CallerToken.discard(); // called by a subclass's own name, which rewritten code gives no token
        ThreadCalls.sleep(duration);
    }

    /** Hides {@link Thread#yield()}: see {@link ThreadCalls#yieldNow()}. */
    public static void yield() {
        CallerToken.discard(); // called by a subclass's own name, which rewritten code gives no token
        ThreadCalls.yieldNow();
    }

    /** Hides {@link Thread#onSpinWait()}: see {@link ThreadCalls#onSpinWait()}. */
    public static void onSpinWait() {
        CallerToken.discard(); // called by a subclass's own name, which rewritten code gives no token
        ThreadCalls.onSpinWait();
    }

    /** Hides {@link Thread#interrupted()}: see {@link ThreadCalls#interrupted()}. */
    public static boolean interrupted() {
        return ThreadCalls.interrupted();
    }
}
