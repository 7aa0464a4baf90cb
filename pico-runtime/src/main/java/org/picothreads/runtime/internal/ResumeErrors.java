package org.picothreads.runtime.internal;

/**
 * Makes the errors rewritten code throws when its restore goes wrong or a continuation is called by anyone but the
 * runtime, so that their text is not repeated in the bytecode of every rewritten method.
 */
public final class ResumeErrors {
    private ResumeErrors() {
    }

    /**
     * The error of a continuation called with no saved activation to restore: not by its class's resume entry while
     * the runtime re-enters the activation (by deep reflection, say), so that nothing was restored, and nothing has
     * changed; the caller throws it.
     */
    public static IllegalCallerException continuationRefused(String method) {
        return new IllegalCallerException("PicoThreads: the continuation of " + method + " was refused: only its"
                + " class's resume entry calls it, when the runtime re-enters a saved activation of the method");
    }

    /** The error of a continuation handed a saved frame whose resume point it does not have; the caller throws it. */
    public static IllegalStateException invalidResumePoint(String method) {
        return new IllegalStateException("PicoThreads: invalid resume point for " + method);
    }
}
