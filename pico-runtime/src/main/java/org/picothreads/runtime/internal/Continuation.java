package org.picothreads.runtime.internal;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The calls that rewritten code makes into the runtime to capture and restore its frames, and the hint that the
 * runtime's hand-written classes test on entry. A rewritten method tests nothing on entry (a resume enters its
 * continuation, the copy that holds the restore blocks), so nothing here runs on its normal path.
 *
 * <pre>
 * hand-written entry:  if (Continuation.restoring() != 0) { Frame f = resume;   (f: the thread's saved stack)
 *                                                    if (f != null) jump to restore block f.resumePoint() }
 * suspension call site: spill the operand stack to locals; reload it; invoke      (covered by the handler)
 * capture handler:      Frame f = capture(this, site, counts);                    (linked to Owner and KEY)
 *                       f.pushX(live value)...; if (f.savesArguments()) f.pushX(argument)...; throw the caught Capture
 * restore block 2k:     x = f.popX()...; goto the reload before invoke k           (the innermost: invoke again)
 * restore block 2k+1:   x = f.popX()...; the values under the arguments; Continuation.resultX(); goto after invoke k
 * </pre>
 *
 * A resume re-enters only the innermost saved activation ({@link DispatchFrame} calls its class's resume entry,
 * which calls the method with default arguments); when it returns, the entry hands its value to
 * {@link #returned(long, char)} or {@link #returnedObject(Object)} and the next saved activation continues after
 * its call site with that value, or with the exception it threw raised there.
 *
 * <p>Only the classes the transformer rewrote reach {@code resume} and {@code capture}, and each only for its own
 * methods ({@link ProtocolAccess}): rewritten code links them with invokedynamic ({@link #link}), whose bootstrap
 * binds the method's key and class as constants once the calling class is found to carry the marker listing that
 * method; a class file too old for invokedynamic (before Java 7) passes its own {@code MethodHandles.lookup()} to
 * {@link #resumeChecked} and {@link #captureChecked}, as the runtime's classes that follow the protocol by hand do.
 * So a class can neither read nor save activations of another class's methods, nor name another class's resume
 * entry. The hint is private and read through {@link #restoring()}; the saved stack ({@link Frame}) is handed to no
 * one else.
 *
 * <p>A blocking primitive in the runtime suspends by calling {@link #suspend()}, and when it is re-invoked
 * during a restore it learns so from {@link #resumingPrimitive()}.
 */
public final class Continuation {
    /** Why a hand-over or a take-over of an outcome between lazily resumed activations is refused. */
    private static final String HAND_OVER = "only a resume entry, on the PicoThread the runtime resumes, hands over"
            + " the outcome of the method it re-entered";
    private static final String TAKE_OVER = "only a rewritten activation that the runtime resumes after a call, on its"
            + " PicoThread, takes the outcome of that call";
    /** {@link #resume(String)} and {@link #capture(Object, SavedMethod, int, long)}, which {@link #link} binds. */
    private static final MethodHandle RESUME;
    private static final MethodHandle CAPTURE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RESUME = lookup.findStatic(Continuation.class, "resume", MethodType.methodType(Frame.class, String.class));
            CAPTURE = lookup.findStatic(Continuation.class, "capture", MethodType.methodType(Frame.class,
                    Object.class, SavedMethod.class, int.class, long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Continuation() {
    }

    /**
     * The restoring hint, which the runtime's hand-written classes test on entry: non-zero when the calling thread is a
     * carrier restoring a thread. Read from the carrier itself (the current thread, a class test and a field of its
     * own), not from a count shared by the carriers: every carrier would write such a count twice per restore, and
     * each park read it, so that on several carriers its cache line moved between the cores at every suspension.
     */
    public static int restoring() {
        Carrier carrier = Carrier.here();
        return carrier != null && carrier.restoring ? 1 : 0;
    }

    /**
     * The bootstrap of the invokedynamic instructions through which rewritten code reaches {@code resume} (type
     * {@code ()Frame}) and {@code capture} (type {@code (Object, int, long)Frame}: receiver, site, counts) for one of
     * its methods: returns the entry bound to {@code method} (and, for a capture, to the calling class, whose resume
     * entry re-enters the activation), once {@code caller} is found to be the class's own lookup, the class to carry
     * the marker, and the marker to list the method. Anything else gets an {@link IllegalCallerException} (wrapped by
     * the JVM in a BootstrapMethodError) and changes nothing.
     *
     * @param entry  {@code "resume"} or {@code "capture"}
     * @param method the key of the calling method, {@code owner.name+descriptor}
     */
    public static CallSite link(MethodHandles.Lookup caller, String entry, MethodType type, String method) {
        ProtocolAccess.check(caller, method, entry);
        MethodHandle bound = switch (entry) {
            case "resume" -> MethodHandles.insertArguments(RESUME, 0, method);
            case "capture" -> MethodHandles.insertArguments(CAPTURE, 1,
                    SavedMethod.of(caller.lookupClass(), method));
            default -> throw new IllegalCallerException("PicoThreads: no entry point " + entry + " to link");
        };
        if (!bound.type().equals(type)) {
            throw new IllegalCallerException("PicoThreads: " + entry + " is linked as " + bound.type() + ", not " + type);
        }
        return new ConstantCallSite(bound);
    }

    /**
     * {@link #resume(String)} for a class file too old for invokedynamic, or a class that follows the protocol by
     * hand: {@code caller} must be the calling class's own lookup ({@code MethodHandles.lookup()}), and the class must
     * carry the marker listing {@code method}; otherwise an {@link IllegalCallerException}, and nothing changes.
     */
    public static Frame resumeChecked(String method, MethodHandles.Lookup caller) {
        ProtocolAccess.check(caller, method, "resume");
        return resume(method);
    }

    /**
     * {@link #capture(Object, SavedMethod, int, long)} for a class file too old for invokedynamic, or a class that
     * follows the protocol by hand, checked as {@link #resumeChecked} is; the activation's class is the lookup's. The
     * key comes after the counts so that old rewritten code pushes it, and its lookup, right before the call.
     */
    public static Frame captureChecked(Object receiver, int site, long counts, String method,
            MethodHandles.Lookup caller) {
        ProtocolAccess.check(caller, method, "capture");
        return capture(receiver, SavedMethod.of(caller.lookupClass(), method), site, counts);
    }

    /**
     * Called at entry of a continuation, and of a hand-written method when {@link #restoring} is set: returns the
     * frame this activation must restore, or null when the caller is not the carrier re-entering a thread (a
     * hand-written method then runs normally; a continuation refuses the call, see
     * {@link ResumeErrors#continuationRefused}). Each call takes the next saved activation off the thread's saved
     * stack, so an activation is restored at most once. Outside a restore, a continuation that a restored activation
     * of its class entered fresh ({@link Frame#requestFreshEntry()}) gets the frame with resume point -1.
     *
     * @param method the rewritten method's key, {@code owner.name+descriptor}, as an interned constant
     */
    private static Frame resume(String method) {
        Carrier carrier = Carrier.here();
        if (carrier == null || !carrier.restoring) {
            // A continuation entered fresh by a restored activation of its class runs from its start (resume point -1)
            return carrier != null && carrier.current != null && carrier.frame.takeFreshEntry() ? carrier.frame : null;
        }
        Task task = carrier.current;
        Frame frame = carrier.frame;
        if (frame.task() != task || !frame.beginRestore(method)) {
            String next = frame.task() != task ? null : frame.nextMethod();
            endRestoring(carrier);
            throw new IllegalStateException(next == null
                    ? "PicoThreads: " + method + " was entered while restoring, but every saved frame of " + task
                            + " was already restored"
                    : "PicoThreads: restoring " + task + " entered " + method + " but the next saved frame belongs to "
                            + next + "; a frame that was not rewritten ran again between them");
        }
        if ((frame.resumePoint() & 1) != 0) {
            // It continues after its call: from here on it runs, and the methods it calls run, normally.
            endRestoring(carrier);
        }
        return frame;
    }

    /**
     * Called by a capture handler: appends a saved activation for the method that caught the signal, outside the
     * ones this capture saved so far, and returns the carrier's frame for the handler to push its live values into.
     *
     * @param receiver the activation's {@code this}, null in a static method
     * @param method   the method, with its class, whose resume entry re-enters it, and its key
     * @param site     the call site (16 bits), the method's index in its class (15 bits above), and
     *                 {@code 1 << 31} when JVM monitors are held there
     * @param counts   the references and primitives the handler saves, then those of the call's arguments, 16 bits
     *                 each from the highest
     */
    private static Frame capture(Object receiver, SavedMethod method, int site, long counts) {
        Carrier carrier = Carrier.here();
        if (carrier == null || !carrier.frame.capturing()) {
            throw refused("capture", "only a capture handler, on the PicoThread being captured, saves an activation");
        }
        Frame frame = carrier.frame;
        frame.beginCapture(receiver, method, site, counts);
        return frame;
    }

    /**
     * Called by a blocking primitive, after it has arranged to be woken, to suspend the running thread:
     * returns the signal for the primitive to throw.
     */
    static Capture suspend() {
        Carrier carrier = Carrier.here();
        carrier.frame.beginCaptureBlock();
        Monitors.holderSuspending(carrier.current);
        return Capture.SIGNAL;
    }

    /**
     * True when a blocking primitive is being re-invoked at the bottom of a restore, as {@link #resumingPrimitive()}
     * answers, but without ending the restore: for an entry that reads no argument when re-invoked (the transformer
     * passes it zeros and nulls) and so must learn that before it reads them, then hands the re-invocation on to the
     * primitive that completes the wait.
     */
    public static boolean reinvoking() {
        Carrier carrier = Carrier.here();
        return carrier != null && carrier.restoring;
    }

    /**
     * Called first by every blocking primitive: true when the primitive is being re-invoked at the bottom
     * of a restore, in which case the restore is over and the primitive completes instead of blocking.
     */
    public static boolean resumingPrimitive() {
        Carrier carrier = Carrier.here();
        if (carrier == null || !carrier.restoring) {
            return false;
        }
        endRestoring(carrier);
        holderRestored(carrier.current, carrier.frame);
        return true;
    }

    /**
     * Stops counting the task as a suspended monitor holder once no saved activation is left that must take a JVM
     * monitor again (the ones still saved give theirs back only when they continue).
     */
    private static void holderRestored(Task task, Frame frame) {
        if (task.suspendedHolder && !frame.savedActivationsHoldMonitors()) {
            Monitors.holderResuming(task);
        }
    }

    /**
     * Called first by every resume entry: refuses, changing nothing, a call that is not the runtime re-entering a
     * saved activation (the entry would otherwise run its method with default arguments).
     */
    public static void resumeEntryCalled() {
        Carrier carrier = Carrier.here();
        if (carrier == null || !carrier.restoring) {
            throw refused("resumeEntryCalled", "only the runtime calls a resume entry, to re-enter a saved activation");
        }
    }

    /**
     * Called by a resume entry when the continuation it re-entered returned normally with a primitive value: true
     * when the continuation was captured again instead (its capture handler saved it and returned a default value, so
     * that the signal did not cross into the entry), else hands the value over and answers false.
     */
    public static boolean returnedUnlessCaptured(long bits, char kind) {
        Frame frame = resumedThreadsFrame("returnedUnlessCaptured", HAND_OVER);
        if (frame.capturing()) {
            return true;
        }
        frame.returned(kind, bits, null);
        return false;
    }

    /** Like {@link #returnedUnlessCaptured(long, char)} for a continuation that returns a reference. */
    public static boolean returnedObjectUnlessCaptured(Object value) {
        Frame frame = resumedThreadsFrame("returnedObjectUnlessCaptured", HAND_OVER);
        if (frame.capturing()) {
            return true;
        }
        frame.returned(Frame.REFERENCE, 0, value);
        return false;
    }

    /**
     * Like {@link #returnedUnlessCaptured(long, char)} for a continuation of a void method: true when it was captured
     * again, false when it returned (the driver then hands nothing over).
     */
    public static boolean returnedNothingUnlessCaptured() {
        return resumedThreadsFrame("returnedNothingUnlessCaptured", HAND_OVER).capturing();
    }

    /**
     * Called by a resume entry when the method it re-entered returned normally with a primitive value (classes
     * rewritten by builds whose continuations throw the capture signal into the entry).
     */
    public static void returned(long bits, char kind) {
        resumedThreadsFrame("returned", HAND_OVER).returned(kind, bits, null);
    }

    /** Called by a resume entry when the method it re-entered returned normally with a reference (older builds). */
    public static void returnedObject(Object value) {
        resumedThreadsFrame("returnedObject", HAND_OVER).returned(Frame.REFERENCE, 0, value);
    }

    /**
     * The outcome of the call an activation continues after, taken from the register: throws what the activation
     * above it threw, else gives nothing (the value, if any, is dropped).
     */
    public static void resultVoid() {
        result("resultVoid").consumeResult();
    }

    /** Like {@link #resultVoid()} for a call of an {@code int}-like type: the value, converted as a lambda would. */
    public static int resultInt() {
        Frame frame = result("resultInt");
        char kind = frame.resultKind();
        if (kind == Frame.REFERENCE) {
            Object value = frame.takeResultReference();
            if (value instanceof Boolean flag) {
                return flag ? 1 : 0;
            }
            if (value instanceof Character character) {
                return character;
            }
            if (value instanceof Byte || value instanceof Short) {
                return ((Number) value).intValue();
            }
            return (Integer) value;
        }
        frame.consumeResult();
        return (int) frame.resultBits();
    }

    /** Like {@link #resultInt()} for a call of type {@code long}. */
    public static long resultLong() {
        Frame frame = result("resultLong");
        char kind = frame.resultKind();
        if (kind == Frame.REFERENCE) {
            Object value = frame.takeResultReference();
            if (value instanceof Character character) {
                return character;
            }
            if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
                return ((Number) value).longValue();
            }
            return (Long) value;
        }
        frame.consumeResult();
        return switch (kind) {
            case 'F' -> (long) Float.intBitsToFloat((int) frame.resultBits());
            case 'D' -> (long) Double.longBitsToDouble(frame.resultBits());
            case 'J' -> frame.resultBits();
            default -> (int) frame.resultBits();
        };
    }

    /** Like {@link #resultInt()} for a call of type {@code float}. */
    public static float resultFloat() {
        Frame frame = result("resultFloat");
        char kind = frame.resultKind();
        if (kind == Frame.REFERENCE) {
            Object value = frame.takeResultReference();
            if (value instanceof Character character) {
                return character;
            }
            if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
                return ((Number) value).floatValue();
            }
            return (Float) value;
        }
        frame.consumeResult();
        return switch (kind) {
            case 'F' -> Float.intBitsToFloat((int) frame.resultBits());
            case 'J' -> (float) frame.resultBits();
            default -> (float) (int) frame.resultBits();
        };
    }

    /** Like {@link #resultInt()} for a call of type {@code double}. */
    public static double resultDouble() {
        Frame frame = result("resultDouble");
        char kind = frame.resultKind();
        if (kind == Frame.REFERENCE) {
            Object value = frame.takeResultReference();
            if (value instanceof Character character) {
                return character;
            }
            if (value instanceof Number && !(value instanceof Double)) {
                return ((Number) value).doubleValue();
            }
            return (Double) value;
        }
        frame.consumeResult();
        return switch (kind) {
            case 'D' -> Double.longBitsToDouble(frame.resultBits());
            case 'F' -> Float.intBitsToFloat((int) frame.resultBits());
            case 'J' -> (double) frame.resultBits();
            default -> (double) (int) frame.resultBits();
        };
    }

    /** Like {@link #resultInt()} for a call of a reference type: a primitive value is boxed, as a lambda would. */
    public static Object resultObject() {
        Frame frame = result("resultObject");
        char kind = frame.resultKind();
        if (kind == Frame.REFERENCE || kind == Frame.VOID) {
            return frame.takeResultReference();
        }
        frame.consumeResult();
        long bits = frame.resultBits();
        return switch (kind) {
            case 'Z' -> bits != 0;
            case 'B' -> (byte) bits;
            case 'C' -> (char) bits;
            case 'S' -> (short) bits;
            case 'J' -> bits;
            case 'F' -> Float.intBitsToFloat((int) bits);
            case 'D' -> Double.longBitsToDouble(bits);
            default -> (int) bits;
        };
    }

    /**
     * The running thread's saved stack, after throwing the exception the activation above threw, if any. The
     * continuing activation has taken its JVM monitors again by now. Refuses, changing nothing, a call when no
     * activation has handed an outcome over (see {@link #resumedThreadsFrame}).
     *
     * @param entry the entry point called, named in the error
     */
    private static Frame result(String entry) {
        Frame frame = resumedThreadsFrame(entry, TAKE_OVER);
        if (!frame.holdsOutcome()) {
            throw refused(entry, TAKE_OVER);
        }
        holderRestored(Carrier.here().current, frame);
        Throwable failure = frame.takeFailure();
        if (failure != null) {
            frame.consumeResult();
            throw Continuation.<RuntimeException>sneaky(failure);
        }
        return frame;
    }

    /**
     * The saved stack of the PicoThread the calling carrier runs, for the hand-over between lazily resumed
     * activations; refuses, changing nothing, a call from any other thread (a platform thread, a PicoThread that never
     * suspended), so that hand-written code gets a clear error there. On a PicoThread's own run, hand-written code
     * reaches only that thread's register, whose next outcome the runtime's own hand-over replaces.
     *
     * @param entry  the entry point called, named in the error
     * @param reason why it is refused, in the error
     */
    private static Frame resumedThreadsFrame(String entry, String reason) {
        Carrier carrier = Carrier.here();
        Task task = carrier == null ? null : carrier.current;
        if (task == null || carrier.frame.task() != task) {
            throw refused(entry, reason);
        }
        return carrier.frame;
    }

    private static IllegalCallerException refused(String entry, String reason) {
        return new IllegalCallerException("PicoThreads: Continuation." + entry + " was refused: " + reason);
    }

    @SuppressWarnings("unchecked")
    static <T extends Throwable> T sneaky(Throwable failure) throws T {
        throw (T) failure;
    }

    /** Starts the restore of the task {@code carrier} runs, unless it is restoring already. Called by the carrier. */
    static void beginRestoring(Carrier carrier) {
        carrier.restoring = true;
    }

    /** Ends the restore {@code carrier} is in, if any. Called by the carrier. */
    static void endRestoring(Carrier carrier) {
        carrier.restoring = false;
    }


    /**
     * Called by each exception handler of a continuation (the copy of a method that only a lazy resume re-enters),
     * first thing, with the exception it caught and the method's key ({@code owner.name(descriptor)}): an exception
     * made since the resume has a stack trace that ends where the driver re-entered the method, and is given the
     * activations still saved below it ({@link ThreadDump#completeStackTrace}), as a platform thread's exception
     * shows them. Changes nothing for any other exception, or off a carrier; anyone may call it.
     */
    public static void caughtAfterResume(Throwable exception, String method) {
        Carrier carrier = Carrier.here();
        if (carrier == null || exception instanceof Capture) {
            return;
        }
        Task task = carrier.current;
        if (task != null && carrier.frame.task() == task) {
            ThreadDump.completeStackTrace(exception, method, carrier.frame, task);
        }
    }

    /**
     * Entered before a call that may block from code that cannot be captured (a constructor, a class
     * initializer, a synchronized region, a method too large to rewrite): blocking calls below it block
     * the thread for real instead of suspending it.
     */
    public static void pin() {
        Task task = Carrier.currentTaskOnThisThread();
        if (task != null) {
            task.pinDepth++;
        }
    }

    /** Leaves the region entered by {@link #pin()}. */
    public static void unpin() {
        Task task = Carrier.currentTaskOnThisThread();
        if (task != null && task.pinDepth > 0) {
            task.pinDepth--;
        }
    }
}
