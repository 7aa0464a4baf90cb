package org.picothreads.runtime.internal;

import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Decides, before a blocking call captures the running PicoThread, whether every frame between that call
 * and the scheduler can be captured and restored. A frame that was not rewritten (a JDK callback such as
 * {@code List.forEach}, a comparator inside a sort, reflection, a class that was not transformed) would be
 * unwound by the capture and run again from its start on resume; when one is found the thread blocks in
 * place (pinned) instead.
 *
 * <p>The check walks the carrier's stack by class only (see {@link #isCapturableClass}): a frame is
 * capturable when its class carries the {@link Rewritten} marker and a resume entry, when it is PicoThread (whose
 * run() only forwards to the thread's Runnable), or when it is the forwarding proxy of a lambda or method reference.
 * The walk ends at {@link DispatchFrame}, through which the scheduler runs the thread; after a lazy resume, the
 * frames below it are the activations that ran since, and only those are checked.
 *
 * <p>Setting {@code -Dpicothreads.checkFrames=false} skips the check, for programs known to block only
 * through rewritten frames; {@code -Dpicothreads.tracePinned=true} prints the stack of the first blocking
 * call at each call site that pins because of a frame that was not rewritten.
 */
final class CaptureSafety {
    private static final boolean ENABLED = !"false".equals(System.getProperty("picothreads.checkFrames"));
    private static final boolean TRACE = Boolean.getBoolean("picothreads.tracePinned");
    private static final StackWalker WALKER = StackWalker.getInstance(
            Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_REFLECT_FRAMES));
    /**
     * The walker of the check itself: classes only. On JDK 22 and later it drops method information
     * (StackWalker.Option.DROP_METHOD_INFO, looked up by name since the runtime compiles for 17), which spares
     * the JVM from resolving every frame's method, the bulk of the check's cost.
     */
    private static final StackWalker CLASS_WALKER = classWalker();
    private static final String RUNTIME_PACKAGE = "org.picothreads.runtime.";
    /** pico-net's blocking primitives, which like the runtime's sit below the frames to check. */
    private static final String NET_PRIMITIVES_PACKAGE = "org.picothreads.net.internal.";
    private static final String PICO_THREAD = "org.picothreads.runtime.PicoThread";
    private static final String INVOKE_PACKAGE = "java.lang.invoke.";
    /** What the name of every lambda proxy class contains. */
    private static final String LAMBDA_PROXY_MARK = "$$Lambda";

    /**
     * Whether a class carries the {@link Rewritten} marker with at least one capturing method, and the resume entry
     * through which the runtime re-enters them; or, in the runtime, is one of the marked classes whose methods only
     * forward a call into rewritten code and return its value unchanged (StreamCalls, IoCalls, SocketCalls): their
     * frames are never saved, and a lazy resume hands the value from the activation above straight to the one below.
     */
    private static final ClassValue<Boolean> REWRITTEN = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            Rewritten rewritten = type.getAnnotation(Rewritten.class);
            return rewritten != null && rewritten.value().length > 0
                    && (DispatchFrame.hasResumeEntry(type) || type.getName().startsWith(RUNTIME_PACKAGE));
        }
    };

    /** Call sites already traced, so each is printed once. */
    private static final Set<String> TRACED = ConcurrentHashMap.newKeySet();

    private CaptureSafety() {
    }

    /**
     * True when the running thread can be captured here; false when a frame that was not rewritten stands
     * between the blocking call and the scheduler.
     */
    static boolean everyFrameCapturable() {
        if (!ENABLED) {
            return true;
        }
        Class<?> blocker = CLASS_WALKER.walk(CaptureSafety::firstBlocker);
        if (blocker == null) {
            return true;
        }
        if (TRACE) {
            trace(blocker);
        }
        return false;
    }

    /**
     * The class of the first frame, from the blocking call down to {@link DispatchFrame}, that cannot be captured, or
     * null. The runtime's own frames (and hidden ones) next to the blocking call are skipped; further down, the
     * frames of java.lang.invoke (method handle adapters, which may filter a value or catch an exception) are
     * capturable only where they are the driver's own call of a resume entry, right above DispatchFrame: a lazy
     * resume hands a value from one saved activation straight to the next, past whatever stood between them.
     */
    private static Class<?> firstBlocker(Stream<StackWalker.StackFrame> frames) {
        Iterator<StackWalker.StackFrame> iterator = frames.iterator();
        boolean nextToBlockingCall = true;
        Class<?> invokerBetween = null;
        while (iterator.hasNext()) {
            Class<?> type = iterator.next().getDeclaringClass();
            if (type == DispatchFrame.class) {
                return null;
            }
            if (nextToBlockingCall && (isPrimitiveClass(type) || type.isHidden())) {
                continue;
            }
            nextToBlockingCall = false;
            if (isCapturableClass(type)) {
                if (invokerBetween != null) {
                    return invokerBetween;
                }
            } else if (type.isHidden() || type.getName().startsWith(INVOKE_PACKAGE)) {
                if (invokerBetween == null) {
                    invokerBetween = type;
                }
            } else {
                return type;
            }
        }
        return null;
    }

    /**
     * A class of the runtime or of pico-net's primitives. Its frames next to the blocking call (the call itself,
     * the scheduler below it, and the runtime's blocking methods, which are written to be re-invoked from their
     * start on resume) are skipped up to the first frame to check; further up, a runtime frame must be capturable
     * like any other.
     */
    private static boolean isPrimitiveClass(Class<?> type) {
        String name = type.getName();
        return name.startsWith(RUNTIME_PACKAGE) || name.startsWith(NET_PRIMITIVES_PACKAGE);
    }

    /**
     * A class whose frames can be captured: a class rewritten by PicoThreads (or following the protocol by hand),
     * PicoThread (whose run() only forwards), or a class the JVM hides from the walk anyway. Deciding by class
     * rather than by method is sound within one transformation: a method of a rewritten class that was not
     * rewritten cannot stand between two capturable frames, because the analysis rewrites or pins every method
     * that calls into code that can block. Classes rewritten in separate runs that do not see each other are the
     * exception; transform a program's classes together.
     */
    private static boolean isCapturableClass(Class<?> type) {
        return type == PicoThreadClass.TYPE || REWRITTEN.get(type) || isLambdaProxy(type);
    }

    /**
     * A class the JVM spun for a lambda or method reference: its method only forwards to the implementation (boxing,
     * unboxing or widening the value it returns, which the continuing activation does the same way).
     */
    private static boolean isLambdaProxy(Class<?> type) {
        return type.isHidden() && type.getName().contains(LAMBDA_PROXY_MARK);
    }

    /** PicoThread's class, looked up once. */
    private static final class PicoThreadClass {
        static final Class<?> TYPE = loadPicoThread();

        private static Class<?> loadPicoThread() {
            try {
                return Class.forName(PICO_THREAD);
            } catch (ClassNotFoundException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    private static StackWalker classWalker() {
        Set<StackWalker.Option> options = new java.util.HashSet<>(Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE,
                StackWalker.Option.SHOW_REFLECT_FRAMES, StackWalker.Option.SHOW_HIDDEN_FRAMES));
        for (StackWalker.Option option : StackWalker.Option.values()) {
            if (option.name().equals("DROP_METHOD_INFO")) {
                options.add(option);
            }
        }
        return StackWalker.getInstance(options);
    }

    private static void trace(Class<?> blocker) {
        StackTraceElement caller = WALKER.walk(frames -> frames
                .dropWhile(frame -> isPrimitiveClass(frame.getDeclaringClass()))
                .findFirst().map(StackWalker.StackFrame::toStackTraceElement).orElse(null));
        String site = String.valueOf(caller);
        if (!TRACED.add(site)) {
            return;
        }
        StringBuilder text = new StringBuilder("PicoThreads: thread \"").append(ThreadCalls.currentThread().getName())
                .append("\" pinned at ").append(site).append(" because a frame of ").append(blocker.getName())
                .append(" was not rewritten\n");
        WALKER.forEach(frame -> text.append("\tat ").append(frame.toStackTraceElement()).append('\n'));
        System.err.print(text);
    }
}
