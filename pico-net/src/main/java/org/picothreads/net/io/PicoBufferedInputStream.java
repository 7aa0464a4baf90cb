package org.picothreads.net.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The BufferedInputStream that rewritten code creates: it fills the inherited buffer ({@code buf}, {@code count},
 * {@code pos}, {@code markpos}, {@code marklimit}) itself, calling only the underlying stream's {@code read} and
 * {@code skip}, so that a read suspending below it is captured through it.
 */
public class PicoBufferedInputStream extends BufferedInputStream implements MonitorHome {
    private static final int DEFAULT_BUFFER_SIZE = 8192;

    /** This stream's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** As {@link BufferedInputStream#BufferedInputStream(InputStream)}. */
    public PicoBufferedInputStream(InputStream in) {
        this(in, DEFAULT_BUFFER_SIZE);
    }

    /** As {@link BufferedInputStream#BufferedInputStream(InputStream, int)}. */
    public PicoBufferedInputStream(InputStream in, int size) {
        super(in, size);
    }

    private InputStream sourceIfOpen() throws IOException {
        InputStream source = in;
        if (source == null) {
            throw new IOException("Stream closed");
        }
        return source;
    }

    private byte[] bufferIfOpen() throws IOException {
        byte[] buffer = buf;
        if (buffer == null) {
            throw new IOException("Stream closed");
        }
        return buffer;
    }

    /** Reads more into the buffer, keeping the marked bytes while the mark limit allows. */
    private void fill() throws IOException {
        byte[] buffer = bufferIfOpen();
        if (markpos < 0) {
            pos = 0;
        } else if (pos >= buffer.length) {
            if (markpos > 0) {
                int kept = pos - markpos;
                System.arraycopy(buffer, markpos, buffer, 0, kept);
                pos = kept;
                markpos = 0;
            } else if (buffer.length >= marklimit) {
                markpos = -1;
                pos = 0;
            } else {
                int size = (int) Math.min(Math.min((long) pos * 2, Integer.MAX_VALUE - 8), marklimit);
                byte[] larger = new byte[size];
                System.arraycopy(buffer, 0, larger, 0, pos);
                if (buf == null) {
                    throw new IOException("Stream closed");
                }
                buf = larger;
                buffer = larger;
            }
        }
        count = pos;
        int read = sourceIfOpen().read(buffer, pos, buffer.length - pos);
        if (read > 0) {
            count = read + pos;
        }
    }

    @Override
    public int read() throws IOException {
        synchronized (this) {
            if (pos >= count) {
                fill();
                if (pos >= count) {
                    return -1;
                }
            }
            return bufferIfOpen()[pos++] & 0xff;
        }
    }

    /** Reads into a portion of an array, reading from the underlying stream at most once. */
    private int readOnce(byte[] bytes, int offset, int length) throws IOException {
        int available = count - pos;
        if (available <= 0) {
            if (length >= bufferIfOpen().length && markpos < 0) {
                return sourceIfOpen().read(bytes, offset, length);
            }
            fill();
            available = count - pos;
            if (available <= 0) {
                return -1;
            }
        }
        int copied = Math.min(available, length);
        System.arraycopy(bufferIfOpen(), pos, bytes, offset, copied);
        pos += copied;
        return copied;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        synchronized (this) {
            bufferIfOpen();
            Objects.checkFromIndexSize(offset, length, bytes.length);
            if (length == 0) {
                return 0;
            }
            int total = 0;
            for (;;) {
                int read = readOnce(bytes, offset + total, length - total);
                if (read <= 0) {
                    return total == 0 ? read : total;
                }
                total += read;
                if (total >= length) {
                    return total;
                }
                InputStream source = in;
                if (source != null && source.available() <= 0) {
                    return total;
                }
            }
        }
    }

    @Override
    public int read(byte[] bytes) throws IOException {
        return read(bytes, 0, bytes.length);
    }

    @Override
    public long skip(long count) throws IOException {
        synchronized (this) {
            bufferIfOpen();
            if (count <= 0) {
                return 0;
            }
            long available = this.count - pos;
            if (available <= 0) {
                if (markpos < 0) {
                    return sourceIfOpen().skip(count);
                }
                fill();
                available = this.count - pos;
                if (available <= 0) {
                    return 0;
                }
            }
            long skipped = Math.min(available, count);
            pos += (int) skipped;
            return skipped;
        }
    }

    @Override
    public int available() throws IOException {
        synchronized (this) {
            int buffered = count - pos;
            int available = sourceIfOpen().available();
            return buffered > Integer.MAX_VALUE - available ? Integer.MAX_VALUE : buffered + available;
        }
    }

    @Override
    public void mark(int limit) {
        synchronized (this) {
            marklimit = limit;
            markpos = pos;
        }
    }

    @Override
    public void reset() throws IOException {
        synchronized (this) {
            bufferIfOpen();
            if (markpos < 0) {
                throw new IOException("Resetting to invalid mark");
            }
            pos = markpos;
        }
    }

    @Override
    public boolean markSupported() {
        return true;
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
        InputStream source;
        synchronized (this) {
            if (buf == null) {
                return;
            }
            buf = null;
            source = in;
            in = null;
        }
        if (source != null) {
            source.close();
        }
    }

    /** Not for programs: the runtime's monitor of this stream (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
