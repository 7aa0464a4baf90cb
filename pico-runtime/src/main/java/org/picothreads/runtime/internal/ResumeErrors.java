package org.picothreads.runtime.internal;

/**
 * Makes the errors rewritten code throws when its restore goes wrong, so that their text is not repeated in the
 * bytecode of every rewritten method.
 */
public final class ResumeErrors {
    private ResumeErrors() {
    }

    /** The error of a continuation handed a saved frame whose resume point it does not have; the caller throws it. */
    public static IllegalStateException invalidResumePoint(String method) {
        return new IllegalStateException("PicoThreads: invalid resume point for " + method);
    }
}
