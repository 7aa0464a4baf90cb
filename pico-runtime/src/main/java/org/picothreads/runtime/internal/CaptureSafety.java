package org.picothreads.runtime.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Decides, before a blocking call captures the running PicoThread, whether every frame between that call
 * and the scheduler can be captured and restored. A frame that was not rewritten (a JDK callback such as
 * {@code List.forEach}, a comparator inside a sort, reflection, a class that was not transformed) would be
 * unwound by the capture and run again from its start on resume; when one is found the thread blocks in
 * place (pinned) instead.
 *
 * <p>One walk over the carrier's stack, from the blocking call down to {@link DispatchFrame}, through which the
 * scheduler runs the thread (after a lazy resume, the frames above it are the activations that ran since, and only
 * those are checked), judges each frame by its class and then by its method (see {@link ClassTrust}). A frame can be
 * captured when:
 * <ul>
 * <li>its class carries the {@link Rewritten} marker and a resume entry, and the frame is one of the marker's
 *     capturing methods stopped at one of that method's suspension call sites ({@link Rewritten#sites()}), or the
 *     class's resume entry called by the driver. Checking by method and call site is what makes the check sound
 *     where the analysis was blind: a call whose blocking override it never saw (an implementation rewritten
 *     separately, in another class loader, generated or loaded later; a lambda made by LambdaMetafactory at run
 *     time) is not a suspension point of its caller, and a capture through that frame would lose the caller's work
 *     or run it again. A method left without capture code ({@link Rewritten#notCapturable()}) is never one of the
 *     capturing methods;</li>
 * <li>its class is one of the runtime's classes that follow the protocol by hand (their marker gives no sites):
 *     trusted by class, as they only forward a call and hand back its value;</li>
 * <li>it is PicoThread, whose run() only forwards to the thread's Runnable, or the forwarding proxy of a lambda or
 *     method reference.</li>
 * </ul>
 * The frames the JVM hides are walked too: the LambdaForm frames of a MethodHandle call, whose combinators may run
 * code around their target, are not capturable, so a blocking call reached through {@code invokeExact} pins. The
 * method handle frames of the driver's own call of a resume entry, right above DispatchFrame, are the one place such
 * frames are capturable.
 *
 * <p>The walk ends at the first continuation it finds stopped at one of its suspension call sites: a continuation
 * (the copy of a capturing method that holds its restore code, the same name with one more, last, parameter of the
 * runtime's {@link Frame}) refuses to run unless the resume driver re-enters it as the next saved activation, through
 * its class's resume entry, or a continuation of its class enters it fresh ({@link Frame#requestFreshEntry()}), or the
 * driver enters it fresh as a new thread's first activation ({@link ThreadEntries}, through a method handle), so
 * below its frame stand only such continuations, that entry, the method handle frames of the driver's call
 * and {@link DispatchFrame}, which the walk would otherwise read and judge (the entry by its name, a native expansion)
 * on every capture after a lazy resume. The marker lists continuations among the capturing methods; a method is
 * taken for one only when the method without that parameter is listed too, and in no class whose list would make one
 * method both a continuation and a method with a continuation of its own. The verdict uses the site keys as the
 * check of a site does: a frame stopped at an offset, or a name and an offset, that only continuations have as a
 * site is a continuation's. On the loopback echo this reads 12 frames per capture instead of 16 and no method name.
 *
 * <p>What the walk reads of each frame is what makes it cheap or dear. The walker gives every frame's class and
 * bytecode index as it fills its buffer; a frame's method name costs a native expansion and a new String, and its
 * descriptor (JDK 25 parses the signature into a MethodType, a class lookup per parameter, and back) is the most
 * expensive thing the check can ask. So a frame of a rewritten class is judged by its offset alone where the marker's
 * site keys ({@link Rewritten#siteKeys()}, computed by the transformer from the written class file) say no other
 * method of the class has a call there that is not a suspension site of its own; by name and offset where no method
 * of that name has one; and by descriptor only where two methods of one name could both stand at that offset (an
 * overload, a method and its continuation), or when the marker comes from a build that wrote no keys. The resume
 * entry is recognised by its name, which the input may also give other members: a frame of that name passes only with
 * nothing below it but the method handle frames of the driver's call and {@link DispatchFrame}, and the driver calls
 * nothing through a method handle but each class's resume entry, looked up by name and exact type. The walk skips
 * the runtime's own frames next to the blocking call.
 *
 * <p>The walker makes two objects for every frame it fetches (its frame and the argument array of the reflective
 * constructor call that makes it), about 64 bytes, whether or not the check reads the frame, and a new set for each
 * further batch; for a thread's first capture this garbage is most of what the runtime allocates. So each walk asks
 * for as many frames in its first batch as the last walk read down to {@link DispatchFrame} or a continuation, through
 * a walker made for that estimate: where threads block at the same depth, one batch of exactly the frames checked.
 *
 * <p>Setting {@code -Dpicothreads.checkFrames=false} skips the check, for programs known to block only
 * through rewritten frames; {@code -Dpicothreads.tracePinned=true} prints the stack of the first blocking
 * call at each call site that pins because of a frame that cannot be captured.
 */
final class CaptureSafety {
    private static final boolean ENABLED = RuntimeSettings.checkFrames();
    private static final boolean TRACE = RuntimeSettings.tracePinned();
    /** Whether a capture spared the check walks all the same ({@link #verifyTrusted}). */
    static final boolean VERIFY_TRUSTED = ENABLED && RuntimeSettings.verifyTrustedCaptures();
    /** What the walks read: frames with their methods, hidden frames included. */
    private static final Set<StackWalker.Option> WALK_OPTIONS = Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE,
            StackWalker.Option.SHOW_REFLECT_FRAMES, StackWalker.Option.SHOW_HIDDEN_FRAMES);
    /** The frames the first walk fetches in its first batch, before any walk has counted a thread's frames. */
    private static final int FIRST_ESTIMATE = 16;
    /** The largest first batch the JDK fetches (its LARGE_BATCH_SIZE, less the one element it reserves). */
    private static final int LARGEST_ESTIMATE = 255;
    /**
     * The walkers of the check, by the number of frames their first batch fetches, each made on first use (a
     * StackWalker's fields are final, so one published by a race is whole).
     */
    private static final StackWalker[] WALKERS_BY_ESTIMATE = new StackWalker[LARGEST_ESTIMATE + 1];
    /**
     * How many frames the last walk that reached {@link DispatchFrame} or a continuation read, that frame included: the
     * next walk's first batch. Read and written without synchronization by every carrier; a stale value costs at most a
     * second batch or a few frames too many, never a frame unchecked.
     */
    private static int framesLastWalked = FIRST_ESTIMATE;
    private static final String RUNTIME_PACKAGE = "org.picothreads.runtime.";
    /** pico-net's blocking primitives, which like the runtime's sit below the frames to check. */
    private static final String NET_PRIMITIVES_PACKAGE = "org.picothreads.net.internal.";
    private static final String PICO_THREAD = "org.picothreads.runtime.PicoThread";
    private static final String INVOKE_PACKAGE = "java.lang.invoke.";
    /** The parameter the continuation of a static method takes after its method's own, in a descriptor. */
    private static final String CONTINUATION_PARAMETER = Frame.class.descriptorString();
    /** The last parameter of the continuation of an instance method, which takes the receiver first. */
    private static final String INSTANCE_CONTINUATION_PARAMETER = Continuation.class.descriptorString();

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
            if (type == PicoThreadClass.TYPE || isLambdaProxy(type)) {
                return ClassTrust.FORWARDER;
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
     * True when the running thread can be captured here; false when a frame that cannot be captured stands
     * between the blocking call and the scheduler.
     */
    static boolean everyFrameCapturable() {
        if (!ENABLED) {
            return true;
        }
        StackWalker.StackFrame blocker = walker(framesLastWalked).walk(CaptureSafety::firstUncapturableFrame);
        if (blocker == null) {
            return true;
        }
        if (TRACE) {
            trace(blocker);
        }
        return false;
    }

    /**
     * The frame check made ahead, at a runtime entry that is about to block, above the runtime's own frames that lead
     * from it to the capture; the entry marks the task when every frame is capturable, and the capture below it then
     * consumes the mark ({@code Scheduler.capturable}) instead of walking again. The walk starts at the frame that
     * calls {@link StackWalker#walk}, and the JDK fills every frame it fetches, those of the runtime that the check
     * skips included; so the entry calls it itself, as
     * <pre>
     *   if (CaptureSafety.checksAhead(task)) {
     *       task.framesCheckedAhead = CaptureSafety.walkerAhead().walk(CaptureSafety.CHECK_AHEAD) == null;
     *   }
     * </pre>
     * and the walk fetches neither the scheduler's frames between the entry and the capture nor a frame of a method
     * that would make the walk for it: 6 frames instead of 10 for a {@code Thread.sleep} at depth 1. The check is the
     * same, as those frames are the runtime's and skipped either way. There is no walk when the check is off, when
     * the task is pinned, or when its caller was restored (the capture needs none); nothing is marked when a frame
     * cannot be captured (the capture's own check walks again and counts the pin).
     *
     * <p>The entry clears {@link Task#framesCheckedAhead} in a finally block around the call that may capture, so
     * that a mark never outlives the entry that made it (a wait that ended before it began, an exception), and walks
     * only where the thread blocks unless its wait has already ended.
     */
    static boolean checksAhead(Task task) {
        return ENABLED && task.pinDepth == 0 && !task.callerRestored;
    }

    /** The walker of a check ahead ({@link #checksAhead}): its first batch is as large as the last walk read. */
    static StackWalker walkerAhead() {
        return walker(framesLastWalked);
    }

    /** The function a check ahead walks with ({@link #checksAhead}): null when every frame can be captured. */
    static final Function<Stream<StackWalker.StackFrame>, StackWalker.StackFrame> CHECK_AHEAD =
            CaptureSafety::firstUncapturableFrame;

    /**
     * Walks before a capture that the check was spared ({@code picothreads.verifyTrustedCaptures}), and throws
     * IllegalStateException naming the first frame that cannot be captured: the runtime trusted a caller, a queue,
     * a lock or a stream that it should not have.
     */
    static void verifyTrusted() {
        StackWalker.StackFrame blocker = walker(framesLastWalked).walk(CaptureSafety::firstUncapturableFrame);
        if (blocker != null) {
            throw new IllegalStateException("PicoThreads: a capture spared the frame check would go through "
                    + blocker + ", which cannot be captured");
        }
    }

    /** The walker whose first batch fetches {@code frames} frames (within the JDK's bounds). */
    private static StackWalker walker(int frames) {
        int estimate = Math.max(1, Math.min(frames, LARGEST_ESTIMATE));
        StackWalker walker = WALKERS_BY_ESTIMATE[estimate];
        if (walker == null) {
            walker = StackWalker.getInstance(WALK_OPTIONS, estimate);
            WALKERS_BY_ESTIMATE[estimate] = walker;
        }
        return walker;
    }

    /**
     * Records how many frames a walk read down to {@link DispatchFrame} or a continuation, for the next walk's first
     * batch.
     */
    private static void walked(int frames) {
        if (framesLastWalked != frames) {
            framesLastWalked = frames;
        }
    }

    /**
     * The first frame above {@link DispatchFrame} that cannot be captured, or null, skipping the frames next to the
     * blocking call: a frame whose class is not trusted and is not the method handle machinery, method handle frames
     * between two trusted frames, a trusted frame that {@link ClassTrust} refuses by method, or any frame below a
     * resume entry (which only the driver calls, right above DispatchFrame). The walk ends early, with null, at a
     * continuation stopped at one of its suspension call sites: below it stand only continuations of its class that
     * entered it fresh, its class's resume entry and the driver.
     */
    private static StackWalker.StackFrame firstUncapturableFrame(Stream<StackWalker.StackFrame> stack) {
        Iterator<StackWalker.StackFrame> frames = stack.iterator();
        StackWalker.StackFrame frame = null;
        int read = 0;
        while (frames.hasNext()) {
            frame = frames.next();
            read++;
            Class<?> type = frame.getDeclaringClass();
            if (type == DispatchFrame.class) {
                walked(read);
                return null;
            }
            if (!isNextToBlockingCall(type)) {
                break;
            }
            frame = null;
        }
        StackWalker.StackFrame invokerBetween = null;
        boolean belowResumeEntry = false;
        for (; frame != null; frame = frames.hasNext() ? frames.next() : null, read++) {
            Class<?> type = frame.getDeclaringClass();
            if (type == DispatchFrame.class) {
                walked(read);
                return null;
            }
            ClassTrust trust = TRUST.get(type);
            if (trust == null && isInvoker(type)) {
                invokerBetween = invokerBetween == null ? frame : invokerBetween;
                continue;
            }
            if (invokerBetween != null || belowResumeEntry) {
                return invokerBetween != null ? invokerBetween : frame;
            }
            int verdict = trust == null ? ClassTrust.NOT_CAPTURABLE : trust.judge(frame);
            if (verdict == ClassTrust.NOT_CAPTURABLE) {
                return frame;
            }
            if (verdict == ClassTrust.CONTINUATION) {
                walked(read);
                return null;
            }
            belowResumeEntry = verdict == ClassTrust.RESUME_ENTRY;
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
        return isPrimitiveClassName(type.getName());
    }

    /** {@link #isPrimitiveClass} by the class's binary name, for stack traces (a thread dump's). */
    static boolean isPrimitiveClassName(String name) {
        return name.startsWith(RUNTIME_PACKAGE) || name.startsWith(NET_PRIMITIVES_PACKAGE);
    }

    /**
     * What a class's {@link Rewritten} marker says about its frames, for the check: by method and call site when the
     * marker gives the suspension call sites (classes the transformer rewrote), by class otherwise (PicoThread, lambda
     * proxies, the runtime's classes that follow the protocol by hand).
     *
     * <p>A frame of a rewritten class is judged by what the marker's site keys ({@link Rewritten#siteKeys()}) say is
     * enough to identify its call site, reading as little of the frame as that allows: its bytecode offset, which the
     * stack walk gives without resolving the frame's method; then its method's name, which the JDK expands natively
     * into a new String; and only where two methods of that name could both stand at that offset, its descriptor,
     * which JDK 25 answers by parsing the signature into a MethodType (a class lookup per parameter) and back.
     */
    private static final class ClassTrust {
        /** The verdict on a frame that cannot be captured. */
        static final int NOT_CAPTURABLE = 0;
        /** The verdict on a frame that can be captured: trusted by class, or stopped at a suspension call site. */
        static final int CAPTURABLE = 1;
        /** The verdict on the class's resume entry, below which only the driver may stand. */
        static final int RESUME_ENTRY = 2;
        /**
         * The verdict on a continuation stopped at one of its suspension call sites: a restored activation (or one a
         * restored activation of its class entered fresh), below which stand only such activations, its class's resume
         * entry and the driver, so the frames below need no check.
         */
        static final int CONTINUATION = 3;

        /** PicoThread, whose run() only forwards to the thread's Runnable, or a lambda proxy, which forwards too. */
        static final ClassTrust FORWARDER = new ClassTrust(Set.of(), null, new int[0], new boolean[0]);

        /** The methods left without capture code. */
        private final Set<String> notCapturable;
        /**
         * The capturing methods and their suspension call sites, by method name; null when the marker gives no sites
         * and the class's frames are trusted by class.
         */
        private final Map<String, NamedSites> capturingMethods;
        /**
         * The offsets, ascending, at which a frame of this class, whatever its method, is stopped at a suspension call
         * site: no method of the class has an instruction there through which other code runs that is not a
         * suspension site of its own.
         */
        private final int[] sitesByOffset;
        /** At the same index as {@link #sitesByOffset}: true when only continuations have a site at that offset. */
        private final boolean[] continuationsByOffset;

        private ClassTrust(Set<String> notCapturable, Map<String, NamedSites> capturingMethods, int[] sitesByOffset,
                boolean[] continuationsByOffset) {
            this.notCapturable = notCapturable;
            this.capturingMethods = capturingMethods;
            this.sitesByOffset = sitesByOffset;
            this.continuationsByOffset = continuationsByOffset;
        }

        static ClassTrust of(Rewritten marker) {
            String[] methods = marker.value();
            String[] offsets = marker.sites();
            if (offsets.length != methods.length) {
                return new ClassTrust(Set.of(marker.notCapturable()), null, new int[0], new boolean[0]);
            }
            String[] keys = marker.siteKeys();
            Set<String> continuations = continuations(methods);
            Map<String, List<CapturingMethod>> byName = new HashMap<>();
            // Each site offset with whether every method having it as a site has it keyed by offset, or by name.
            Map<Integer, Boolean> byOffset = new HashMap<>();
            // Each site offset with whether every method having it as a site is a continuation.
            Map<Integer, Boolean> continuationOffsets = new HashMap<>();
            for (int index = 0; index < methods.length; index++) {
                boolean continuation = continuations.contains(methods[index]);
                int parenthesis = methods[index].indexOf('(');
                String[] sites = offsets[index].isEmpty() ? new String[0] : offsets[index].split(",");
                String key = keys.length == methods.length && keys[index].length() == sites.length ? keys[index]
                        : "d".repeat(sites.length);
                int[] siteOffsets = new int[sites.length];
                char[] siteKeys = new char[sites.length];
                for (int site = 0; site < sites.length; site++) {
                    // in ascending order, as the transformer writes them; a site out of order is moved back
                    int at = site;
                    int offset = Integer.parseInt(sites[site]);
                    for (; at > 0 && siteOffsets[at - 1] > offset; at--) {
                        siteOffsets[at] = siteOffsets[at - 1];
                        siteKeys[at] = siteKeys[at - 1];
                    }
                    siteOffsets[at] = offset;
                    siteKeys[at] = key.charAt(site);
                    andInto(byOffset, offset, key.charAt(site) == 'o');
                    andInto(continuationOffsets, offset, continuation);
                }
                String name = methods[index].substring(0, parenthesis);
                List<CapturingMethod> ofName = byName.get(name);
                if (ofName == null) {
                    ofName = new ArrayList<>();
                    byName.put(name, ofName);
                }
                ofName.add(new CapturingMethod(methods[index].substring(parenthesis), siteOffsets, siteKeys,
                        continuation));
            }
            Map<String, NamedSites> named = new HashMap<>();
            for (Map.Entry<String, List<CapturingMethod>> ofName : byName.entrySet()) {
                named.put(ofName.getKey(), NamedSites.of(ofName.getValue()));
            }
            int[] sitesByOffset = sortedKeys(byOffset, true);
            boolean[] continuationsByOffset = new boolean[sitesByOffset.length];
            for (int index = 0; index < sitesByOffset.length; index++) {
                continuationsByOffset[index] = continuationOffsets.get(sitesByOffset[index]);
            }
            return new ClassTrust(Set.of(marker.notCapturable()), Map.copyOf(named), sitesByOffset,
                    continuationsByOffset);
        }

        /**
         * The continuations among a marker's capturing methods ({@code name+descriptor}): each method whose method
         * ({@link #methodOfContinuation}) is listed too. None when such a method is itself a continuation of that kind,
         * which no class the transformer wrote declares: a method the input declared with such parameters is never
         * taken for one.
         */
        static Set<String> continuations(String[] methods) {
            Set<String> listed = new HashSet<>(Arrays.asList(methods));
            Set<String> continuations = new HashSet<>();
            for (String method : methods) {
                String of = methodOfContinuation(method);
                if (of != null && listed.contains(of)) {
                    continuations.add(method);
                }
            }
            for (String continuation : continuations) {
                if (continuations.contains(methodOfContinuation(continuation))) {
                    return Set.of();
                }
            }
            return continuations;
        }

        /**
         * The method ({@code name+descriptor}) whose continuation {@code method} would be, or null when it has no
         * continuation's parameter: a static method's continuation adds a {@link Frame} after the method's parameters;
         * an instance method's is static, takes the receiver first and adds a {@link Continuation} after them.
         */
        static String methodOfContinuation(String method) {
            int open = method.indexOf('(');
            int close = method.lastIndexOf(')');
            if (open < 0 || close < open) {
                return null;
            }
            String parameters = method.substring(open + 1, close);
            if (parameters.endsWith(CONTINUATION_PARAMETER)) {
                return method.substring(0, open + 1)
                        + parameters.substring(0, parameters.length() - CONTINUATION_PARAMETER.length())
                        + method.substring(close);
            }
            int receiverEnd = parameters.indexOf(';') + 1;
            int end = parameters.length() - INSTANCE_CONTINUATION_PARAMETER.length();
            if (parameters.endsWith(INSTANCE_CONTINUATION_PARAMETER) && parameters.startsWith("L")
                    && receiverEnd <= end) {
                return method.substring(0, open + 1) + parameters.substring(receiverEnd, end) + method.substring(close);
            }
            return null;
        }

        /**
         * Whether {@code frame}, of this class, can be captured: trusted by class, or a capturing method stopped at
         * one of its suspension call sites, or the class's resume entry.
         */
        int judge(StackWalker.StackFrame frame) {
            if (capturingMethods == null) {
                return notCapturable.isEmpty()
                        || !notCapturable.contains(frame.getMethodName().concat(frame.getDescriptor())) ? CAPTURABLE
                        : NOT_CAPTURABLE;
            }
            int offset = frame.getByteCodeIndex();
            int byOffset = Arrays.binarySearch(sitesByOffset, offset);
            if (byOffset >= 0) {
                return continuationsByOffset[byOffset] ? CONTINUATION : CAPTURABLE;
            }
            String name = frame.getMethodName();
            NamedSites named = capturingMethods.get(name);
            int site = named == null ? -1 : Arrays.binarySearch(named.offsets, offset);
            if (site >= 0) {
                if (named.byName[site]) {
                    return named.continuations[site] ? CONTINUATION : CAPTURABLE;
                }
                return named.atSite(frame.getDescriptor(), offset);
            }
            // The name alone, though the input may declare other members with it: the walk accepts a resume entry
            // only when nothing but the method handle frames of the driver's call stands below it, and the driver
            // calls nothing through a method handle but the one resume entry of the exact type.
            return name.equals(DispatchFrame.RESUME_ENTRY) ? RESUME_ENTRY : NOT_CAPTURABLE;
        }
    }

    /**
     * Sets {@code offset}'s flag in {@code flags} to {@code flag} the first time, and to the logical and of the two
     * after that. Written out, like the rest of the marker's reading, without lambdas or streams: every class they
     * would spin or load is start-up work for each program's first capture.
     */
    private static void andInto(Map<Integer, Boolean> flags, int offset, boolean flag) {
        Boolean earlier = flags.get(offset);
        flags.put(offset, earlier == null ? flag : earlier && flag);
    }

    /** The offsets in {@code flags}, ascending: all of them, or only those whose flag is true. */
    private static int[] sortedKeys(Map<Integer, Boolean> flags, boolean onlySet) {
        int[] keys = new int[flags.size()];
        int count = 0;
        for (Map.Entry<Integer, Boolean> entry : flags.entrySet()) {
            if (!onlySet || entry.getValue()) {
                // an insertion sort, once per class: Arrays.sort would spin lambdas of its own at the first capture
                int offset = entry.getKey();
                int at = count++;
                for (; at > 0 && keys[at - 1] > offset; at--) {
                    keys[at] = keys[at - 1];
                }
                keys[at] = offset;
            }
        }
        return Arrays.copyOf(keys, count);
    }

    /**
     * The capturing methods of one name: the union of their suspension call sites, ascending, with whether the name
     * and the offset identify each as a suspension site, and each method's own sites for the others.
     */
    private static final class NamedSites {
        /** Every suspension site offset of the methods of this name, ascending. */
        final int[] offsets;
        /** At the same index as {@link #offsets}: true when a frame of this name stopped there is at a site. */
        final boolean[] byName;
        /** At the same index as {@link #offsets}: true when only continuations of this name have a site there. */
        final boolean[] continuations;
        /** The methods of this name. */
        final CapturingMethod[] methods;

        private NamedSites(int[] offsets, boolean[] byName, boolean[] continuations, CapturingMethod[] methods) {
            this.offsets = offsets;
            this.byName = byName;
            this.continuations = continuations;
            this.methods = methods;
        }

        static NamedSites of(List<CapturingMethod> methods) {
            Map<Integer, Boolean> byName = new HashMap<>();
            Map<Integer, Boolean> continuations = new HashMap<>();
            for (CapturingMethod method : methods) {
                for (int site = 0; site < method.sites.length; site++) {
                    andInto(byName, method.sites[site], method.keys[site] != 'd');
                    andInto(continuations, method.sites[site], method.continuation);
                }
            }
            int[] offsets = sortedKeys(byName, false);
            boolean[] identified = new boolean[offsets.length];
            boolean[] onlyContinuations = new boolean[offsets.length];
            for (int index = 0; index < offsets.length; index++) {
                identified[index] = byName.get(offsets[index]);
                onlyContinuations[index] = continuations.get(offsets[index]);
            }
            return new NamedSites(offsets, identified, onlyContinuations, methods.toArray(new CapturingMethod[0]));
        }

        /**
         * The verdict on a frame of the method of this name with {@code descriptor} stopped at {@code offset}:
         * {@link ClassTrust#CONTINUATION} or {@link ClassTrust#CAPTURABLE} when it has a suspension call site there.
         */
        int atSite(String descriptor, int offset) {
            for (CapturingMethod method : methods) {
                if (method.descriptor.equals(descriptor)) {
                    if (Arrays.binarySearch(method.sites, offset) < 0) {
                        return ClassTrust.NOT_CAPTURABLE;
                    }
                    return method.continuation ? ClassTrust.CONTINUATION : ClassTrust.CAPTURABLE;
                }
            }
            return ClassTrust.NOT_CAPTURABLE;
        }
    }

    /**
     * A capturing method's descriptor, the bytecode offsets of its suspension call sites, ascending, at the same
     * index the key of each ({@link Rewritten#siteKeys()}), and whether it is a continuation.
     */
    private record CapturingMethod(String descriptor, int[] sites, char[] keys, boolean continuation) {
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
    static boolean isLambdaProxy(Class<?> type) {
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

    private static void trace(StackWalker.StackFrame blocker) {
        StackTraceElement caller = walker(FIRST_ESTIMATE).walk(frames -> frames
                .dropWhile(frame -> isPrimitiveClass(frame.getDeclaringClass()))
                .findFirst().map(StackWalker.StackFrame::toStackTraceElement).orElse(null));
        String site = String.valueOf(caller);
        if (!TRACED.add(site)) {
            return;
        }
        StringBuilder text = new StringBuilder("PicoThreads: thread \"").append(ThreadCalls.currentThread().getName())
                .append("\" pinned at ").append(site).append(" because the frame ").append(blocker.toStackTraceElement())
                .append(TRUST.get(blocker.getDeclaringClass()) == null ? " was not rewritten\n"
                        : " is not stopped at a suspension call site of a capturing method\n");
        walker(FIRST_ESTIMATE).forEach(frame -> text.append("\tat ").append(frame.toStackTraceElement()).append('\n'));
        System.err.print(text);
    }
}
