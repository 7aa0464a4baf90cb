package org.picothreads.runtime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Where rewritten calls of InputStream's and OutputStream's blocking methods go, so that the transformer knows them
 * as calls that can suspend: each method only calls the same method on the stream, and spares the capture inside it
 * the frame check when its caller was restored and the stream is a {@link DirectStream}.
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
    /**
     * Whether a class is one of {@link DirectStream#LIBRARY_CLASSES}, found once per class rather than by its name at
     * every call (a set lookup and a string comparison on each read and write of a socket's stream).
     */
    private static final ClassValue<Boolean> LIBRARY_STREAMS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return DirectStream.LIBRARY_CLASSES.contains(type.getName());
        }
    };

    private StreamCalls() {
    }

    /** {@code in.read()}. */
    public static int read(InputStream in) throws IOException {
        Task trusted = trustIfDirect(in);
        try {
            return in.read();
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code in.read(bytes)}. */
    public static int read(InputStream in, byte[] bytes) throws IOException {
        Task trusted = trustIfDirect(in);
        try {
            return in.read(bytes);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code in.read(bytes, offset, length)}. */
    public static int read(InputStream in, byte[] bytes, int offset, int length) throws IOException {
        Task trusted = trustIfDirect(in);
        try {
            return in.read(bytes, offset, length);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code in.readNBytes(bytes, offset, length)}. */
    public static int readNBytes(InputStream in, byte[] bytes, int offset, int length) throws IOException {
        Task trusted = trustIfDirect(in);
        try {
            return in.readNBytes(bytes, offset, length);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code in.readNBytes(length)}. */
    public static byte[] readNBytes(InputStream in, int length) throws IOException {
        Task trusted = trustIfDirect(in);
        try {
            return in.readNBytes(length);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code in.readAllBytes()}. */
    public static byte[] readAllBytes(InputStream in) throws IOException {
        Task trusted = trustIfDirect(in);
        try {
            return in.readAllBytes();
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code in.skip(count)}. */
    public static long skip(InputStream in, long count) throws IOException {
        Task trusted = trustIfDirect(in);
        try {
            return in.skip(count);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code out.write(value)}. */
    public static void write(OutputStream out, int value) throws IOException {
        Task trusted = trustIfDirect(out);
        try {
            out.write(value);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code out.write(bytes)}. */
    public static void write(OutputStream out, byte[] bytes) throws IOException {
        Task trusted = trustIfDirect(out);
        try {
            out.write(bytes);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code out.write(bytes, offset, length)}. */
    public static void write(OutputStream out, byte[] bytes, int offset, int length) throws IOException {
        Task trusted = trustIfDirect(out);
        try {
            out.write(bytes, offset, length);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code out.flush()}. */
    public static void flush(OutputStream out) throws IOException {
        Task trusted = trustIfDirect(out);
        try {
            out.flush();
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /**
     * Claims the caller's token ({@link CallerToken}) and, when the caller was restored and the stream is a
     * {@link DirectStream} of pico-net's that runs only its library's code and the runtime's now, marks the running
     * PicoThread so that a capture inside the call skips the frame check; returns the marked task, or null. Any
     * other stream (the program's own, whatever it implements; a JDK decorator; a pico-net stream of a socket
     * subclass) is walked as before.
     */
    private static Task trustIfDirect(Object stream) {
        return CallerToken.trustIfDirect(stream, StreamCalls::isDirect);
    }

    /** True for pico-net's socket streams that run no code of the program's now ({@link DirectStream}). */
    private static boolean isDirect(Object stream) {
        return stream instanceof DirectStream library && LIBRARY_STREAMS.get(stream.getClass()) && library.isDirect();
    }
}
