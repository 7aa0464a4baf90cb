package org.picothreads.runtime.internal;

import java.util.function.Predicate;

/**
 * Spares the frame check ({@link CaptureSafety}) for a blocking call made directly by an activation that was
 * itself restored. A restored activation is entered by the resume driver ({@link DispatchFrame}) through its class's
 * resume entry, so the frames below it are the driver's own for as long as that activation lives: when such an
 * activation calls a blocking primitive of the runtime directly, nothing else can stand between the primitive and
 * the scheduler, and the stack walk before the capture can be skipped.
 *
 * <p>The protocol, in three parts:
 * <ol>
 * <li>Rewritten code stores, just before each call it makes to a runtime method that may block, the frame its
 *     activation was restored from, or null when it was entered normally (the local is null until a restore):
 *     {@code aload frame; invokestatic CallerToken.pass}. The token is the carrier's own (kept in its {@link Frame},
 *     which only that carrier writes): a restored activation's frame is its carrier's, and a null clears the slot of
 *     the carrier the call runs on (a platform thread has none and changes nothing). So carriers running at once never
 *     overwrite each other's tokens, and no platform thread touches one.</li>
 * <li>A runtime entry point whose path to the scheduler calls no code but the runtime's own (a
 *     <em>direct</em> entry: Thread.sleep, Object.wait, the runtime's own queues and locks) takes the token
 *     first thing with {@link #claim()}, which also clears it, and marks the running task
 *     ({@code Task.callerRestored}, or {@link #trustRunning()} from outside this package) only for the extent of
 *     that path (cleared in a finally).
 *     Entry points that may call back into code that is not the runtime (a stream or queue of the program's own
 *     class, a comparator) never claim, so a capture reached through such code is always checked.</li>
 * <li>The scheduler, before a capture, skips the walk when the running task is marked, and consumes the mark.</li>
 * </ol>
 * Runtime methods that forward to a direct entry but may be called from code that did not store a token
 * (PicoThread's static methods, which a subclass can call by its own name) {@link #discard()} it first. A token that a
 * call into the runtime left unclaimed is cleared by the next store on its carrier, which rewritten code makes before
 * each call into the runtime, and when the carrier attaches or detaches a thread.
 *
 * <p>A continuation woven by this build stores its token with {@link #passChecking} instead, and tests after the call
 * whether a capture is under way ({@link Frame#captureUnderWay()}): a direct entry that {@link #claimCaller() claims}
 * such a token ends a capture by returning to it instead of throwing the signal into it, which spares HotSpot the
 * handler lookup of an exception landing in another compiled frame. {@code passChecking} stores the frame's
 * {@code checkingToken} instead of the frame, so a token of an older build's continuation (the frame, through
 * {@link #pass}), which does not test, is never taken for one that does.
 */
public final class CallerToken {
    /** {@link #claimCaller()}: the caller was not a restored activation (or not this carrier's). */
    public static final int NOT_RESTORED = 0;
    /** {@link #claimCaller()}: the caller was a restored activation, which expects the capture signal. */
    public static final int RESTORED = 1;
    /**
     * {@link #claimCaller()}: the caller was a restored activation that tests for a capture under way after the call,
     * so that the entry may end a capture by returning.
     */
    public static final int RESTORED_CHECKING = 2;

    private CallerToken() {
    }

    /**
     * Stores the token: rewritten code calls it just before each call into the runtime that may block, with the frame
     * its activation was restored from, or null.
     */
    public static void pass(Object restoredFrame) {
        store(restoredFrame, false);
    }

    /**
     * Stores the token of a continuation that tests for a capture under way after the call it is about to make into
     * the runtime ({@link Frame#captureUnderWay()}), so that a direct entry may end a capture by returning to it.
     */
    public static void passChecking(Object restoredFrame) {
        store(restoredFrame, true);
    }

    /**
     * Stores the token in the slot of the carrier the call runs on: {@code restoredFrame}, or its checking token, when
     * it is that carrier's frame, else null; on a platform thread, nothing.
     */
    private static void store(Object restoredFrame, boolean checking) {
        Carrier carrier = Carrier.here();
        if (carrier != null) {
            Frame frame = carrier.frame;
            frame.storeCallerToken(restoredFrame != frame ? null : checking ? frame.checkingToken : frame);
        }
    }

    /** Takes and clears the token: true when the caller of the direct entry point was restored. */
    public static boolean claim() {
        return claimCaller() != NOT_RESTORED;
    }

    /**
     * Takes and clears the token: {@link #NOT_RESTORED}, {@link #RESTORED}, or {@link #RESTORED_CHECKING} when the
     * restored caller also tests for a capture under way after the call.
     */
    public static int claimCaller() {
        Carrier carrier = Carrier.here();
        if (carrier == null || carrier.current == null) {
            return NOT_RESTORED;
        }
        Frame frame = carrier.frame;
        Object token = frame.takeCallerToken();
        if (token == null) {
            return NOT_RESTORED;
        }
        if (token == frame) {
            return RESTORED;
        }
        return token == frame.checkingToken ? RESTORED_CHECKING : NOT_RESTORED;
    }

    /**
     * Called by a direct entry that caught the capture signal on its way out: throws it on unless the entry's caller
     * ({@code caller}, from {@link #claimCaller()}) is a continuation that tests for a capture under way after the
     * call, in which case the entry ends the capture by returning (any value: the continuation drops it).
     */
    public static void endCaptureByReturn(int caller, Capture signal) {
        if (caller != RESTORED_CHECKING) {
            throw signal;
        }
        Carrier.here().counters.capturesEndedByReturn++;
    }

    /** Clears the token, for a runtime method that forwards to a direct entry from code that may not have set it. */
    public static void discard() {
        store(null, false);
    }

    /** Ends the mark of {@link #trustRunning()} on {@code task}, if any (null: nothing marked); in a finally block. */
    public static void endTrust(Task task) {
        if (task != null) {
            task.callerRestored = false;
        }
    }

    /**
     * Claims the token and, when the caller was restored and {@code direct} says that the receiver's blocking method
     * runs nothing up to the scheduler but the runtime's code (or that of PicoThreads' own libraries), marks the
     * running PicoThread ({@link #trustRunning()}); returns the marked task for {@link #endTrust}, or null. The
     * receiver is looked at only when there is a token.
     */
    public static <T> Task trustIfDirect(T receiver, Predicate<T> direct) {
        return trustIfDirect(claimCaller(), receiver, direct);
    }

    /** Like {@link #trustIfDirect(Object, Predicate)} for a token the entry has already claimed ({@code caller}). */
    public static <T> Task trustIfDirect(int caller, T receiver, Predicate<T> direct) {
        if (caller == NOT_RESTORED) {
            return null;
        }
        return direct.test(receiver) ? trustRunning() : null;
    }

    /** Marks the running PicoThread, if this is the carrier, and returns its task for {@link #endTrust}; or null. */
    public static Task trustRunning() {
        Task task = Carrier.currentTaskOnThisThread();
        if (task != null) {
            task.callerRestored = true;
        }
        return task;
    }
}
