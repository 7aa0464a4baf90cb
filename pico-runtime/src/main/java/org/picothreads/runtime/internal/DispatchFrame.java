package org.picothreads.runtime.internal;

/**
 * The one frame through which the scheduler runs a PicoThread: its class marks, for the check of frames that
 * cannot be captured ({@link CaptureSafety}), where a thread's own frames end, without resolving method names.
 */
final class DispatchFrame {
    private DispatchFrame() {
    }

    /** Runs (or, after a capture, re-enters) the thread's run() method. */
    static void run(Thread thread) {
        thread.run();
    }
}
