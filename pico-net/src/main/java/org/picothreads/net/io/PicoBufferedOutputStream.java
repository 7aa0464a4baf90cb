package org.picothreads.net.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The BufferedOutputStream that rewritten code creates: it fills and flushes the inherited buffer ({@code buf},
 * {@code count}) itself, calling only the underlying stream's {@code write}, {@code flush} and {@code close}, so
 * that a write suspending below it is captured through it.
 */
public class PicoBufferedOutputStream extends BufferedOutputStream implements MonitorHome {
    private static final int DEFAULT_BUFFER_SIZE = 8192;
    /** This stream's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** Set once close has started: a second close does nothing. */
    private boolean closed;

    /** As {@link BufferedOutputStream#BufferedOutputStream(OutputStream)}. */
    public PicoBufferedOutputStream(OutputStream out) {
        this(out, DEFAULT_BUFFER_SIZE);
    }

    /** As {@link BufferedOutputStream#BufferedOutputStream(OutputStream, int)}. */
    public PicoBufferedOutputStream(OutputStream out, int size) {
        super(out, size);
    }

    private void flushBuffer() throws IOException {
        if (count > 0) {
            out.write(buf, 0, count);
            count = 0;
        }
    }

    @Override
    public void write(int value) throws IOException {
        synchronized (this) {
            if (count >= buf.length) {
                flushBuffer();
            }
            buf[count++] = (byte) value;
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        synchronized (this) {
            if (length >= buf.length) {
                flushBuffer();
                out.write(bytes, offset, length);
                return;
            }
            if (length > buf.length - count) {
                flushBuffer();
            }
            System.arraycopy(bytes, offset, buf, count, length);
            count += length;
        }
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    @Override
    public void flush() throws IOException {
        synchronized (this) {
            flushBuffer();
            out.flush();
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        OutputStreams.flushThenClose(this, out);
    }

    /** Not for programs: the runtime's monitor of this stream (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
