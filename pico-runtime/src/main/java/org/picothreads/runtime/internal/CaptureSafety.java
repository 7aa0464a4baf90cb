package org.picothreads.runtime.internal;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides, before a blocking call captures the running PicoThread, whether every frame between that call
 * and the scheduler can be captured and restored. A frame that was not rewritten (a JDK callback such as
 * {@code List.forEach}, a comparator inside a sort, reflection, a class that was not transformed) would be
 * unwound by the capture and run again from its start on resume; when one is found the thread blocks in
 * place (pinned) instead.
 *
 * <p>The check walks the carrier's stack by class (see {@link #TRUST}): a frame is capturable when its
 * class carries the {@link Rewritten} marker, when it is PicoThread (whose run() only forwards to the thread's
 * Runnable), or when it is the forwarding proxy of a lambda or method reference. The frames the JVM hides are
 * walked too: the LambdaForm frames of a MethodHandle call, whose combinators may run code around their target, are
 * not capturable, so a blocking call reached through {@code invokeExact} pins. Two kinds of frames are checked by
 * method, with a second walk that resolves methods, made only when one is on the stack: the frames of a class whose
 * marker lists methods left without capture code ({@link Rewritten#notCapturable()}), and a rewritten frame that
 * called a lambda proxy, which must be stopped at one of its suspension call sites ({@link Rewritten#sites()}). The
 * walk ends at {@link DispatchFrame}, through which the scheduler runs the thread; after a lazy resume, the frames
 * below it are the activations that ran since, and only those are checked. The method handle frames of the driver's
 * own call of a resume entry, right above DispatchFrame, are the one place such frames are capturable.
 *
 * <p>Setting {@code -Dpicothreads.checkFrames=false} skips the check, for programs known to block only
 * through rewritten frames; {@code -Dpicothreads.tracePinned=true} prints the stack of the first blocking
 * call at each call site that pins because of a frame that was not rewritten.
 */
final class CaptureSafety {
    private static final boolean ENABLED = !"false".equals(System.getProperty("picothreads.checkFrames"));
    private static final boolean TRACE = Boolean.getBoolean("picothreads.tracePinned");
    /** The walker of the check by method and of the trace: frames with their methods, hidden frames included. */
    private static final StackWalker WALKER = StackWalker.getInstance(Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE,
            StackWalker.Option.SHOW_REFLECT_FRAMES, StackWalker.Option.SHOW_HIDDEN_FRAMES));
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

    /**
     * How far a class's frames are trusted: null when not at all. A class is trusted when it carries the marker with at
     * least one capturing method and the resume entry through which the runtime re-enters them (or, in the runtime, is
     * one of the marked classes whose methods only forward a call into rewritten code and return its value unchanged:
     * StreamCalls, IoCalls, SocketCalls; their frames are never saved, and a lazy resume hands the value from the
     * activation above straight to the one below), is PicoThread, or is a lambda proxy.
     */
    private static final ClassValue<ClassTrust> TRUST = new ClassValue<>() {
        @Override
        protected ClassTrust computeValue(Class<?> type) {
            if (type == PicoThreadClass.TYPE) {
                return ClassTrust.FORWARDER;
            }
            if (isLambdaProxy(type)) {
                return ClassTrust.LAMBDA_PROXY;
            }
            Rewritten rewritten = type.getAnnotation(Rewritten.class);
            if (rewritten == null || rewritten.value().length == 0
                    || !DispatchFrame.hasResumeEntry(type) && !type.getName().startsWith(RUNTIME_PACKAGE)) {
                return null;
            }
            return ClassTrust.of(rewritten);
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
        Class<?> blocker = CLASS_WALKER.walk(frames -> firstUntrustedClass(frames
                .map(StackWalker.StackFrame::getDeclaringClass)
                .dropWhile(type -> isNextToBlockingCall(type) && type != DispatchFrame.class)
                .takeWhile(type -> type != DispatchFrame.class)
                .iterator()));
        if (blocker == CheckMethods.class) {
            blocker = WALKER.walk(frames -> firstUncapturableFrame(frames
                    .dropWhile(frame -> isNextToBlockingCall(frame.getDeclaringClass())
                            && frame.getDeclaringClass() != DispatchFrame.class)
                    .takeWhile(frame -> frame.getDeclaringClass() != DispatchFrame.class)
                    .iterator()));
        }
        if (blocker == null) {
            return true;
        }
        if (TRACE) {
            trace(blocker);
        }
        return false;
    }

    /**
     * The first class that is not trusted at all; else {@link CheckMethods} when some frame must be checked by method:
     * its class lists methods left without capture code, or it called a lambda proxy; else null.
     */
    private static Class<?> firstUntrustedClass(Iterator<Class<?>> classes) {
        Class<?> answer = null;
        boolean calledProxy = false;
        Class<?> invokerBetween = null;
        while (classes.hasNext()) {
            Class<?> type = classes.next();
            ClassTrust trust = TRUST.get(type);
            if (trust == null) {
                if (!isInvoker(type)) {
                    return type;
                }
                invokerBetween = invokerBetween == null ? type : invokerBetween;
                continue;
            }
            if (invokerBetween != null) {
                return invokerBetween;
            }
            if (trust.checksMethods() || calledProxy && trust.checksSites()) {
                answer = CheckMethods.class;
            }
            calledProxy = trust == ClassTrust.LAMBDA_PROXY;
        }
        return answer;
    }

    /** The answer of {@link #firstUntrustedClass} that asks for the check by method. */
    private static final class CheckMethods {
        private CheckMethods() {
        }
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
     * The class of the first frame that cannot be captured, or null. A frame can be captured when its class is trusted
     * (see {@link #TRUST}), its method is not one that the class's marker lists as left without capture code, and, when
     * it called a lambda proxy, the call is one of the method's suspension call sites. Deciding by class rather than by
     * method is sound otherwise within one transformation: a method of a rewritten class that was not rewritten
     * cannot stand between two capturable frames, because the analysis rewrites or pins every method that calls into
     * code that can block, and the marker names the ones it could do neither for. A lambda proxy is the exception: an
     * object LambdaMetafactory made at run time reaches code the analysis did not see called there. Classes rewritten
     * in separate runs that do not see each other are another; transform a program's classes together.
     */
    private static Class<?> firstUncapturableFrame(Iterator<StackWalker.StackFrame> frames) {
        boolean calledProxy = false;
        Class<?> invokerBetween = null;
        while (frames.hasNext()) {
            StackWalker.StackFrame frame = frames.next();
            ClassTrust trust = TRUST.get(frame.getDeclaringClass());
            if (trust == null && isInvoker(frame.getDeclaringClass())) {
                invokerBetween = invokerBetween == null ? frame.getDeclaringClass() : invokerBetween;
                continue;
            }
            if (invokerBetween != null) {
                return invokerBetween;
            }
            if (trust == null || !trust.canCapture(frame.getMethodName() + frame.getDescriptor(),
                    calledProxy ? frame.getByteCodeIndex() : -1)) {
                return frame.getDeclaringClass();
            }
            calledProxy = trust == ClassTrust.LAMBDA_PROXY;
        }
        return null;
    }

    /** What a class's {@link Rewritten} marker says about its frames, for the check. */
    private static final class ClassTrust {
        /** PicoThread, whose run() only forwards to the thread's Runnable. */
        static final ClassTrust FORWARDER = new ClassTrust(Set.of(), null);
        /** A lambda proxy: its one method forwards to the implementation. */
        static final ClassTrust LAMBDA_PROXY = new ClassTrust(Set.of(), null);

        /** The methods left without capture code. */
        private final Set<String> notCapturable;
        /** The bytecode offsets of each capturing method's suspension call sites, or null when the marker has none. */
        private final Map<String, int[]> sites;

        private ClassTrust(Set<String> notCapturable, Map<String, int[]> sites) {
            this.notCapturable = notCapturable;
            this.sites = sites;
        }

        static ClassTrust of(Rewritten marker) {
            String[] methods = marker.value();
            String[] offsets = marker.sites();
            Map<String, int[]> sites = null;
            if (offsets.length == methods.length) {
                sites = new HashMap<>();
                for (int index = 0; index < methods.length; index++) {
                    sites.put(methods[index], offsets[index].isEmpty() ? new int[0]
                            : Arrays.stream(offsets[index].split(",")).mapToInt(Integer::parseInt).toArray());
                }
            }
            return new ClassTrust(Set.of(marker.notCapturable()), sites);
        }

        /** True when some method of the class is left without capture code. */
        boolean checksMethods() {
            return !notCapturable.isEmpty();
        }

        /** True when the marker gives the suspension call sites, which a frame that called a lambda proxy must be at. */
        boolean checksSites() {
            return sites != null;
        }

        /**
         * True when a frame of {@code method} can be captured, stopped at {@code offset} in a call of a lambda proxy
         * (-1 for any other call).
         */
        boolean canCapture(String method, int offset) {
            if (notCapturable.contains(method)) {
                return false;
            }
            if (offset < 0 || sites == null) {
                return true;
            }
            int[] methodSites = sites.get(method);
            return methodSites != null && Arrays.binarySearch(methodSites, offset) >= 0;
        }
    }

    /**
     * A frame of the runtime, of pico-net's primitives, or hidden (a lambda proxy or method handle adapter through
     * which the runtime calls its own code), which the check skips while it is next to the blocking call.
     */
    private static boolean isNextToBlockingCall(Class<?> type) {
        return isPrimitiveClass(type) || type.isHidden();
    }

    /**
     * A frame of the method handle machinery (java.lang.invoke, or a hidden class that is not a lambda proxy). Between
     * two capturable frames it is not capturable (a combinator may run code around its target); right above
     * {@link DispatchFrame} it is the driver's own call of a resume entry, and a lazy resume hands the value from one
     * saved activation straight to the next past it.
     */
    private static boolean isInvoker(Class<?> type) {
        return type.getName().startsWith(INVOKE_PACKAGE) || type.isHidden() && !isLambdaProxy(type);
    }

    /**
     * The forwarding proxy that LambdaMetafactory spins for a lambda or method reference: a hidden, synthetic class
     * named after the class that created it, whose one method calls the implementation directly (its frame is
     * re-entered, and forwards again, when the frame that called it is restored). A proxy that has to reach its
     * implementation through a method handle shows the handle's LambdaForm frames next to it, which are not trusted.
     */
    private static boolean isLambdaProxy(Class<?> type) {
        return type.isHidden() && type.isSynthetic() && type.getName().contains("$$Lambda");
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
