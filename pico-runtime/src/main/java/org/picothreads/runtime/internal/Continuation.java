package org.picothreads.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The calls that rewritten code makes into the runtime to capture and restore its frames, and the one
 * static flag it tests on entry. Nothing here runs on the normal path except that flag test.
 *
 * <pre>
 * method entry:        if (Continuation.restoring != 0) { Frame f = Continuation.resume(KEY);   (f: the thread's saved stack)
 *                                                    if (f != null) jump to restore block f.resumePoint() }
 * suspension call site: spill the operand stack to locals; reload it; invoke      (covered by the handler)
 * capture handler:      Frame f = Continuation.capture(KEY, point, references, primitives);
 *                       f.pushX(live value)...; throw the caught Capture
 * restore block:        x = f.popX()...; goto the reload before the invoke
 * </pre>
 *
 * A blocking primitive in the runtime suspends by calling {@link #suspend()}, and when it is re-invoked
 * during a restore it learns so from {@link #resumingPrimitive()}.
 */
public final class Continuation {
    /**
     * How many carriers are re-entering a suspended thread's frames now: a hint that is non-zero whenever the
     * calling carrier restores. Each carrier adds one when it starts restoring and takes it back when it is done,
     * atomically, so a carrier that restores can never read it as zero (its own one is still counted); other threads
     * may read a stale or foreign non-zero value, which costs them one call to {@link #resume} that answers null.
     */
    public static int restoring;

    private static final VarHandle RESTORING;

    static {
        try {
            RESTORING = MethodHandles.lookup().findStaticVarHandle(Continuation.class, "restoring", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Continuation() {
    }

    /**
     * Called at entry of a rewritten method when {@link #restoring} is set: returns the frame this
     * activation must restore, or null when the caller is not the carrier re-entering a thread (so the
     * method runs normally).
     *
     * @param method the rewritten method's key, {@code owner.name+descriptor}, as an interned constant
     */
    public static Frame resume(String method) {
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
    public static Frame capture(String method, int resumePoint, int referenceCount, int primitiveCount) {
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
    public static Capture suspend() {
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
