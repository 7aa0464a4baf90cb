package org.picothreads.runtime.internal;

import java.util.Arrays;

/**
 * The saved activations of one suspended thread, packed into two arrays that the thread keeps from one suspension
 * to the next, the cursor through which rewritten code saves and restores them one activation at a time, and the
 * register through which a returning activation hands its value (or exception) to the next one.
 *
 * <p>The saved activations form a stack, the innermost on top. Each is a segment in each array:
 * <pre>
 * references: value 0 .. value r-1, receiver (null for a static method), owner class, method key
 * primitives: value 0 .. value p-1 (raw bits), header (monitors 1 | method index 15 | resume point 16 | r 16 | p 16)
 * </pre>
 * where the monitors bit says that the activation holds JVM monitors, which its restore takes again.
 * A capture runs from the innermost activation outwards and appends a segment per activation above the ones still
 * saved; once the capture has reached the driver ({@link DispatchFrame}) the new segments are put in stack order
 * ({@link #endCapture()}), so that the innermost is on top. A resume takes the top segment only
 * ({@link #beginRestore(String)}); the others stay saved, untouched, until the activation above them returns. Within
 * a segment, values are popped in the order they were pushed.
 *
 * <p>Only the innermost activation of a capture saves the arguments of its call, to invoke it again; the outer ones
 * continue after their call with its result and save only their live locals and the values under the arguments.
 *
 * <p>The arrays grow by doubling during a capture that needs more room, and that capture trims them to the exact size
 * it used when it ends; they never shrink otherwise, so a thread that suspends again at the same or a smaller depth
 * allocates nothing. One instance per thread, created at its first capture by
 * {@link Continuation} and never handed to user code; rewritten code only calls the push and pop methods and
 * {@link #resumePoint()} and {@link #savesArguments()} on the instance it is given.
 */
public final class Frame {
    private static final Object[] NO_REFERENCES = {};
    private static final long[] NO_PRIMITIVES = {};
    private static final int FIRST_CAPACITY = 8;
    /** References after each segment's values: receiver, owner class, method key. */
    private static final int REFERENCE_TRAILER = 3;
    private static final int FIELD_BITS = 16;
    private static final long FIELD_MASK = (1L << FIELD_BITS) - 1;
    /** The bit of a site, and of the header's method field, that marks an activation holding JVM monitors. */
    static final int HOLDS_MONITORS = 1 << 31;
    private static final int METHOD_INDEX_MASK = (1 << 15) - 1;

    /** Kinds of the value in the result register, as the descriptor character of the returning method's type. */
    static final char VOID = 'V';
    static final char REFERENCE = 'L';
    /** The kind of an empty result register: no activation finished since the last outcome was taken. */
    static final char EMPTY = 0;

    private Object[] references = NO_REFERENCES;
    private long[] primitives = NO_PRIMITIVES;
    /** The ends of the saved segments: the next free slot of each array. */
    private int referenceTop;
    private int primitiveTop;
    /** How many activations are saved. */
    private int savedCount;
    /** How many of them hold JVM monitors that their restore takes again. */
    private int savedMonitorHolders;
    /** Where the next push or pop of the activation being captured or restored goes. */
    private int referenceCursor;
    private int primitiveCursor;
    /** The resume point of the activation being restored, as {@link #resumePoint()} gives it. */
    private int resumePoint;

    /** Where the segments of the capture under way begin, and how many it has saved. */
    private int captureReferenceBase;
    private int capturePrimitiveBase;
    private int captureCount;
    /** True when the capture under way grew an array, which its end trims to the exact size. */
    private boolean grownDuringCapture;
    /** True until the first activation of the capture under way is saved: that one keeps its call's arguments. */
    private boolean innermostOfCapture;
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

    Frame() {
    }

    /** True when at least one activation is saved and not yet restored. */
    boolean hasSavedActivations() {
        return savedCount > 0;
    }

    /** True when one of the saved activations holds a JVM monitor its restore must take again. */
    boolean savedActivationsHoldMonitors() {
        return savedMonitorHolders > 0;
    }

    /** Starts a capture: the activations saved from now on are the ones that ran since the last resume. */
    void beginCaptureBlock() {
        captureReferenceBase = referenceTop;
        capturePrimitiveBase = primitiveTop;
        captureCount = 0;
        grownDuringCapture = false;
        innermostOfCapture = true;
    }

    /**
     * Appends a segment for an activation of {@code method} stopped at {@code site} ({@link #HOLDS_MONITORS}, the
     * method's index in its class in 15 bits, the call site in 16), with room for the counts of values packed in
     * {@code counts} (references, primitives, then the same two for the call's arguments, 16 bits each, the
     * arguments kept only by the innermost activation), and points the cursor at its start.
     */
    void beginCapture(Object receiver, Class<?> owner, String method, int site, long counts) {
        argumentsSaved = innermostOfCapture;
        innermostOfCapture = false;
        int referenceCount = (int) (counts >>> 3 * FIELD_BITS & FIELD_MASK);
        int primitiveCount = (int) (counts >>> 2 * FIELD_BITS & FIELD_MASK);
        if (argumentsSaved) {
            referenceCount += (int) (counts >>> FIELD_BITS & FIELD_MASK);
            primitiveCount += (int) (counts & FIELD_MASK);
        }
        int referenceEnd = referenceTop + referenceCount;
        int primitiveEnd = primitiveTop + primitiveCount;
        if (referenceEnd + REFERENCE_TRAILER > references.length) {
            references = Arrays.copyOf(references, grown(references.length, referenceEnd + REFERENCE_TRAILER));
            grownDuringCapture = true;
        }
        if (primitiveEnd + 1 > primitives.length) {
            primitives = Arrays.copyOf(primitives, grown(primitives.length, primitiveEnd + 1));
            grownDuringCapture = true;
        }
        referenceCursor = referenceTop;
        primitiveCursor = primitiveTop;
        references[referenceEnd] = receiver;
        references[referenceEnd + 1] = owner;
        references[referenceEnd + 2] = method;
        primitives[primitiveEnd] = (site >>> FIELD_BITS & FIELD_MASK) << 3 * FIELD_BITS
                | (site & FIELD_MASK) << 2 * FIELD_BITS | (long) referenceCount << FIELD_BITS | primitiveCount;
        referenceTop = referenceEnd + REFERENCE_TRAILER;
        primitiveTop = primitiveEnd + 1;
        savedCount++;
        captureCount++;
        if ((site & HOLDS_MONITORS) != 0) {
            savedMonitorHolders++;
        }
    }

    /** Whether the activation being captured saves its call's arguments (only the innermost one does). */
    public boolean savesArguments() {
        return argumentsSaved;
    }

    /**
     * Ends the capture that has reached the driver: puts its segments, saved from the innermost outwards, in stack
     * order (innermost on top) and trims the arrays it grew to their exact size; returns how many it saved.
     */
    int endCapture() {
        int saved = captureCount;
        if (captureCount > 1) {
            reverse(references, captureReferenceBase, referenceTop);
            reverse(primitives, capturePrimitiveBase, primitiveTop);
            // Each segment is now reversed in place, its header first: reverse each back.
            int referenceStart = captureReferenceBase;
            int primitiveStart = capturePrimitiveBase;
            for (int segment = 0; segment < captureCount; segment++) {
                long header = primitives[primitiveStart];
                int primitiveCount = (int) (header & FIELD_MASK);
                int referenceCount = (int) (header >>> FIELD_BITS & FIELD_MASK);
                reverse(primitives, primitiveStart, primitiveStart + primitiveCount + 1);
                reverse(references, referenceStart, referenceStart + referenceCount + REFERENCE_TRAILER);
                primitiveStart += primitiveCount + 1;
                referenceStart += referenceCount + REFERENCE_TRAILER;
            }
        }
        captureCount = 0;
        if (grownDuringCapture) {
            // Grown by doubling: keep exactly what the deepest suspension so far needs, and no more.
            grownDuringCapture = false;
            references = Arrays.copyOf(references, referenceTop);
            primitives = Arrays.copyOf(primitives, primitiveTop);
        }
        invokesAgain = true;
        return saved;
    }

    private static void reverse(Object[] array, int from, int to) {
        for (int low = from, high = to - 1; low < high; low++, high--) {
            Object swapped = array[low];
            array[low] = array[high];
            array[high] = swapped;
        }
    }

    private static void reverse(long[] array, int from, int to) {
        for (int low = from, high = to - 1; low < high; low++, high--) {
            long swapped = array[low];
            array[low] = array[high];
            array[high] = swapped;
        }
    }

    /** The method key of the next activation to restore (the innermost saved), or null when none is saved. */
    String nextMethod() {
        return savedCount == 0 ? null : (String) references[referenceTop - 1];
    }

    /** The class whose method the next activation to restore belongs to. */
    Class<?> nextOwner() {
        return (Class<?>) references[referenceTop - 2];
    }

    /** The receiver of the next activation to restore, null for a static method. */
    Object nextReceiver() {
        return references[referenceTop - 3];
    }

    /** The index of the next activation's method in its class's list of capturing methods. */
    int nextMethodIndex() {
        return (int) (primitives[primitiveTop - 1] >>> 3 * FIELD_BITS) & METHOD_INDEX_MASK;
    }

    /**
     * Removes the next activation to restore if it belongs to {@code method} and points the cursor at its values;
     * false, changing nothing, when it belongs to another method.
     */
    boolean beginRestore(String method) {
        if (savedCount == 0 || references[referenceTop - 1] != method) {
            return false;
        }
        long header = primitives[primitiveTop - 1];
        int primitiveCount = (int) (header & FIELD_MASK);
        int referenceCount = (int) (header >>> FIELD_BITS & FIELD_MASK);
        int point = (int) (header >>> 2 * FIELD_BITS & FIELD_MASK);
        references[referenceTop - 1] = null;
        references[referenceTop - 2] = null;
        references[referenceTop - 3] = null;
        referenceTop -= referenceCount + REFERENCE_TRAILER;
        primitiveTop -= primitiveCount + 1;
        savedCount--;
        if (header < 0) { // the monitors bit, the header's highest
            savedMonitorHolders--;
        }
        referenceCursor = referenceTop;
        primitiveCursor = primitiveTop;
        resumePoint = invokesAgain ? 2 * point : 2 * point + 1;
        invokesAgain = false;
        return true;
    }

    /** The saved activations, outermost first, as {@code method key, resume point} pairs for thread dumps. */
    Object[] describeSaved() {
        Object[] described = new Object[2 * savedCount];
        int referenceEnd = referenceTop;
        int primitiveEnd = primitiveTop;
        for (int index = savedCount - 1; index >= 0; index--) {
            long header = primitives[primitiveEnd - 1];
            described[2 * index] = references[referenceEnd - 1];
            described[2 * index + 1] = (int) (header >>> 2 * FIELD_BITS & FIELD_MASK);
            referenceEnd -= (int) (header >>> FIELD_BITS & FIELD_MASK) + REFERENCE_TRAILER;
            primitiveEnd -= (int) (header & FIELD_MASK) + 1;
        }
        return described;
    }

    private static int grown(int capacity, int needed) {
        return Math.max(Math.max(capacity * 2, FIRST_CAPACITY), needed);
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
     * (the innermost activation) and {@code 2 * site + 1} when it continues after the call with its result.
     */
    public int resumePoint() {
        return resumePoint;
    }

    public void pushInt(int value) {
        primitives[primitiveCursor++] = value;
    }

    public void pushLong(long value) {
        primitives[primitiveCursor++] = value;
    }

    public void pushFloat(float value) {
        primitives[primitiveCursor++] = Float.floatToRawIntBits(value);
    }

    public void pushDouble(double value) {
        primitives[primitiveCursor++] = Double.doubleToRawLongBits(value);
    }

    public void pushObject(Object value) {
        references[referenceCursor++] = value;
    }

    public int popInt() {
        return (int) primitives[primitiveCursor++];
    }

    public long popLong() {
        return primitives[primitiveCursor++];
    }

    public float popFloat() {
        return Float.intBitsToFloat((int) primitives[primitiveCursor++]);
    }

    public double popDouble() {
        return Double.longBitsToDouble(primitives[primitiveCursor++]);
    }

    public Object popObject() {
        Object value = references[referenceCursor];
        references[referenceCursor++] = null;
        return value;
    }

    @Override
    public String toString() {
        return savedCount + " saved activations" + (savedCount == 0 ? "" : ", next " + nextMethod());
    }
}
