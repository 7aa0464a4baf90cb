package org.picothreads.runtime.internal;

import java.util.Arrays;

/**
 * The saved activations of one suspended thread, packed into two arrays that the thread keeps from one suspension
 * to the next, and the cursor through which rewritten code saves and restores them one activation at a time.
 *
 * <p>Each saved activation is a segment in each array: its reference values followed by the method's key in
 * {@code references}, its primitive values (as raw bits) followed by a header in {@code primitives}. The header
 * packs the resume point (the index of the suspension call site, below 2^16 since a call takes three bytes of a
 * 64 KB method) with the two value counts (each at most 2 x 65,535, below 2^24). Capture runs from the innermost
 * activation outwards and appends a segment per activation; restore runs from the outermost inwards and takes
 * the last segment first. Within a segment, values are popped in the order they were pushed.
 *
 * <p>A suspended thread therefore costs two array slots of header per activation besides its values, and a
 * thread that suspends again at the same depth allocates nothing. One instance per thread, created at its first
 * capture by {@link Continuation} and never handed to user code; rewritten code only calls the push and pop
 * methods and {@link #resumePoint()} on the instance it is given.
 */
public final class Frame {
    private static final Object[] NO_REFERENCES = {};
    private static final long[] NO_PRIMITIVES = {};
    private static final int FIRST_CAPACITY = 8;
    private static final int COUNT_BITS = 24;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

    private Object[] references = NO_REFERENCES;
    private long[] primitives = NO_PRIMITIVES;
    /** The ends of the saved segments: the next free slot of each array. */
    private int referenceTop;
    private int primitiveTop;
    /** How many activations are saved. */
    private int savedCount;
    /** Where the next push or pop of the activation being captured or restored goes. */
    private int referenceCursor;
    private int primitiveCursor;
    /** The resume point of the activation being restored. */
    private int resumePoint;

    Frame() {
    }

    /** True when at least one activation is saved and not yet restored. */
    boolean hasSavedActivations() {
        return savedCount > 0;
    }

    /** Forgets every saved activation (the thread suspends afresh, or terminated), keeping the arrays. */
    void clear() {
        if (referenceTop > 0) {
            Arrays.fill(references, 0, referenceTop, null);
        }
        referenceTop = 0;
        primitiveTop = 0;
        savedCount = 0;
    }

    /**
     * Appends a segment for an activation of {@code method} stopped at {@code point}, with room for the given
     * numbers of values, and points the cursor at its start for the pushes that follow.
     */
    void beginCapture(String method, int point, int referenceCount, int primitiveCount) {
        int referenceEnd = referenceTop + referenceCount;
        int primitiveEnd = primitiveTop + primitiveCount;
        if (referenceEnd >= references.length) {
            references = Arrays.copyOf(references, grown(references.length, referenceEnd + 1));
        }
        if (primitiveEnd >= primitives.length) {
            primitives = Arrays.copyOf(primitives, grown(primitives.length, primitiveEnd + 1));
        }
        referenceCursor = referenceTop;
        primitiveCursor = primitiveTop;
        references[referenceEnd] = method;
        primitives[primitiveEnd] = (long) point << (2 * COUNT_BITS) | (long) referenceCount << COUNT_BITS
                | primitiveCount;
        referenceTop = referenceEnd + 1;
        primitiveTop = primitiveEnd + 1;
        savedCount++;
    }

    /** The method key of the next activation to restore (the outermost saved), or null when none is saved. */
    String nextMethod() {
        return savedCount == 0 ? null : (String) references[referenceTop - 1];
    }

    /**
     * Removes the next activation to restore and points the cursor at its values; the caller has checked that it
     * belongs to the method being entered.
     */
    void beginRestore() {
        long header = primitives[primitiveTop - 1];
        int primitiveCount = (int) (header & COUNT_MASK);
        int referenceCount = (int) (header >>> COUNT_BITS & COUNT_MASK);
        resumePoint = (int) (header >>> (2 * COUNT_BITS));
        references[referenceTop - 1] = null;
        referenceTop -= referenceCount + 1;
        primitiveTop -= primitiveCount + 1;
        savedCount--;
        referenceCursor = referenceTop;
        primitiveCursor = primitiveTop;
    }

    /** The saved activations, outermost first, as {@code method key, resume point} pairs for thread dumps. */
    Object[] describeSaved() {
        Object[] described = new Object[2 * savedCount];
        int referenceEnd = referenceTop;
        int primitiveEnd = primitiveTop;
        for (int index = 0; index < savedCount; index++) {
            long header = primitives[primitiveEnd - 1];
            described[2 * index] = references[referenceEnd - 1];
            described[2 * index + 1] = (int) (header >>> (2 * COUNT_BITS));
            referenceEnd -= (int) (header >>> COUNT_BITS & COUNT_MASK) + 1;
            primitiveEnd -= (int) (header & COUNT_MASK) + 1;
        }
        return described;
    }

    private static int grown(int capacity, int needed) {
        int grown = Math.max(capacity == 0 ? FIRST_CAPACITY : capacity * 2, FIRST_CAPACITY);
        return Math.max(grown, needed);
    }

    /** The suspension call site the activation being restored resumes at. */
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
