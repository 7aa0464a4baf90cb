package org.picothreads.targets.net.direct;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.locks.LockSupport;
import org.picothreads.runtime.internal.DirectStream;

/**
 * A stream of the program's own that claims to be a {@link DirectStream}: each read parks a millisecond, then
 * hands out the next byte of a countdown. A thread reads it in its own loop, so from the second read on a resumed
 * activation calls it directly; the runtime must not take the stream at its word, and the parks inside are checked.
 */
public final class ProgramDirectStream extends InputStream implements DirectStream {
    /** Bytes the stream hands out before its end. */
    public static final int LENGTH = 100;
    /** How long each read parks (a park, unlike a sleep, leaves the runtime's mark of a trusted caller as it is). */
    private static final long PARK_NANOS = 1_000_000;

    private int left = LENGTH;

    private ProgramDirectStream() {
    }

    @Override
    public boolean isDirect() {
        return true;
    }

    @Override
    public int read() {
        LockSupport.parkNanos(PARK_NANOS);
        return left == 0 ? -1 : left--;
    }

    public static String run() throws Exception {
        long[] sum = new long[1];
        Thread reader = new Thread(() -> {
            try (InputStream in = new ProgramDirectStream()) {
                int value;
                while ((value = in.read()) >= 0) {
                    sum[0] += value;
                }
            } catch (IOException exception) {
                throw new UncheckedIOException(exception);
            }
        }, "reader");
        reader.start();
        reader.join();
        return "bytes " + LENGTH + ", sum " + sum[0];
    }
}
