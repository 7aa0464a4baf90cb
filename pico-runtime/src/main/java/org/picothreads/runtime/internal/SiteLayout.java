package org.picothreads.runtime.internal;

/**
 * What every activation saved at one call site of one method has in common: the method, the site, how many
 * references and primitive slots it saves and whether it holds JVM monitors. A saved activation refers to its layout
 * instead of carrying these in a header of its own ({@link Frame}).
 */
final class SiteLayout {
    /** The bit of a site that marks an activation holding JVM monitors, which its restore takes again. */
    static final int HOLDS_MONITORS = 1 << 31;
    private static final int FIELD_BITS = 16;
    private static final long FIELD_MASK = (1L << FIELD_BITS) - 1;
    private static final int METHOD_INDEX_MASK = (1 << 15) - 1;
    /** {@link #primitiveSlots} before the first activation of this layout has been saved. */
    private static final int NOT_KNOWN = -1;

    /** The method the activations belong to. */
    final SavedMethod method;
    /** The site as the capture gave it: {@link #HOLDS_MONITORS}, the method's index in 15 bits, the call site in 16. */
    private final int site;
    /** The counts as the capture gave them: references, primitives, then those of the call's arguments. */
    private final long counts;
    /** Whether the activations save their call's arguments (the innermost of a capture, which invokes it again). */
    private final boolean argumentsSaved;
    /** Whether the activations save a receiver (an instance method's). */
    final boolean hasReceiver;
    /** The references an activation saves: its values, its receiver if any, and this layout. */
    final int referenceSlots;
    /**
     * The int slots an activation's primitive values take (an int, float, short, char, byte or boolean one, a long
     * or double two), learned from the first activation saved, since the counts say how many values there are but not
     * their widths; written once, volatile so that a carrier restoring an activation another carrier saved sees it.
     */
    private volatile int primitiveSlots = NOT_KNOWN;
    /** The next layout of the same call site (another count or kind of activation), or null. */
    final SiteLayout next;

    SiteLayout(SavedMethod method, int site, long counts, boolean argumentsSaved, boolean hasReceiver,
            SiteLayout next) {
        this.method = method;
        this.site = site;
        this.counts = counts;
        this.argumentsSaved = argumentsSaved;
        this.hasReceiver = hasReceiver;
        this.next = next;
        int references = (int) (counts >>> 3 * FIELD_BITS & FIELD_MASK);
        if (argumentsSaved) {
            references += (int) (counts >>> FIELD_BITS & FIELD_MASK);
        }
        referenceSlots = references + (hasReceiver ? 2 : 1);
    }

    boolean matches(int site, long counts, boolean argumentsSaved, boolean hasReceiver) {
        return this.site == site && this.counts == counts && this.argumentsSaved == argumentsSaved
                && this.hasReceiver == hasReceiver;
    }

    /** The most int slots an activation's primitive values can take: two for each. */
    int primitiveSlotsAtMost() {
        int primitives = (int) (counts >>> 2 * FIELD_BITS & FIELD_MASK);
        if (argumentsSaved) {
            primitives += (int) (counts & FIELD_MASK);
        }
        return 2 * primitives;
    }

    /** The int slots an activation of this layout saved; known once one was saved. */
    int primitiveSlots() {
        return primitiveSlots;
    }

    /**
     * Records the int slots an activation of this layout has just saved; refuses, with an IllegalStateException, an
     * activation whose values took another number of slots than the first one's, which its restore could not find.
     */
    void savedPrimitiveSlots(int slots) {
        int known = primitiveSlots;
        if (known == NOT_KNOWN) {
            primitiveSlots = slots;
        } else if (known != slots) {
            throw new IllegalStateException("PicoThreads: " + method + " saved " + slots + " primitive slots at site "
                    + resumePoint() + ", where it saved " + known + " before");
        }
    }

    /** The call site, as the resume point the activation continues at. */
    int resumePoint() {
        return site & (int) FIELD_MASK;
    }

    /** The method's index in its class's list of capturing methods, which its resume entry takes. */
    int methodIndex() {
        return site >>> FIELD_BITS & METHOD_INDEX_MASK;
    }

    /** True when the activations hold JVM monitors that their restore takes again. */
    boolean holdsMonitors() {
        return site < 0;
    }
}
