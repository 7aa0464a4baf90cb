package org.picothreads.runtime.internal;

/**
 * The calls that rewritten code makes into the runtime to capture and restore its frames, and the one
 * static flag it tests on entry. Nothing here runs on the normal path except that flag test.
 *
 * <pre>
 * method entry:        if (Continuation.restoring) { Frame f = Continuation.resume(KEY);   (f: the thread's saved stack)
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
     * True while the carrier is re-entering a suspended thread's frames. Written only by the carrier;
     * other threads may read a stale value, which costs them one call to {@link #resume} that answers null.
     */
    public static boolean restoring;

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
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null || !restoring) {
            return null;
        }
        Frame frame = task.savedStack;
        String next = frame == null ? null : frame.nextMethod();
        if (next == null) {
            restoring = false;
            throw new IllegalStateException("PicoThreads: " + method
                    + " was entered while restoring, but every saved frame of " + task + " was already restored");
        }
        if (next != method) {
            restoring = false;
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
        Task task = Carrier.current;
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
        Task task = Carrier.current;
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
        if (!restoring) {
            return false;
        }
        Task task = Carrier.currentTaskOnThisThread();
        if (task == null) {
            return false;
        }
        if (task.savedStack != null && task.savedStack.hasSavedActivations()) {
            restoring = false;
            throw new IllegalStateException("PicoThreads: restoring " + task
                    + " reached a blocking call before its saved frame " + task.savedStack.nextMethod());
        }
        restoring = false;
        Monitors.holderResuming(task);
        return true;
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
