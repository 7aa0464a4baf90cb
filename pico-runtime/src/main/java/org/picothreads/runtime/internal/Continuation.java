package org.picothreads.runtime.internal;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/**
 * The calls that rewritten code makes into the runtime to capture and restore its frames, and the one
 * hint it tests on entry. Nothing here runs on the normal path except that test.
 *
 * <pre>
 * method entry:        if (Continuation.restoring() != 0) { Frame f = resume;        (f: the thread's saved stack)
 *                                                      if (f != null) jump to restore block f.resumePoint() }
 * suspension call site: spill the operand stack to locals; reload it; invoke      (covered by the handler)
 * capture handler:      Frame f = capture(point, references, primitives);
 *                       f.pushX(live value)...; throw the caught Capture
 * restore block:        x = f.popX()...; goto the reload before the invoke
 * </pre>
 *
 * <p>Only the classes the transformer rewrote reach {@code resume} and {@code capture}, and each only for its own
 * methods ({@link ProtocolAccess}): rewritten code links them with invokedynamic ({@link #link}), whose bootstrap
 * binds the method's key as a constant once the calling class is found to carry the marker listing that method; a
 * class file too old for invokedynamic (before Java 7) passes its own {@code MethodHandles.lookup()} to
 * {@link #resumeChecked} and {@link #captureChecked}, as the runtime's classes that follow the protocol by hand do.
 * The hint is private and read through {@link #restoring()}; the saved stack ({@link Frame}) is handed to no one
 * else. A blocking primitive in the runtime suspends by calling {@link #suspend()}, and when it is re-invoked
 * during a restore it learns so from {@link #resumingPrimitive()}.
 */
public final class Continuation {
    /**
     * How many carriers are re-entering a suspended thread's frames now: a hint that is non-zero whenever the
     * calling carrier restores. Each carrier adds one when it starts restoring and takes it back when it is done,
     * atomically, so a carrier that restores can never read it as zero (its own one is still counted); other threads
     * may read a stale or foreign non-zero value, which costs them one call to {@link #resume} that answers null.
     * Private, so that no class but this one can change it.
     */
    private static int restoring;

    private static final VarHandle RESTORING;
    /** {@link #resume(String)} and {@link #capture(String, int, int, int)}, which {@link #link} binds to a key. */
    private static final MethodHandle RESUME;
    private static final MethodHandle CAPTURE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RESTORING = lookup.findStaticVarHandle(Continuation.class, "restoring", int.class);
            RESUME = lookup.findStatic(Continuation.class, "resume", MethodType.methodType(Frame.class, String.class));
            CAPTURE = lookup.findStatic(Continuation.class, "capture",
                    MethodType.methodType(Frame.class, String.class, int.class, int.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Continuation() {
    }

    /**
     * The restoring hint, which rewritten code tests at the entry of each method (a trivial method, compiled to the
     * field's load): non-zero whenever the calling carrier is restoring a thread.
     */
    public static int restoring() {
        return restoring;
    }

    /**
     * The bootstrap of the invokedynamic instructions through which rewritten code reaches {@code resume} (type
     * {@code ()Frame}) and {@code capture} (type {@code (III)Frame}) for one of its methods: returns the entry bound to
     * {@code method}, once {@code caller} is found to be the class's own lookup, the class to carry the marker, and the
     * marker to list the method. Anything else gets an {@link IllegalCallerException} (wrapped by the JVM in a
     * BootstrapMethodError) and changes nothing.
     *
     * @param entry  {@code "resume"} or {@code "capture"}
     * @param method the key of the calling method, {@code owner.name+descriptor}
     */
    public static CallSite link(MethodHandles.Lookup caller, String entry, MethodType type, String method) {
        ProtocolAccess.check(caller, method, entry);
        MethodHandle target = switch (entry) {
            case "resume" -> RESUME;
            case "capture" -> CAPTURE;
            default -> throw new IllegalCallerException("PicoThreads: no entry point " + entry + " to link");
        };
        MethodHandle bound = MethodHandles.insertArguments(target, 0, method);
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
     * {@link #capture(String, int, int, int)} for a class file too old for invokedynamic, or a class that follows the
     * protocol by hand, checked as {@link #resumeChecked} is; the key comes after the counts so that old rewritten
     * code pushes it, and its lookup, right before the call.
     */
    public static Frame captureChecked(int resumePoint, int referenceCount, int primitiveCount, String method,
            MethodHandles.Lookup caller) {
        ProtocolAccess.check(caller, method, "capture");
        return capture(method, resumePoint, referenceCount, primitiveCount);
    }

    /**
     * Called at entry of a rewritten method when {@link #restoring} is set: returns the frame this
     * activation must restore, or null when the caller is not the carrier re-entering a thread (so the
     * method runs normally). Each call takes the next saved activation off the thread's saved stack, so an
     * activation is restored at most once.
     *
     * @param method the rewritten method's key, {@code owner.name+descriptor}, as an interned constant
     */
    private static Frame resume(String method) {
        Carrier carrier = Carrier.here();
        if (carrier == null || !carrier.restoring) {
            return null;
        }
        Task task = carrier.current;
        Frame frame = task.savedStack;
        String next = frame == null ? null : frame.nextMethod();
        if (next == null) {
            endRestoring(carrier);
            throw new IllegalStateException("PicoThreads: " + method
                    + " was entered while restoring, but every saved frame of " + task + " was already restored");
        }
        if (next != method) {
            endRestoring(carrier);
            throw new IllegalStateException("PicoThreads: restoring " + task + " entered " + method
                    + " but the next saved frame belongs to " + next
                    + "; a frame that was not rewritten ran again between them");
        }
        frame.beginRestore();
        return frame;
    }

    /**
     * Called by a capture handler: appends a saved activation for the method that caught the signal, as the
     * outermost saved so far, and returns the thread's saved stack for the handler to push its live values into.
     */
    private static Frame capture(String method, int resumePoint, int referenceCount, int primitiveCount) {
        Task task = Carrier.currentTaskOnThisThread();
        Frame frame = task.savedStack;
        if (frame == null) {
            frame = new Frame();
            task.savedStack = frame;
        }
        frame.beginCapture(method, resumePoint, referenceCount, primitiveCount);
        return frame;
    }

    /**
     * Called by a blocking primitive, after it has arranged to be woken, to suspend the running thread:
     * returns the signal for the primitive to throw.
     */
    static Capture suspend() {
        Task task = Carrier.currentTaskOnThisThread();
        if (task.savedStack != null) {
            task.savedStack.clear();
        }
        task.suspensions++;
        Monitors.holderSuspending(task);
        return Capture.SIGNAL;
    }

    /**
     * Called first by every blocking primitive: true when the primitive is being re-invoked at the bottom
     * of a restore, in which case the restore is over and the primitive completes instead of blocking.
     */
    public static boolean resumingPrimitive() {
        if (restoring == 0) {
            return false;
        }
        Carrier carrier = Carrier.here();
        if (carrier == null || !carrier.restoring) {
            return false;
        }
        Task task = carrier.current;
        endRestoring(carrier);
        if (task.savedStack != null && task.savedStack.hasSavedActivations()) {
            throw new IllegalStateException("PicoThreads: restoring " + task
                    + " reached a blocking call before its saved frame " + task.savedStack.nextMethod());
        }
        Monitors.holderResuming(task);
        return true;
    }

    /** Starts the restore of the task {@code carrier} is about to re-enter. Called by the carrier. */
    static void beginRestoring(Carrier carrier) {
        carrier.restoring = true;
        RESTORING.getAndAdd(1);
    }

    /** Ends the restore {@code carrier} is in, if any. Called by the carrier. */
    static void endRestoring(Carrier carrier) {
        if (carrier.restoring) {
            carrier.restoring = false;
            RESTORING.getAndAdd(-1);
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
