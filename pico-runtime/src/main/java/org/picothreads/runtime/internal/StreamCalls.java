package org.picothreads.runtime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Where rewritten calls of InputStream's and OutputStream's blocking methods go, so that the transformer knows them
 * as calls that can suspend: each method only calls the same method on the stream.
 *
 * <p>A stream of pico-net (a socket's) is rewritten code that suspends inside; these frames keep nothing across a
 * suspension, so the marker lists them as capturable: on resume the rewritten caller calls the method again with
 * the same arguments, and the call reaches the stream's saved frames. Any other stream simply runs.
 */
@Rewritten({
    "read(Ljava/io/InputStream;)I",
    "read(Ljava/io/InputStream;[B)I",
    "read(Ljava/io/InputStream;[BII)I",
    "readNBytes(Ljava/io/InputStream;[BII)I",
    "readNBytes(Ljava/io/InputStream;I)[B",
    "readAllBytes(Ljava/io/InputStream;)[B",
    "skip(Ljava/io/InputStream;J)J",
    "write(Ljava/io/OutputStream;I)V",
    "write(Ljava/io/OutputStream;[B)V",
    "write(Ljava/io/OutputStream;[BII)V",
    "flush(Ljava/io/OutputStream;)V"
})
public final class StreamCalls {
    private StreamCalls() {
    }

    /** {@code in.read()}. */
    public static int read(InputStream in) throws IOException {
        return in.read();
    }

    /** {@code in.read(bytes)}. */
    public static int read(InputStream in, byte[] bytes) throws IOException {
        return in.read(bytes);
    }

    /** {@code in.read(bytes, offset, length)}. */
    public static int read(InputStream in, byte[] bytes, int offset, int length) throws IOException {
        return in.read(bytes, offset, length);
    }

    /** {@code in.readNBytes(bytes, offset, length)}. */
    public static int readNBytes(InputStream in, byte[] bytes, int offset, int length) throws IOException {
        return in.readNBytes(bytes, offset, length);
    }

    /** {@code in.readNBytes(length)}. */
    public static byte[] readNBytes(InputStream in, int length) throws IOException {
        return in.readNBytes(length);
    }

    /** {@code in.readAllBytes()}. */
    public static byte[] readAllBytes(InputStream in) throws IOException {
        return in.readAllBytes();
    }

    /** {@code in.skip(count)}. */
    public static long skip(InputStream in, long count) throws IOException {
        return in.skip(count);
    }

    /** {@code out.write(value)}. */
    public static void write(OutputStream out, int value) throws IOException {
        out.write(value);
    }

    /** {@code out.write(bytes)}. */
    public static void write(OutputStream out, byte[] bytes) throws IOException {
        out.write(bytes);
    }

    /** {@code out.write(bytes, offset, length)}. */
    public static void write(OutputStream out, byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    /** {@code out.flush()}. */
    public static void flush(OutputStream out) throws IOException {
        out.flush();
    }
}
