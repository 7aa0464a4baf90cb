package org.picothreads.net.io;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.CharBuffer;
import java.util.Objects;

/**
 * The loops of {@link Reader} that the JDK writes over {@code read(char[], int, int)}, written again here so that
 * no JDK frame sits between a decorator's caller and a read that suspends.
 */
final class ReaderLoops {
    private static final int SKIP_BUFFER_SIZE = 8192;
    private static final int TRANSFER_BUFFER_SIZE = 8192;

    private ReaderLoops() {
    }

    /** As {@link Reader#read(CharBuffer)}. */
    static int readInto(Reader reader, CharBuffer target) throws IOException {
        int count;
        if (target.hasArray()) {
            int position = target.position();
            int remaining = Math.max(target.limit() - position, 0);
            count = reader.read(target.array(), target.arrayOffset() + position, remaining);
            if (count > 0) {
                target.position(position + count);
            }
        } else {
            int length = target.remaining();
            char[] buffer = new char[length];
            count = reader.read(buffer, 0, length);
            if (count > 0) {
                target.put(buffer, 0, count);
            }
        }
        return count;
    }

    /** As {@link Reader#skip(long)}. */
    static long skip(Reader reader, Object lock, long count) throws IOException {
        if (count < 0L) {
            throw new IllegalArgumentException("skip value is negative");
        }
        int chunk = (int) Math.min(count, SKIP_BUFFER_SIZE);
        synchronized (lock) {
            char[] buffer = new char[chunk];
            long remaining = count;
            while (remaining > 0) {
                int skipped = reader.read(buffer, 0, (int) Math.min(remaining, chunk));
                if (skipped == -1) {
                    break;
                }
                remaining -= skipped;
            }
            return count - remaining;
        }
    }

    /** As {@link Reader#transferTo(Writer)}. */
    static long transferTo(Reader reader, Writer out) throws IOException {
        Objects.requireNonNull(out, "out");
        long transferred = 0;
        char[] buffer = new char[TRANSFER_BUFFER_SIZE];
        int count;
        while ((count = reader.read(buffer, 0, TRANSFER_BUFFER_SIZE)) >= 0) {
            out.write(buffer, 0, count);
            transferred += count;
        }
        return transferred;
    }
}
