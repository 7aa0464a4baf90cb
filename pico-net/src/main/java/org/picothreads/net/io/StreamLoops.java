package org.picothreads.net.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * The loops of {@link InputStream} that the JDK writes over {@code read}, written again here so that no JDK frame
 * sits between a decorator's caller and a read that suspends.
 */
final class StreamLoops {
    private static final int CHUNK_SIZE = 8192;
    private static final int MAX_SKIP_BUFFER_SIZE = 2048;

    private StreamLoops() {
    }

    /** As {@link InputStream#readAllBytes()}. */
    static byte[] readAllBytes(InputStream in) throws IOException {
        return readNBytes(in, Integer.MAX_VALUE);
    }

    /** As {@link InputStream#readNBytes(int)}. */
    static byte[] readNBytes(InputStream in, int length) throws IOException {
        if (length < 0) {
            throw new IllegalArgumentException("len < 0");
        }
        byte[] result = new byte[Math.min(length, CHUNK_SIZE)];
        int total = 0;
        while (total < length) {
            if (total == result.length) {
                int grown = (int) Math.min((long) result.length * 2, length);
                if (grown <= result.length) {
                    throw new OutOfMemoryError("Required array size too large");
                }
                result = Arrays.copyOf(result, grown);
            }
            int count = in.read(result, total, result.length - total);
            if (count < 0) {
                break;
            }
            total += count;
        }
        return total == result.length ? result : Arrays.copyOf(result, total);
    }

    /** As {@link InputStream#readNBytes(byte[], int, int)}. */
    static int readNBytes(InputStream in, byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        int total = 0;
        while (total < length) {
            int count = in.read(buffer, offset + total, length - total);
            if (count < 0) {
                break;
            }
            total += count;
        }
        return total;
    }

    /** As {@link InputStream#transferTo(OutputStream)}. */
    static long transferTo(InputStream in, OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        long transferred = 0;
        byte[] buffer = new byte[CHUNK_SIZE];
        int count;
        while ((count = in.read(buffer, 0, CHUNK_SIZE)) >= 0) {
            out.write(buffer, 0, count);
            transferred += count;
        }
        return transferred;
    }

    /** As {@link InputStream#skip(long)}: skips by reading. */
    static long skipByReading(InputStream in, long count) throws IOException {
        long remaining = count;
        if (count <= 0) {
            return 0;
        }
        int size = (int) Math.min(MAX_SKIP_BUFFER_SIZE, remaining);
        byte[] skipBuffer = new byte[size];
        while (remaining > 0) {
            int read = in.read(skipBuffer, 0, (int) Math.min(size, remaining));
            if (read < 0) {
                break;
            }
            remaining -= read;
        }
        return count - remaining;
    }

    /** As {@link InputStream#skipNBytes(long)}. */
    static void skipNBytes(InputStream in, long count) throws IOException {
        long remaining = count;
        while (remaining > 0) {
            long skipped = in.skip(remaining);
            if (skipped > 0 && skipped <= remaining) {
                remaining -= skipped;
            } else if (skipped == 0) {
                if (in.read() == -1) {
                    throw new EOFException();
                }
                remaining--;
            } else {
                throw new IOException("Unable to skip exactly");
            }
        }
    }
}
