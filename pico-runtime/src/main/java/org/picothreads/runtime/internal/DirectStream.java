package org.picothreads.runtime.internal;

import java.util.Set;

/**
 * A stream of PicoThreads' own libraries (pico-net's socket streams) whose blocking methods, called on it directly,
 * run nothing up to the scheduler but that library's rewritten code, stopped only at its suspension call sites, and
 * the runtime's: no code of the program's, no JDK callback. {@link StreamCalls} then lets a caller that was itself
 * restored spare the frame check of the capture, as the runtime's own queues and locks do ({@link CallerToken}).
 * Only the final classes named in {@link #LIBRARY_CLASSES} are taken at their word: a class of the program's that
 * implements this interface gains nothing.
 */
public interface DirectStream {
    /** The classes whose {@link #isDirect()} the runtime believes: pico-net's socket streams. */
    Set<String> LIBRARY_CLASSES = Set.of("org.picothreads.net.PicoSocketInputStream",
            "org.picothreads.net.PicoSocketOutputStream");

    /**
     * True when this stream's blocking methods run no code of the program's now: false, for example, when it
     * belongs to a socket of a subclass the program wrote, whose overrides the stream calls.
     */
    boolean isDirect();
}
