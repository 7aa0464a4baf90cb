package org.picothreads.net.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.Objects;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;
import org.picothreads.runtime.internal.Parking;

/**
 * The BufferedWriter that rewritten code creates: its buffer is its own and it calls only the underlying writer's
 * {@code write} and {@code flush}, so that a write suspending below it is captured through it. The superclass is
 * given a one-character buffer it never uses.
 */
public class PicoBufferedWriter extends BufferedWriter implements MonitorHome {
    private static final int DEFAULT_BUFFER_SIZE = 8192;
    /** The first buffer of a writer created on a PicoThread with the default size, as the JDK's on a virtual thread. */
    private static final int INITIAL_BUFFER_SIZE_ON_PICOTHREADS = 512;

    /** This writer's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** The writer below, null once closed. */
    private Writer target;
    private char[] buffer;
    /** The size the buffer may grow to before it is written out. */
    private final int maximumSize;
    /** The number of characters buffered. */
    private int count;

    /**
     * As {@link BufferedWriter#BufferedWriter(Writer)}. Like the JDK's on a virtual thread (JDK 21 and later), a
     * writer created on a PicoThread starts with a 512-character buffer that grows to 8,192 before it is written
     * out, so that a short-lived writer (one per response, say) does not allocate 16 KB.
     */
    public PicoBufferedWriter(Writer out) {
        this(out, Parking.onPicoThread() ? INITIAL_BUFFER_SIZE_ON_PICOTHREADS : DEFAULT_BUFFER_SIZE,
                DEFAULT_BUFFER_SIZE);
    }

    /** As {@link BufferedWriter#BufferedWriter(Writer, int)}. */
    public PicoBufferedWriter(Writer out, int size) {
        this(out, size, size);
    }

    private PicoBufferedWriter(Writer out, int initialSize, int maximumSize) {
        super(out, 1);
        if (initialSize <= 0) {
            throw new IllegalArgumentException("Buffer size <= 0");
        }
        this.target = out;
        this.buffer = new char[initialSize];
        this.maximumSize = maximumSize;
    }

    /** Makes room in the full buffer: a larger buffer while it may grow, otherwise by writing it out. */
    private void makeRoom() throws IOException {
        if (buffer.length < maximumSize) {
            buffer = Arrays.copyOf(buffer, Math.min(maximumSize, 2 * buffer.length));
        } else {
            flushBuffer();
        }
    }

    private void ensureOpen() throws IOException {
        if (target == null) {
            throw new IOException("Stream closed");
        }
    }

    /** Writes the buffered characters to the underlying writer, without flushing it. */
    private void flushBuffer() throws IOException {
        synchronized (lock) {
            ensureOpen();
            if (count == 0) {
                return;
            }
            target.write(buffer, 0, count);
            count = 0;
        }
    }

    @Override
    public void write(int character) throws IOException {
        synchronized (lock) {
            ensureOpen();
            if (count >= buffer.length) {
                makeRoom();
            }
            buffer[count++] = (char) character;
        }
    }

    @Override
    public void write(char[] characters, int offset, int length) throws IOException {
        synchronized (lock) {
            ensureOpen();
            checkRange(offset, length, characters.length);
            if (length == 0) {
                return;
            }
            if (length >= maximumSize) {
                flushBuffer();
                target.write(characters, offset, length);
                return;
            }
            int from = offset;
            int end = offset + length;
            while (from < end) {
                int chunk = Math.min(buffer.length - count, end - from);
                System.arraycopy(characters, from, buffer, count, chunk);
                from += chunk;
                count += chunk;
                if (count >= buffer.length) {
                    makeRoom();
                }
            }
        }
    }

    @Override
    public void write(char[] characters) throws IOException {
        write(characters, 0, characters.length);
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
        synchronized (lock) {
            ensureOpen();
            int from = offset;
            int end = offset + length;
            while (from < end) {
                int chunk = Math.min(buffer.length - count, end - from);
                text.getChars(from, from + chunk, buffer, count);
                from += chunk;
                count += chunk;
                if (count >= buffer.length) {
                    makeRoom();
                }
            }
        }
    }

    @Override
    public void write(String text) throws IOException {
        write(text, 0, text.length());
    }

    @Override
    public Writer append(CharSequence text) throws IOException {
        write(String.valueOf(text));
        return this;
    }

    @Override
    public Writer append(CharSequence text, int start, int end) throws IOException {
        CharSequence source = text == null ? "null" : text;
        return append(source.subSequence(start, end));
    }

    @Override
    public Writer append(char character) throws IOException {
        write(character);
        return this;
    }

    @Override
    public void newLine() throws IOException {
        write(System.lineSeparator());
    }

    @Override
    public void flush() throws IOException {
        synchronized (lock) {
            flushBuffer();
            target.flush();
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (target == null) {
                return;
            }
            try (Writer closing = target) {
                flushBuffer();
            } finally {
                target = null;
                buffer = null;
            }
        }
    }

    /**
     * Whether the running JDK's BufferedWriter reports a bad range with Objects.checkFromIndexSize's message
     * (newer JDKs) or with a bare IndexOutOfBoundsException (JDK 17); probed once, so that this class throws
     * exactly what the JDK's own would.
     */
    private static final boolean RANGE_CHECK_WITH_MESSAGE = probeRangeCheck();

    private static boolean probeRangeCheck() {
        try {
            new BufferedWriter(Writer.nullWriter()).write(new char[1], 1, 1);
        } catch (IndexOutOfBoundsException e) {
            return e.getMessage() != null;
        } catch (IOException e) {
            return true;
        }
        return true;
    }

    private static void checkRange(int offset, int length, int size) {
        if (RANGE_CHECK_WITH_MESSAGE) {
            Objects.checkFromIndexSize(offset, length, size);
        } else if (offset < 0 || length < 0 || offset > size - length) {
            throw new IndexOutOfBoundsException();
        }
    }

    /** Not for programs: the runtime's monitor of this writer (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
