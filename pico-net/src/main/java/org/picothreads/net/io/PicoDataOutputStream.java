package org.picothreads.net.io;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.picothreads.runtime.internal.DirectDataOutput;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The DataOutputStream that rewritten code creates. DataOutputStream's typed writes are final, so rewritten code
 * reaches the {@link DirectDataOutput} methods here through the runtime's IoCalls; they write to the inherited {@code out} and
 * count into the inherited {@code written} as the JDK does, so that a write suspending below is captured through
 * them.
 */
public class PicoDataOutputStream extends DataOutputStream implements DirectDataOutput, MonitorHome {
    /** This stream's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** Set once close has started: a second close does nothing. */
    private boolean closed;

    /** As {@link DataOutputStream#DataOutputStream(OutputStream)}. */
    public PicoDataOutputStream(OutputStream out) {
        super(out);
    }

    private void count(int bytes) {
        int total = written + bytes;
        written = total < 0 ? Integer.MAX_VALUE : total;
    }

    @Override
    public void write(int value) throws IOException {
        synchronized (this) {
            out.write(value);
            count(1);
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        synchronized (this) {
            out.write(bytes, offset, length);
            count(length);
        }
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        OutputStreams.flushThenClose(this, out);
    }

    @Override
    public void writeBigEndian(long value, int count) throws IOException {
        byte[] bytes = new byte[count];
        for (int index = count - 1; index >= 0; index--) {
            bytes[index] = (byte) value;
            value >>>= 8;
        }
        out.write(bytes, 0, count);
        count(count);
    }

    @Override
    public void writeBytesDirectly(String text) throws IOException {
        int length = text.length();
        byte[] bytes = new byte[length];
        for (int index = 0; index < length; index++) {
            bytes[index] = (byte) text.charAt(index);
        }
        out.write(bytes, 0, length);
        count(length);
    }

    @Override
    public void writeCharsDirectly(String text) throws IOException {
        int length = text.length();
        byte[] bytes = new byte[length * 2];
        for (int index = 0; index < length; index++) {
            char character = text.charAt(index);
            bytes[2 * index] = (byte) (character >>> 8);
            bytes[2 * index + 1] = (byte) character;
        }
        out.write(bytes, 0, bytes.length);
        count(bytes.length);
    }

    @Override
    public void writeUTFDirectly(String text) throws IOException {
        byte[] bytes = ModifiedUtf8.encode(text);
        out.write(bytes, 0, bytes.length);
        count(bytes.length);
    }

    /** Not for programs: the runtime's monitor of this stream (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
