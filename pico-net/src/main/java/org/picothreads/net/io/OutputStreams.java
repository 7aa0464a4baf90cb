package org.picothreads.net.io;

import java.io.IOException;
import java.io.OutputStream;

/** FilterOutputStream's close, written again so that the flush and close it makes can suspend through it. */
final class OutputStreams {
    private OutputStreams() {
    }

    /**
     * Flushes {@code stream}, then closes {@code target} even when the flush failed; an exception of the close
     * carries the flush's as suppressed, as FilterOutputStream.close does.
     */
    static void flushThenClose(OutputStream stream, OutputStream target) throws IOException {
        Throwable flushFailure = null;
        try {
            stream.flush();
        } catch (Throwable failure) {
            flushFailure = failure;
            throw failure;
        } finally {
            if (flushFailure == null) {
                target.close();
            } else {
                try {
                    target.close();
                } catch (Throwable closeFailure) {
                    if (flushFailure != closeFailure) {
                        closeFailure.addSuppressed(flushFailure);
                    }
                    throw closeFailure;
                }
            }
        }
    }
}
