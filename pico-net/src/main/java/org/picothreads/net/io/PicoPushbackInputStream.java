package org.picothreads.net.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.util.Objects;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The PushbackInputStream that rewritten code creates: it reads the inherited pushback buffer and calls only the
 * underlying stream's {@code read} and {@code skip}, so that a read suspending below it is captured through it.
 */
public class PicoPushbackInputStream extends PushbackInputStream implements MonitorHome {
    /** This stream's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** As {@link PushbackInputStream#PushbackInputStream(InputStream, int)}. */
    public PicoPushbackInputStream(InputStream in, int size) {
        super(in, size);
    }

    /** As {@link PushbackInputStream#PushbackInputStream(InputStream)}. */
    public PicoPushbackInputStream(InputStream in) {
        super(in);
    }

    private void ensureOpen() throws IOException {
        if (in == null) {
            throw new IOException("Stream closed");
        }
    }

    @Override
    public int read() throws IOException {
        ensureOpen();
        if (pos < buf.length) {
            return buf[pos++] & 0xff;
        }
        return in.read();
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        ensureOpen();
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (length == 0) {
            return 0;
        }
        int pushedBack = buf.length - pos;
        if (pushedBack > 0) {
            if (length < pushedBack) {
                pushedBack = length;
            }
            System.arraycopy(buf, pos, bytes, offset, pushedBack);
            pos += pushedBack;
            offset += pushedBack;
            length -= pushedBack;
        }
        if (length > 0) {
            int count = in.read(bytes, offset, length);
            if (count == -1) {
                return pushedBack == 0 ? -1 : pushedBack;
            }
            return pushedBack + count;
        }
        return pushedBack;
    }

    @Override
    public int read(byte[] bytes) throws IOException {
        return read(bytes, 0, bytes.length);
    }

    @Override
    public long skip(long count) throws IOException {
        ensureOpen();
        if (count <= 0) {
            return 0;
        }
        long skipped = buf.length - pos;
        long remaining = count;
        if (skipped > 0) {
            if (remaining < skipped) {
                skipped = remaining;
            }
            pos += (int) skipped;
            remaining -= skipped;
        }
        if (remaining > 0) {
            skipped += in.skip(remaining);
        }
        return skipped;
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        return StreamLoops.readAllBytes(this);
    }

    @Override
    public byte[] readNBytes(int length) throws IOException {
        return StreamLoops.readNBytes(this, length);
    }

    @Override
    public int readNBytes(byte[] buffer, int offset, int length) throws IOException {
        return StreamLoops.readNBytes(this, buffer, offset, length);
    }

    @Override
    public void skipNBytes(long count) throws IOException {
        StreamLoops.skipNBytes(this, count);
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
        return StreamLoops.transferTo(this, out);
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (in == null) {
                return;
            }
            in.close();
            in = null;
            buf = null;
        }
    }

    /** Not for programs: the runtime's monitor of this stream (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
