package org.picothreads.runtime.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The cursor through which rewritten code saves and restores the activations of the thread its carrier dispatches,
 * one per carrier, and the register through which a returning activation hands its value (or exception) to the next
 * one. A thread keeps only its saved activations (in its {@link Task}); everything else here lasts one dispatch.
 *
 * <p>A thread's saved activations form a stack, the innermost on top, kept in two arrays. Each activation is a
 * segment in each array:
 * <pre>
 * references: value 0 .. value r-1, receiver (an instance method's only), layout
 * primitives: value 0 .. value p-1, in int slots: one for an int, float, short, char, byte or boolean, two for a
 *             long or double
 * </pre>
 * where the layout ({@link SiteLayout}) is shared by every activation saved at the same call site and says what the
 * segment holds (the method, the site, the counts, whether JVM monitors are held, which the restore takes again).
 * A capture runs from the innermost activation outwards and writes a segment per activation into the carrier's own
 * capture arrays; once the capture has reached the driver ({@link DispatchFrame}) the new segments are copied above
 * the ones still saved, in stack order, so that the innermost is on top ({@link #endCapture()}). A resume takes the
 * top segment only ({@link #beginRestore(String)}); the others stay saved, untouched, until the activation above
 * them returns. Within a segment, values are popped in the order they were pushed.
 *
 * <p>Only the innermost activation of a capture saves the arguments of its call, to invoke it again; the outer ones
 * continue after their call with its result and save only their live locals and the values under the arguments.
 *
 * <p>A thread's arrays are allocated at the exact size a capture needs, only when the capture needs more than they
 * hold, and never shrink, so a thread that suspends again at the same or a smaller depth allocates nothing and a
 * parked thread carries no slack beyond what its deepest suspension needed. The capture arrays, which grow by
 * doubling, are the carrier's and are reused by every capture it runs. The carrier attaches the thread's arrays when
 * it dispatches the thread ({@link #attach}) and gives them back when the dispatch ends ({@link #detach}). Never
 * handed to user code; rewritten code only calls the push and pop methods and {@link #resumePoint()} and
 * {@link #savesArguments()} on the instance it is given.
 *
 * <p>Only the carrier changes its frame. Other threads read which task is attached and its saved activations, for
 * {@link Thread#getStackTrace()} of a thread that a carrier runs, through {@link #stableVersion}, {@link
 * #describeAttachedRacily} and {@link #unchangedSince}: a sequence lock whose version the carrier makes odd while it
 * attaches or detaches a task, captures, or pops an activation to restore it, and even again after; a reader that
 * sees the same even version before and after its reads has read one state. On x86 the fences involved compile to
 * nothing but an ordering of the compiler's, so the carrier's path pays two plain stores per change.
 */
public final class Frame {
    /** Ordered access to {@link #savedStackVersion}. */
    private static final VarHandle SAVED_STACK_VERSION;

    static {
        try {
            SAVED_STACK_VERSION = MethodHandles.lookup().findVarHandle(Frame.class, "savedStackVersion", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Object[] NO_REFERENCES = {};
    private static final int[] NO_PRIMITIVES = {};
    private static final int FIRST_CAPACITY = 8;

    /** Kinds of the value in the result register, as the descriptor character of the returning method's type. */
    static final char VOID = 'V';
    static final char REFERENCE = 'L';
    /** The kind of an empty result register: no activation finished since the last outcome was taken. */
    static final char EMPTY = 0;

    /** The task whose saved stack this frame holds during its dispatch, or null between dispatches. */
    private Task task;
    /** The saved stack of the task attached: its arrays, exactly as large as its deepest capture needed. */
    private Object[] savedReferences = NO_REFERENCES;
    private int[] savedPrimitives = NO_PRIMITIVES;
    /** The ends of the saved segments: the next free slot of each array. */
    private int referenceTop;
    private int primitiveTop;
    /** The carrier's capture arrays, into which a capture writes its segments before {@link #endCapture()}. */
    private Object[] captureReferences = NO_REFERENCES;
    private int[] capturePrimitives = NO_PRIMITIVES;
    /** The arrays the pushes and pops go to: the capture arrays during a capture, else the saved stack's. */
    private Object[] references = NO_REFERENCES;
    private int[] primitives = NO_PRIMITIVES;
    /** How many saved activations hold JVM monitors that their restore takes again. */
    private int savedMonitorHolders;
    /** Where the next push or pop of the activation being captured or restored goes. */
    private int referenceCursor;
    private int primitiveCursor;
    /** The resume point of the activation being restored, as {@link #resumePoint()} gives it. */
    private int resumePoint;
    /**
     * Set by a restored activation right before it calls, bound at compile time, the continuation of a capturing
     * method of its own class ({@link #requestFreshEntry()}); taken by that continuation's entry.
     */
    private boolean freshEntryRequested;
    /**
     * The caller token a continuation of this carrier stores when it tests for a capture under way after its call into
     * the runtime ({@link CallerToken#passChecking}); the frame itself is the token of one that does not.
     */
    final Object checkingToken = new Object();
    /**
     * The caller token of this carrier ({@link CallerToken}): this frame, its {@link #checkingToken}, or null. Only this
     * carrier writes it, so tokens of carriers running at once never overwrite each other. Private, so that no other
     * class can read a thread's saved stack from it.
     */
    private Object callerToken;

    /** Stores the caller token of this carrier ({@link CallerToken}). */
    void storeCallerToken(Object token) {
        callerToken = token;
    }

    /** Takes and clears the caller token of this carrier ({@link CallerToken}): null when none was stored. */
    Object takeCallerToken() {
        Object token = callerToken;
        callerToken = null;
        return token;
    }

    /** True from the start of a capture until it has reached the driver. */
    private boolean capturing;
    /** The ends of the segments the capture under way wrote into the capture arrays, and how many it has saved. */
    private int captureReferenceTop;
    private int capturePrimitiveTop;
    private int captureCount;
    /** The layout of the activation being captured, whose primitive slots are counted when the next one begins. */
    private SiteLayout capturedLayout;
    /** Whether the activation being captured saves its call's arguments. */
    private boolean argumentsSaved;
    /** True while the activation entered next is the innermost one, which invokes its call again. */
    private boolean invokesAgain;

    /** The result register: the kind of value the last activation to finish returned, its bits or reference. */
    private char resultKind = EMPTY;
    private long resultBits;
    private Object resultReference;
    /** The exception the last activation to finish threw, or null. */
    private Throwable resultFailure;
    /**
     * Odd while the attached task or its saved activations change, or a capture is under way; even otherwise. Written
     * only by the carrier; read by other threads (see the class comment).
     */
    private int savedStackVersion;

    Frame() {
    }

    /** Takes {@code dispatched}'s saved stack for its dispatch; the first activation it restores invokes its call. */
    void attach(Task dispatched) {
        beginSavedStackChange();
        task = dispatched;
        Object[] taskReferences = dispatched.savedReferences;
        savedReferences = taskReferences != null ? taskReferences : NO_REFERENCES;
        int[] taskPrimitives = dispatched.savedPrimitives;
        savedPrimitives = taskPrimitives != null ? taskPrimitives : NO_PRIMITIVES;
        references = savedReferences;
        primitives = savedPrimitives;
        referenceTop = dispatched.savedReferenceTop;
        primitiveTop = dispatched.savedPrimitiveTop;
        // Needed only to stop counting a suspended monitor holder, so counted only for one.
        savedMonitorHolders = dispatched.suspendedHolder ? countMonitorHolders(savedReferences, referenceTop) : 0;
        capturing = false;
        invokesAgain = true;
        freshEntryRequested = false;
        callerToken = null;
        clearResult();
        endSavedStackChange();
    }

    /** Gives the dispatched task its saved stack back at the end of its dispatch, and forgets it. */
    void detach() {
        beginSavedStackChange();
        if (capturing) {
            // A capture that failed before reaching the driver: the task ends with that failure.
            discardCapture();
        }
        Task dispatched = task;
        if (dispatched != null) {
            // Never null from now on: the task has been dispatched, so it terminates or was captured.
            dispatched.savedReferences = savedReferences;
            dispatched.savedPrimitives = savedPrimitives;
            dispatched.savedReferenceTop = referenceTop;
            dispatched.savedPrimitiveTop = primitiveTop;
        }
        task = null;
        freshEntryRequested = false;
        callerToken = null;
        savedReferences = NO_REFERENCES;
        savedPrimitives = NO_PRIMITIVES;
        references = NO_REFERENCES;
        primitives = NO_PRIMITIVES;
        referenceTop = 0;
        primitiveTop = 0;
        capturedLayout = null;
        clearResult();
        endSavedStackChange();
    }

    /** The task attached now, or null. */
    Task task() {
        return task;
    }

    /** True when at least one activation is saved and not yet restored. */
    boolean hasSavedActivations() {
        return referenceTop > 0;
    }

    /** True when one of the saved activations holds a JVM monitor its restore must take again. */
    boolean savedActivationsHoldMonitors() {
        return savedMonitorHolders > 0;
    }

    /** True between the start of a capture ({@link #beginCaptureBlock}) and its end or discard. */
    boolean capturing() {
        return capturing;
    }

    /**
     * True while a capture is under way: a continuation tests it after a call into the runtime for which it stored
     * its token with {@link CallerToken#passChecking}, since the runtime may end a capture by returning to it; and
     * its capture handler then saves it as if the signal had landed there.
     */
    public boolean captureUnderWay() {
        return capturing;
    }

    /** Starts a capture: the activations saved from now on are the ones that ran since the last resume. */
    void beginCaptureBlock() {
        // Odd until the capture ends: the activations on the carrier's stack are being unwound into the capture arrays.
        beginSavedStackChange();
        // Forgets a capture that never reached the driver, if any; with none under way it only resets the counts.
        discardCapture();
        capturing = true;
        references = captureReferences;
        primitives = capturePrimitives;
    }

    /** Forgets the segments of a capture that did not reach the driver, and points pushes and pops back. */
    private void discardCapture() {
        Arrays.fill(captureReferences, 0, captureReferenceTop, null);
        captureReferenceTop = 0;
        capturePrimitiveTop = 0;
        captureCount = 0;
        capturedLayout = null;
        capturing = false;
        references = savedReferences;
        primitives = savedPrimitives;
    }

    /**
     * Appends a segment for an activation of {@code method} stopped at {@code site} ({@link SiteLayout#HOLDS_MONITORS},
     * the method's index in its class in 15 bits, the call site in 16), with room for the counts of values packed in
     * {@code counts} (references, primitives, then the same two for the call's arguments, 16 bits each, the
     * arguments kept only by the innermost activation), and points the cursor at its start.
     */
    void beginCapture(Object receiver, SavedMethod method, int site, long counts) {
        endCapturedSegment();
        argumentsSaved = captureCount == 0;
        SiteLayout layout = method.layout(site, counts, argumentsSaved, receiver != null);
        int referenceEnd = captureReferenceTop + layout.referenceSlots;
        if (referenceEnd > captureReferences.length) {
            captureReferences = Arrays.copyOf(captureReferences, grown(captureReferences.length, referenceEnd));
            references = captureReferences;
        }
        int primitiveRoom = capturePrimitiveTop + layout.primitiveSlotsAtMost();
        if (primitiveRoom > capturePrimitives.length) {
            capturePrimitives = Arrays.copyOf(capturePrimitives, grown(capturePrimitives.length, primitiveRoom));
            primitives = capturePrimitives;
        }
        referenceCursor = captureReferenceTop;
        primitiveCursor = capturePrimitiveTop;
        if (layout.hasReceiver) {
            captureReferences[referenceEnd - 2] = receiver;
        }
        captureReferences[referenceEnd - 1] = layout;
        captureReferenceTop = referenceEnd;
        capturedLayout = layout;
        captureCount++;
        if (layout.holdsMonitors()) {
            savedMonitorHolders++;
        }
    }

    /** Ends the segment of the activation captured last: its primitive values end where its pushes stopped. */
    private void endCapturedSegment() {
        SiteLayout layout = capturedLayout;
        if (layout != null) {
            layout.savedPrimitiveSlots(primitiveCursor - capturePrimitiveTop);
            capturePrimitiveTop = primitiveCursor;
            capturedLayout = null;
        }
    }

    /** Whether the activation being captured saves its call's arguments (only the innermost one does). */
    public boolean savesArguments() {
        return argumentsSaved;
    }

    /**
     * Ends the capture that has reached the driver: copies its segments, saved from the innermost outwards, above the
     * ones still saved in stack order (innermost on top), into the task's arrays, replaced by arrays of the exact size
     * needed when they are too small; returns how many it saved.
     */
    int endCapture() {
        endCapturedSegment();
        int saved = captureCount;
        int referenceEnd = referenceTop + captureReferenceTop;
        int primitiveEnd = primitiveTop + capturePrimitiveTop;
        if (referenceEnd > savedReferences.length) {
            savedReferences = Arrays.copyOf(savedReferences, referenceEnd);
        }
        if (primitiveEnd > savedPrimitives.length) {
            savedPrimitives = Arrays.copyOf(savedPrimitives, primitiveEnd);
        }
        // The outermost segment was captured last: copy from the end of the capture arrays back to their start.
        int referenceFrom = captureReferenceTop;
        int primitiveFrom = capturePrimitiveTop;
        while (referenceFrom > 0) {
            SiteLayout layout = (SiteLayout) captureReferences[referenceFrom - 1];
            referenceFrom -= layout.referenceSlots;
            primitiveFrom -= layout.primitiveSlots();
            System.arraycopy(captureReferences, referenceFrom, savedReferences, referenceTop, layout.referenceSlots);
            System.arraycopy(capturePrimitives, primitiveFrom, savedPrimitives, primitiveTop, layout.primitiveSlots());
            referenceTop += layout.referenceSlots;
            primitiveTop += layout.primitiveSlots();
        }
        discardCapture();
        invokesAgain = true;
        endSavedStackChange();
        return saved;
    }

    private static int grown(int capacity, int needed) {
        return Math.max(Math.max(capacity * 2, FIRST_CAPACITY), needed);
    }

    private SiteLayout nextLayout() {
        return (SiteLayout) savedReferences[referenceTop - 1];
    }

    /** The method key of the next activation to restore (the innermost saved), or null when none is saved. */
    String nextMethod() {
        return referenceTop == 0 ? null : nextLayout().method.key;
    }

    /** The class whose method the next activation to restore belongs to. */
    Class<?> nextOwner() {
        return nextLayout().method.owner;
    }

    /** The resume entry of the class of the next activation to restore, or null when it has none. */
    MethodHandle nextResumeEntry() {
        return nextLayout().method.resumeEntry();
    }

    /** The receiver of the next activation to restore, null for a static method. */
    Object nextReceiver() {
        return nextLayout().hasReceiver ? savedReferences[referenceTop - 2] : null;
    }

    /** The index of the next activation's method in its class's list of capturing methods. */
    int nextMethodIndex() {
        return nextLayout().methodIndex();
    }

    /**
     * Removes the next activation to restore if it belongs to {@code method} and points the cursor at its values;
     * false, changing nothing, when it belongs to another method.
     */
    boolean beginRestore(String method) {
        if (referenceTop == 0) {
            return false;
        }
        SiteLayout layout = nextLayout();
        String key = layout.method.key;
        if (key != method && !key.equals(method)) {
            return false;
        }
        beginSavedStackChange();
        savedReferences[referenceTop - 1] = null;
        if (layout.hasReceiver) {
            savedReferences[referenceTop - 2] = null;
        }
        referenceTop -= layout.referenceSlots;
        primitiveTop -= layout.primitiveSlots();
        if (layout.holdsMonitors()) {
            savedMonitorHolders--;
        }
        referenceCursor = referenceTop;
        primitiveCursor = primitiveTop;
        int point = layout.resumePoint();
        resumePoint = invokesAgain ? 2 * point : 2 * point + 1;
        invokesAgain = false;
        endSavedStackChange();
        return true;
    }

    /** Makes the version odd, if it is not already, before the carrier changes what other threads read. */
    private void beginSavedStackChange() {
        int version = savedStackVersion;
        if ((version & 1) == 0) {
            SAVED_STACK_VERSION.setOpaque(this, version + 1);
            // no store below may be seen before the odd version
            VarHandle.storeStoreFence();
        }
    }

    /** Makes the version even again once a change is complete; its stores are seen before the new version. */
    private void endSavedStackChange() {
        int version = savedStackVersion;
        if ((version & 1) != 0) {
            SAVED_STACK_VERSION.setRelease(this, version + 1);
        }
    }

    /**
     * For another thread: the version of the state now, when no change is under way and {@code expected} is the task
     * attached; otherwise -1. Reads made after it belong to that state if {@link #unchangedSince} says so after them.
     */
    int stableVersion(Task expected) {
        int version = (int) SAVED_STACK_VERSION.getAcquire(this);
        return (version & 1) == 0 && task == expected ? version : -1;
    }

    /** For another thread, after its reads: true when the state is still the one {@link #stableVersion} gave. */
    boolean unchangedSince(int version) {
        // the reads above may not be moved below the version's
        VarHandle.loadLoadFence();
        return (int) SAVED_STACK_VERSION.getOpaque(this) == version;
    }

    /**
     * For another thread, between {@link #stableVersion} and {@link #unchangedSince}: the activations still saved of
     * the attached task, as {@link #describeAttached} gives them, or null when a change under way made what it read
     * inconsistent (the carrier may change the arrays meanwhile; {@link #unchangedSince} then says false anyway).
     */
    Object[] describeAttachedRacily() {
        try {
            return describe(savedReferences, referenceTop);
        } catch (RuntimeException inconsistent) {
            return null;
        }
    }

    /** How many of the activations saved in {@code references} below {@code top} hold JVM monitors. */
    private static int countMonitorHolders(Object[] references, int top) {
        int holders = 0;
        for (int end = top; end > 0; ) {
            SiteLayout layout = (SiteLayout) references[end - 1];
            if (layout.holdsMonitors()) {
                holders++;
            }
            end -= layout.referenceSlots;
        }
        return holders;
    }

    /**
     * The activations {@code task} has saved, outermost first, as {@code method key, resume point} pairs for thread
     * dumps; read while no carrier dispatches the task.
     */
    static Object[] describeSaved(Task task) {
        return describe(task.savedReferences, task.savedReferenceTop);
    }

    /**
     * The activations still saved of the task attached to this frame, outermost first, as {@link #describeSaved}
     * gives them; read by the carrier that dispatches the task.
     */
    Object[] describeAttached() {
        return describe(savedReferences, referenceTop);
    }

    private static Object[] describe(Object[] saved, int top) {
        if (saved == null) {
            return new Object[0];
        }
        int count = 0;
        for (int end = top; end > 0; end -= ((SiteLayout) saved[end - 1]).referenceSlots) {
            count++;
        }
        Object[] described = new Object[2 * count];
        int end = top;
        for (int index = count - 1; index >= 0; index--) {
            SiteLayout layout = (SiteLayout) saved[end - 1];
            described[2 * index] = layout.method.key;
            described[2 * index + 1] = layout.resumePoint();
            end -= layout.referenceSlots;
        }
        return described;
    }

    /** Puts the value an activation returned into the result register, as raw bits of the given kind. */
    void returned(char kind, long bits, Object reference) {
        resultKind = kind;
        resultBits = bits;
        resultReference = reference;
        resultFailure = null;
    }

    /** Records, unless the register already holds an outcome, that an activation returned with no value. */
    void returnedNothing() {
        if (!holdsOutcome()) {
            resultKind = VOID;
        }
    }

    /** True when the result register holds an outcome (a value, no value, or an exception) not yet taken. */
    boolean holdsOutcome() {
        return resultKind != EMPTY || resultFailure != null;
    }

    /** Puts the exception an activation threw into the result register. */
    void threw(Throwable failure) {
        resultKind = VOID;
        resultReference = null;
        resultFailure = failure;
    }

    /** Empties the result register and gives the exception it held, or null. */
    Throwable takeFailure() {
        Throwable failure = resultFailure;
        resultFailure = null;
        return failure;
    }

    /** Empties the result register: no outcome is held until an activation hands one over. */
    private void clearResult() {
        resultKind = EMPTY;
        resultBits = 0;
        resultReference = null;
        resultFailure = null;
    }

    /** The kind of value in the result register. */
    char resultKind() {
        return resultKind;
    }

    long resultBits() {
        return resultBits;
    }

    /** Takes the reference in the result register, leaving it empty. */
    Object takeResultReference() {
        Object reference = resultReference;
        resultReference = null;
        resultKind = EMPTY;
        return reference;
    }

    /** Empties the result register after its value was read. */
    void consumeResult() {
        resultKind = EMPTY;
        resultReference = null;
    }

    /**
     * The call site the activation being restored resumes at, as {@code 2 * site} when it invokes the call again
     * (the innermost activation) and {@code 2 * site + 1} when it continues after the call with its result; -1 when
     * the continuation was entered fresh by a restored activation of its class ({@link #requestFreshEntry()}), to run
     * from its start.
     */
    public int resumePoint() {
        return resumePoint;
    }

    /**
     * Called by a restored activation (a continuation) right before it calls the continuation of a capturing method of
     * its own class, bound at compile time, instead of the method: that continuation's entry then runs it from its start
     * with this frame as its own (resume point -1), so that its calls into the runtime pass a token that spares the frame
     * check, since below it stand only restored activations; and a capture returns to the caller, which tests for it.
     */
    public void requestFreshEntry() {
        freshEntryRequested = true;
    }

    /**
     * Takes a fresh entry requested by {@link #requestFreshEntry()}: true, with the resume point -1, when one was;
     * called by the continuation's entry when the carrier is not restoring.
     */
    boolean takeFreshEntry() {
        if (!freshEntryRequested) {
            return false;
        }
        freshEntryRequested = false;
        resumePoint = -1;
        return true;
    }

    public void pushInt(int value) {
        primitives[primitiveCursor++] = value;
    }

    public void pushLong(long value) {
        int cursor = primitiveCursor;
        primitives[cursor] = (int) value;
        primitives[cursor + 1] = (int) (value >>> 32);
        primitiveCursor = cursor + 2;
    }

    public void pushFloat(float value) {
        primitives[primitiveCursor++] = Float.floatToRawIntBits(value);
    }

    public void pushDouble(double value) {
        pushLong(Double.doubleToRawLongBits(value));
    }

    public void pushObject(Object value) {
        references[referenceCursor++] = value;
    }

    public int popInt() {
        return primitives[primitiveCursor++];
    }

    public long popLong() {
        int cursor = primitiveCursor;
        primitiveCursor = cursor + 2;
        return primitives[cursor] & 0xFFFF_FFFFL | (long) primitives[cursor + 1] << 32;
    }

    public float popFloat() {
        return Float.intBitsToFloat(primitives[primitiveCursor++]);
    }

    public double popDouble() {
        return Double.longBitsToDouble(popLong());
    }

    public Object popObject() {
        Object value = references[referenceCursor];
        references[referenceCursor++] = null;
        return value;
    }

    @Override
    public String toString() {
        return task == null ? "no saved stack attached" : "the saved stack of " + task + ", next " + nextMethod();
    }
}
