package org.picothreads.runtime.internal;

/**
 * The signal a blocking call throws to suspend the running PicoThread: each rewritten frame on the way up
 * catches it at its call site, saves its state in a {@link Frame} and rethrows it, until the scheduler
 * catches it and parks the thread.
 *
 * <p>There is exactly one instance, {@link #SIGNAL}; it carries no state and no stack trace, so throwing it
 * costs no allocation. It is an {@link Error} so that code written against checked exceptions cannot
 * declare it away, but rewritten code never lets a user handler see it: the capture handler is always the
 * first entry of the exception table at a suspension call site.
 */
public final class Capture extends Error {
    private static final long serialVersionUID = 1L;

    /** The one capture signal. */
    public static final Capture SIGNAL = new Capture();

    private Capture() {
        super("PicoThreads capture signal (escaped a frame that was not rewritten)", null, false, false);
    }
}
