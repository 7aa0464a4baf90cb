package org.picothreads.runtime.internal;

/**
 * The saved state of one suspended activation of a rewritten method: which suspension call site it stopped
 * at, and the values that are live there (its live locals and its whole operand stack at the call,
 * receiver and arguments included, spilled into locals by the rewrite).
 *
 * <p>Rewritten code pushes values in a fixed order when it captures and pops them in the same order when
 * it resumes; reference values go to one array and primitive values, as raw bits, to another. The frames
 * of one thread form a chain from the outermost (the thread's entry) to the innermost, which is the order
 * in which they are resumed.
 *
 * <p>Instances are created only by {@link Continuation} and are never handed to user code.
 */
public final class Frame {
    private static final Object[] NO_REFERENCES = {};
    private static final long[] NO_PRIMITIVES = {};

    /** The rewritten method's key, {@code owner.name+descriptor}, interned; checked on resume. */
    final String method;
    /** Index of the suspension call site within the method. */
    final int resumePoint;
    /** The next frame to resume after this one: the activation this one had called. */
    Frame inner;
    private final Object[] references;
    private final long[] primitives;
    private int referenceCursor;
    private int primitiveCursor;

    Frame(String method, int resumePoint, int referenceCount, int primitiveCount) {
        this.method = method;
        this.resumePoint = resumePoint;
        this.references = referenceCount == 0 ? NO_REFERENCES : new Object[referenceCount];
        this.primitives = primitiveCount == 0 ? NO_PRIMITIVES : new long[primitiveCount];
    }

    /** The suspension call site this activation resumes at. */
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

    /** Rewinds the cursors before the frame is resumed, so that popping reads the values from the start. */
    void rewind() {
        referenceCursor = 0;
        primitiveCursor = 0;
    }

    /** The method this frame belongs to, as {@code owner.name+descriptor}. */
    public String method() {
        return method;
    }

    @Override
    public String toString() {
        return method + " at suspension point " + resumePoint;
    }
}
