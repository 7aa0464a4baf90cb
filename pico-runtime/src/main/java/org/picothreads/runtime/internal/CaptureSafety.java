package org.picothreads.runtime.internal;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.HashSet;
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
 * <p>The check walks the carrier's stack with a {@link StackWalker}: a frame is capturable when its method
 * is listed in its class's {@link Rewritten} annotation, when it is {@code PicoThread.run()} (which only
 * forwards to the thread's Runnable), or when the JVM hides it (the forwarding proxies of lambdas and
 * method references). The walk ends at the scheduler's dispatch of the thread.
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
    private static final String RUNTIME_PACKAGE = "org.picothreads.runtime.";
    /** pico-net's blocking primitives, which like the runtime's sit below the frames to check. */
    private static final String NET_PRIMITIVES_PACKAGE = "org.picothreads.net.internal.";
    private static final String PICO_THREAD = "org.picothreads.runtime.PicoThread";
    private static final String SCHEDULER = Scheduler.class.getName();

    private static final ClassValue<RewrittenMethods> REWRITTEN = new ClassValue<>() {
        @Override
        protected RewrittenMethods computeValue(Class<?> type) {
            return RewrittenMethods.of(type);
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
        StackWalker.StackFrame blocker = WALKER.walk(frames -> frames
                .dropWhile(frame -> isPrimitiveFrame(frame) && !isDispatch(frame))
                .takeWhile(frame -> !frame.getClassName().equals(SCHEDULER))
                .filter(frame -> !capturable(frame))
                .findFirst()
                .orElse(null));
        if (blocker == null) {
            return true;
        }
        if (TRACE) {
            trace(blocker);
        }
        return false;
    }

    /**
     * The scheduler's call of a thread's run(), where the walk ends; the runtime frames above the blocking call are
     * skipped only up to it, so that a thread whose frames are all the runtime's (an executor's worker) is checked
     * too.
     */
    /** A frame of the runtime or of pico-net's primitives: the blocking call itself, below the frames to check. */
    private static boolean isPrimitiveFrame(StackWalker.StackFrame frame) {
        String name = frame.getClassName();
        return name.startsWith(RUNTIME_PACKAGE) || name.startsWith(NET_PRIMITIVES_PACKAGE);
    }

    private static boolean isDispatch(StackWalker.StackFrame frame) {
        return frame.getClassName().equals(SCHEDULER) && frame.getMethodName().equals("dispatch");
    }

    private static boolean capturable(StackWalker.StackFrame frame) {
        Class<?> type = frame.getDeclaringClass();
        if (type.getName().equals(PICO_THREAD)) {
            return frame.getMethodName().equals("run");
        }
        return REWRITTEN.get(type).contains(frame);
    }

    private static void trace(StackWalker.StackFrame blocker) {
        StackTraceElement caller = WALKER.walk(frames -> frames
                .dropWhile(frame -> isPrimitiveFrame(frame))
                .findFirst().map(StackWalker.StackFrame::toStackTraceElement).orElse(null));
        String site = String.valueOf(caller);
        if (!TRACED.add(site)) {
            return;
        }
        StringBuilder text = new StringBuilder("PicoThreads: thread \"").append(ThreadCalls.currentThread().getName())
                .append("\" pinned at ").append(site).append(" because ").append(blocker.toStackTraceElement())
                .append(" was not rewritten\n");
        WALKER.forEach(frame -> text.append("\tat ").append(frame.toStackTraceElement()).append('\n'));
        System.err.print(text);
    }

    /** The methods of one class that rewritten code can capture, from its {@link Rewritten} annotation. */
    private static final class RewrittenMethods {
        private static final RewrittenMethods NONE = new RewrittenMethods(Map.of());

        /** For each method name: null when every overload is rewritten, else the rewritten descriptors. */
        private final Map<String, Set<String>> descriptorsByName;

        private RewrittenMethods(Map<String, Set<String>> descriptorsByName) {
            this.descriptorsByName = descriptorsByName;
        }

        static RewrittenMethods of(Class<?> type) {
            Rewritten rewritten = type.getAnnotation(Rewritten.class);
            if (rewritten == null || rewritten.value().length == 0) {
                return NONE;
            }
            Map<String, Set<String>> byName = new HashMap<>();
            for (String method : rewritten.value()) {
                int parenthesis = method.indexOf('(');
                byName.computeIfAbsent(method.substring(0, parenthesis), name -> new HashSet<>())
                        .add(method.substring(parenthesis));
            }
            Map<String, Integer> overloads = new HashMap<>();
            for (Method method : type.getDeclaredMethods()) {
                overloads.merge(method.getName(), 1, Integer::sum);
            }
            Map<String, Set<String>> result = new HashMap<>();
            byName.forEach((name, descriptors) -> result.put(name,
                    descriptors.size() >= overloads.getOrDefault(name, 0) ? null : descriptors));
            return new RewrittenMethods(result);
        }

        boolean contains(StackWalker.StackFrame frame) {
            String name = frame.getMethodName();
            if (!descriptorsByName.containsKey(name)) {
                return false;
            }
            Set<String> descriptors = descriptorsByName.get(name);
            return descriptors == null || descriptors.contains(frame.getDescriptor());
        }
    }
}
