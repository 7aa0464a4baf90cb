package org.picothreads.runtime.internal;

import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.picothreads.runtime.PicoThread;

/**
 * Writes the dump of the live PicoThreads: for each, its name, state, what it waits on, and its logical stack, the
 * saved frames from the innermost to the outermost, each with the source line its resume point stands at.
 *
 * <pre>
 * "worker-1" WAITING joining "worker-2"
 *     at com.example.Worker.await(Worker.java:41)
 *     at com.example.Worker.run(Worker.java:17)
 * </pre>
 *
 * The tasks are read while no carrier can take a task from a run queue (the scheduler holds every lane's queue lock
 * around {@link #write}); a task another carrier is running shows no frames, since its saved state is changing; the
 * task that takes the dump shows its running frames, then its saved ones. The line of a frame comes from the
 * {@link Rewritten#lines()} of the frame's class, found by name through the class loaders of the PicoThread (its
 * class, its Runnable's class, its context class loader, then the system class loader); {@code (Unknown Source)}
 * when none has it. The file name is the top-level class's simple name with {@code .java}.
 *
 * <p>Also starts the reporters that the system properties ask for: {@code picothreads.dumpOnExit=true} prints the
 * dump when the JVM shuts down, {@code picothreads.dumpIntervalSeconds=N} every N seconds from a daemon thread.
 */
final class ThreadDump {
    /** PicoThread's private field holding the Runnable given to its constructor. */
    private static final VarHandle PICO_THREAD_TARGET;
    /** The runtime's frames on top of a stack trace, which getStackTrace leaves out. */
    private static final String RUNTIME_PACKAGE = "org.picothreads.runtime.";
    private static final String INVOKE_PACKAGE = "java.lang.invoke.";
    /** The walker of a running thread's own stack trace, which stops at the driver's frame. */
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    /** The daemon thread printing the dump periodically, or null; the deadlock detector does not count it. */
    private static volatile Thread intervalReporter;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(PicoThread.class, MethodHandles.lookup());
            PICO_THREAD_TARGET = lookup.findVarHandle(PicoThread.class, "target", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ThreadDump() {
    }

    /**
     * The dump of the tasks of a list of live tasks, under a header line. Called while no task can be taken.
     *
     * @param header    the first line, without its line separator
     * @param firstLive the first task of the circular list of live tasks, or null
     * @param unseenBlocks for each task whose carrier the watchdog found blocked in code the runtime does not see, a
     *                     line saying which carrier and how
     * @param runningOn    for each task a carrier was running (or parked for, pinned) as the dump began, that carrier
     */
    static String write(String header, Task firstLive, Map<Task, String> unseenBlocks, Map<Task, Carrier> runningOn) {
        StringBuilder text = new StringBuilder(header).append('\n');
        Map<String, Rewritten> markers = new HashMap<>();
        Task task = firstLive;
        while (task != null) {
            text.append('\n');
            describe(task, unseenBlocks.get(task), runningOn.get(task), markers, text);
            task = task.nextLive == firstLive ? null : task.nextLive;
        }
        return text.toString();
    }

    /**
     * The header of a dump on demand.
     *
     * @param blockedCarriers carriers blocked by pinned threads
     * @param unseenCarriers  carriers the watchdog found blocked in code the runtime does not see
     */
    static String liveHeader(long liveThreads, int blockedCarriers, int unseenCarriers) {
        return "PicoThreads: " + liveThreads + (liveThreads == 1 ? " live thread" : " live threads")
                + blockedCarriersNote(blockedCarriers, unseenCarriers);
    }

    /** What the headers say of carriers blocked by pinned threads or in unseen code: nothing when there is none. */
    private static String blockedCarriersNote(int blockedCarriers, int unseenCarriers) {
        if (blockedCarriers == 0 && unseenCarriers == 0) {
            return "";
        }
        String pinned = blockedCarriers + (blockedCarriers == 1 ? " carrier is" : " carriers are")
                + " blocked by pinned threads";
        String unseen = unseenCarriers + (unseenCarriers == 1 ? " carrier is" : " carriers are")
                + " blocked in code the runtime does not see";
        String which = blockedCarriers == 0 ? unseen : unseenCarriers == 0 ? pinned : pinned + ", " + unseen;
        return " (" + which + "; spare carriers run the others)";
    }

    /** The header of the dump printed when the detector finds a deadlock; the carriers counted as in the other. */
    static String deadlockHeader(long blockedThreads, int blockedCarriers, int unseenCarriers) {
        return "PicoThreads: deadlock: " + blockedThreads
                + (blockedThreads == 1 ? " thread is blocked" : " threads are blocked") + " and nothing can wake them"
                + blockedCarriersNote(blockedCarriers, unseenCarriers);
    }

    /** True when {@code thread} is the runtime's own periodic reporter. */
    static boolean isReporter(Thread thread) {
        return thread == intervalReporter;
    }

    /** Starts the reporters that picothreads.dumpOnExit and picothreads.dumpIntervalSeconds ask for. */
    static void startReporters() {
        if (RuntimeSettings.dumpOnExit()) {
            Thread hook = RuntimeThreads.create(() -> {
                if (!DeadlockDetector.exiting()) {
                    print(Scheduler.dump());
                }
            }, "pico-dump-on-exit", 0, false);
            try {
                Runtime.getRuntime().addShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The JVM is already shutting down: there is no exit left to report at.
            }
        }
        long seconds = RuntimeSettings.dumpIntervalSeconds();
        if (seconds <= 0) {
            return;
        }
        Thread reporter = RuntimeThreads.create(() -> {
            while (true) {
                try {
                    TimeUnit.SECONDS.sleep(seconds);
                } catch (InterruptedException e) {
                    return;
                }
                print(Scheduler.dump());
            }
        }, "pico-dump-interval", 0, true);
        intervalReporter = reporter;
        reporter.start();
    }

    /** Prints a dump to System.err in one piece. */
    static void print(String dump) {
        PrintStream err = System.err;
        err.print(dump);
        err.flush();
    }

    /**
     * Appends a task's entry: its name, state and what it waits for, a note when it is pinned or its carrier is
     * blocked in code the runtime does not see ({@code unseen}, or null), then its frames: its own trace for the
     * thread taking the dump; for one that {@code carrier} runs or is parked for (pinned), the frames that carrier
     * runs for it and the activations still saved below them, none when it was capturing, starting or ending a
     * dispatch at that moment; for a suspended one, its saved activations.
     */
    private static void describe(Task task, String unseen, Carrier carrier, Map<String, Rewritten> markers,
            StringBuilder text) {
        text.append('"').append(task.thread.getName()).append("\" ").append(task.threadState());
        String waitsFor = waitsFor(task);
        if (!waitsFor.isEmpty()) {
            text.append(' ').append(waitsFor);
        }
        text.append('\n');
        if (task.waitsPinned()) {
            text.append("\t(pinned: its frames are on the carrier's stack)\n");
        }
        if (unseen != null) {
            text.append("\t(").append(unseen).append(")\n");
        }
        StackTraceElement[] frames;
        if (task == Carrier.currentTaskOnThisThread()) {
            frames = stackTraceOfCurrent(task);
        } else if (carrier != null) {
            frames = stackTraceOnCarrier(carrier, task);
        } else if (task.savedReferences != null && !task.isDispatched()) {
            frames = locations(Frame.describeSaved(task), task, markers);
        } else {
            frames = null;
        }
        for (StackTraceElement element : frames == null ? new StackTraceElement[0] : frames) {
            // without the module and class loader names that the carrier's own trace gives
            text.append("\tat ").append(new StackTraceElement(element.getClassName(), element.getMethodName(),
                    element.getFileName(), element.getLineNumber())).append('\n');
        }
    }

    /** What the task waits for, in words; empty when it is not waiting. */
    private static String waitsFor(Task task) {
        byte state = task.state();
        if (state == Task.RUNNING) {
            return "running";
        }
        Object blocker = task.blocker;
        if (blocker instanceof Task) {
            return "joining \"" + ((Task) blocker).thread.getName() + "\"";
        }
        if (blocker instanceof Thread) {
            return "joining platform thread \"" + ((Thread) blocker).getName() + "\"";
        }
        if (blocker != null && state == Task.BLOCKED) {
            return "waiting to enter the monitor of " + blocker.getClass().getName() + "@"
                    + Integer.toHexString(System.identityHashCode(blocker));
        }
        if (blocker != null) {
            return "waiting on " + blocker.getClass().getName() + "@"
                    + Integer.toHexString(System.identityHashCode(blocker));
        }
        if (state == Task.SLEEPING) {
            return "sleeping";
        }
        if (state == Task.RUNNABLE || state == Task.WAKING) {
            return "ready";
        }
        return "";
    }

    /** {@code owner.method(File.java:line)} for a saved frame, or with {@code (Unknown Source)}. */
    private static StackTraceElement location(String key, int resumePoint, Task task, Map<String, Rewritten> markers) {
        int dot = key.indexOf('.');
        String className = key.substring(0, dot).replace('/', '.');
        String member = key.substring(dot + 1);
        String methodName = member.substring(0, member.indexOf('('));
        if (!markers.containsKey(className)) {
            markers.put(className, findMarker(className, task));
        }
        int line = line(markers.get(className), member, resumePoint);
        return new StackTraceElement(className, methodName, line > 0 ? sourceFile(className) : null, line);
    }

    /**
     * The stack trace of the running PicoThread, as {@link Thread#getStackTrace()} shows a platform thread's: the
     * activations running on the carrier, from the caller of getStackTrace down to the driver (without the resume
     * entries through which the driver re-entered them), then the saved activations below them that a lazy resume
     * has not re-entered yet, innermost first. The forwarding frames under the outermost saved activation
     * (PicoThread.run) are not among them.
     */
    static StackTraceElement[] stackTraceOfCurrent(Task task) {
        List<StackTraceElement> trace = WALKER.walk(frames -> frames
                .dropWhile(frame -> frame.getClassName().startsWith(RUNTIME_PACKAGE))
                .takeWhile(frame -> frame.getDeclaringClass() != DispatchFrame.class)
                .filter(frame -> !frame.getMethodName().equals(DispatchFrame.RESUME_ENTRY))
                .map(StackWalker.StackFrame::toStackTraceElement)
                .collect(Collectors.toCollection(ArrayList::new)));
        Carrier carrier = Carrier.here();
        if (carrier != null && carrier.frame.task() == task) {
            trace.addAll(Arrays.asList(locations(carrier.frame.describeAttached(), task, new HashMap<>())));
        }
        return trace.toArray(new StackTraceElement[0]);
    }

    /**
     * The saved activations of a suspended PicoThread, outermost first, as {@link Frame#describeSaved} gives them;
     * none before it has suspended or once it has ended; null while a carrier dispatches it (it runs there, or its
     * capture or pinned block is under way) or it is pinned: its frames are then read from that carrier
     * ({@link #stackTraceOnCarrier}), and the caller asks again. Called while no dispatch can begin
     * ({@link Scheduler#savedStackTrace}).
     */
    static Object[] savedActivations(Task task) {
        if (!task.isAlive()) {
            return new Object[0];
        }
        if (task.waitsPinned() || task.isDispatched()) {
            return null;
        }
        return task.savedReferences == null ? new Object[0] : Frame.describeSaved(task);
    }

    /**
     * The stack trace of a PicoThread that {@code carrier} runs, or for which it is parked while the thread is pinned,
     * as another thread sees it with {@link Thread#getStackTrace()}: its frames on the carrier's stack below the
     * runtime's (and, pinned, the JDK's park) on top, down to {@link DispatchFrame}, without the resume entries
     * through which the driver re-entered them; then its activations still saved below them, which a lazy resume has
     * not re-entered yet, innermost first. Null when the carrier did not run the thread all along, or began or ended a
     * capture, or popped a saved activation to restore it, meanwhile ({@link Frame#stableVersion}): the caller asks
     * again.
     */
    static StackTraceElement[] stackTraceOnCarrier(Carrier carrier, Task task) {
        Frame frame = carrier.frame;
        int version = frame.stableVersion(task);
        if (version < 0) {
            return null;
        }
        StackTraceElement[] carrierStack = carrier.getStackTrace();
        Object[] saved = frame.describeAttachedRacily();
        if (saved == null || !frame.unchangedSince(version)) {
            return null;
        }
        int top = 0;
        while (top < carrierStack.length && isParkOrRuntime(carrierStack[top].getClassName())) {
            top++;
        }
        List<StackTraceElement> trace = framesAboveDriver(carrierStack, top);
        if (trace == null) {
            return null;
        }
        trace.addAll(Arrays.asList(locations(saved, task, new HashMap<>())));
        return trace.toArray(new StackTraceElement[0]);
    }

    /**
     * Completes the stack trace of an exception that the lazily resumed activation of {@code resumedMethod} (its key,
     * {@code owner.name(descriptor)}) let out, as the activation saved below it is about to rethrow it at its call:
     * made since that resume, the exception's trace ends at the driver, as the JVM filled it from the carrier's
     * stack, without the activations still saved. Its frames down to the driver (without the resume entries and the
     * driver's method handle frames) are followed by those saved activations with the lines of their calls, as a
     * platform thread's exception would show them; so are those of its causes and suppressed exceptions made there
     * too. An exception whose trace does not end at the driver just below that activation (made before the resume,
     * or on another thread, or without a writable trace) is left as it is.
     */
    static void completeStackTrace(Throwable failure, String resumedMethod, Frame saved, Task task) {
        Object[] below = null;
        Map<String, Rewritten> markers = null;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> pending = new ArrayList<>(List.of(failure));
        while (!pending.isEmpty()) {
            Throwable exception = pending.remove(pending.size() - 1);
            if (!seen.add(exception)) {
                continue;
            }
            try {
                List<StackTraceElement> running = runningPartAbove(exception.getStackTrace(), resumedMethod);
                if (running != null) {
                    if (below == null) {
                        markers = new HashMap<>();
                        below = saved.describeAttached();
                    }
                    running.addAll(Arrays.asList(locations(below, task, markers)));
                    exception.setStackTrace(running.toArray(new StackTraceElement[0]));
                }
                if (exception.getCause() != null) {
                    pending.add(exception.getCause());
                }
                pending.addAll(Arrays.asList(exception.getSuppressed()));
            } catch (RuntimeException overridden) {
                // an exception class of the program's whose getStackTrace, setStackTrace or getCause throws: its
                // trace stays as the JVM made it, and the program's own exception goes on unchanged
            }
        }
    }

    /**
     * The elements of {@code trace} above the driver, without the resume entries and the driver's method handle
     * frames, when the last of them is a frame of {@code resumedMethod} (the trace ends where that lazily resumed
     * activation was entered); otherwise null.
     */
    private static List<StackTraceElement> runningPartAbove(StackTraceElement[] trace, String resumedMethod) {
        List<StackTraceElement> running = framesAboveDriver(trace, 0);
        if (running == null || running.isEmpty()) {
            return null;
        }
        StackTraceElement last = running.get(running.size() - 1);
        int dot = resumedMethod.indexOf('.');
        String owner = resumedMethod.substring(0, dot).replace('/', '.');
        String name = resumedMethod.substring(dot + 1, resumedMethod.indexOf('('));
        return last.getClassName().equals(owner) && last.getMethodName().equals(name) ? running : null;
    }

    /**
     * The elements of {@code trace} from {@code from} down to the driver's frame ({@link DispatchFrame}), without the
     * resume entries and the method handle frames of the driver's call of one (which JDK 17 shows, later JDKs hide);
     * null when the trace holds no driver frame.
     */
    private static List<StackTraceElement> framesAboveDriver(StackTraceElement[] trace, int from) {
        List<StackTraceElement> frames = new ArrayList<>();
        for (int index = from; index < trace.length; index++) {
            StackTraceElement element = trace[index];
            if (element.getClassName().equals(DispatchFrame.class.getName())) {
                while (!frames.isEmpty() && frames.get(frames.size() - 1).getClassName().startsWith(INVOKE_PACKAGE)) {
                    frames.remove(frames.size() - 1);
                }
                return frames;
            }
            if (!element.getMethodName().equals(DispatchFrame.RESUME_ENTRY)) {
                frames.add(element);
            }
        }
        return null;
    }

    /**
     * A class of the frames on top of a carrier's stack that the thread it runs does not show: the runtime's or
     * pico-net's primitives (as the frame check skips them), or, for a pinned thread, the JDK's park.
     */
    private static boolean isParkOrRuntime(String className) {
        return CaptureSafety.isPrimitiveClassName(className) || className.equals("jdk.internal.misc.Unsafe")
                || className.equals("java.util.concurrent.locks.LockSupport");
    }

    /**
     * The stack trace of saved activations ({@link #savedActivations}), innermost first, with the source lines of
     * their call sites, as another thread sees them with {@link Thread#getStackTrace()}. Made after the lanes are
     * unlocked: finding a class's marker may load through the program's class loaders.
     */
    static StackTraceElement[] stackTraceOfSaved(Object[] outermostFirst, Task task) {
        return locations(outermostFirst, task, new HashMap<>());
    }

    /**
     * Saved activations described outermost first ({@link Frame#describeSaved}), as stack trace elements innermost
     * first; {@code markers} caches the classes' markers across calls.
     */
    private static StackTraceElement[] locations(Object[] outermostFirst, Task task, Map<String, Rewritten> markers) {
        StackTraceElement[] trace = new StackTraceElement[outermostFirst.length / 2];
        for (int index = outermostFirst.length - 2, innermost = 0; index >= 0; index -= 2, innermost++) {
            trace[innermost] = location((String) outermostFirst[index], (Integer) outermostFirst[index + 1], task,
                    markers);
        }
        return trace;
    }

    /** The source line of a resume point from a class's marker, or -1. */
    private static int line(Rewritten marker, String member, int resumePoint) {
        if (marker == null) {
            return -1;
        }
        String[] methods = marker.value();
        String[] lines = marker.lines();
        for (int index = 0; index < methods.length && index < lines.length; index++) {
            if (methods[index].equals(member)) {
                String[] points = lines[index].split(",");
                if (resumePoint < 0 || resumePoint >= points.length) {
                    return -1;
                }
                try {
                    return Integer.parseInt(points[resumePoint].trim());
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** The Rewritten marker of the class of that name, looked up through the PicoThread's class loaders. */
    private static Rewritten findMarker(String className, Task task) {
        Thread thread = task.thread;
        Object target = thread instanceof PicoThread ? PICO_THREAD_TARGET.get((PicoThread) thread) : null;
        ClassLoader[] loaders = {
            thread.getClass().getClassLoader(),
            target != null ? target.getClass().getClassLoader() : null,
            thread.getContextClassLoader(),
            ClassLoader.getSystemClassLoader()
        };
        for (ClassLoader loader : loaders) {
            if (loader == null) {
                continue;
            }
            try {
                Rewritten marker = Class.forName(className, false, loader).getAnnotation(Rewritten.class);
                if (marker != null) {
                    return marker;
                }
            } catch (ClassNotFoundException | LinkageError notThere) {
                // The next loader may know the class.
            }
        }
        return null;
    }

    /** {@code Outer.java} for {@code pkg.Outer$Inner}. */
    private static String sourceFile(String className) {
        String simpleName = className.substring(className.lastIndexOf('.') + 1);
        int nested = simpleName.indexOf('$');
        return (nested > 0 ? simpleName.substring(0, nested) : simpleName) + ".java";
    }
}
