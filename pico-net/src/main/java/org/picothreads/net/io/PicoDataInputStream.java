package org.picothreads.net.io;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.util.Objects;
import org.picothreads.runtime.internal.DirectDataInput;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The DataInputStream that rewritten code creates. DataInputStream's reading methods are final, so rewritten code
 * reaches the {@link DirectDataInput} methods here through the runtime's IoCalls; they read the inherited {@code in} with the
 * JDK's logic, so that a read suspending below is captured through them. Code that was not rewritten calls the
 * JDK's final methods, which work on the same stream.
 */
public class PicoDataInputStream extends DataInputStream implements DirectDataInput, MonitorHome {
    /** This stream's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** As {@link DataInputStream#DataInputStream(InputStream)}. */
    public PicoDataInputStream(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        return in.read();
    }

    @Override
    public long skip(long count) throws IOException {
        return in.skip(count);
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        return StreamLoops.readAllBytes(in);
    }

    @Override
    public byte[] readNBytes(int length) throws IOException {
        return StreamLoops.readNBytes(in, length);
    }

    @Override
    public int readNBytes(byte[] buffer, int offset, int length) throws IOException {
        return StreamLoops.readNBytes(in, buffer, offset, length);
    }

    @Override
    public void skipNBytes(long count) throws IOException {
        StreamLoops.skipNBytes(this, count);
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
        return StreamLoops.transferTo(in, out);
    }

    @Override
    public int readDirectly(byte[] buffer, int offset, int length) throws IOException {
        return in.read(buffer, offset, length);
    }

    @Override
    public void readFullyDirectly(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        int total = 0;
        while (total < length) {
            int count = in.read(buffer, offset + total, length - total);
            if (count < 0) {
                throw new EOFException();
            }
            total += count;
        }
    }

    @Override
    public int skipBytesDirectly(int count) throws IOException {
        int total = 0;
        int skipped;
        while (total < count && (skipped = (int) in.skip(count - total)) > 0) {
            total += skipped;
        }
        return total;
    }

    @Override
    public int readUnsignedByteDirectly() throws IOException {
        int value = in.read();
        if (value < 0) {
            throw new EOFException();
        }
        return value;
    }

    @Override
    public boolean readBooleanDirectly() throws IOException {
        return readUnsignedByteDirectly() != 0;
    }

    @Override
    public byte readByteDirectly() throws IOException {
        return (byte) readUnsignedByteDirectly();
    }

    @Override
    public short readShortDirectly() throws IOException {
        return (short) readBigEndian(2);
    }

    @Override
    public int readUnsignedShortDirectly() throws IOException {
        return (int) readBigEndian(2);
    }

    @Override
    public char readCharDirectly() throws IOException {
        return (char) readBigEndian(2);
    }

    @Override
    public int readIntDirectly() throws IOException {
        return (int) readBigEndian(4);
    }

    @Override
    public float readFloatDirectly() throws IOException {
        return Float.intBitsToFloat((int) readBigEndian(4));
    }

    @Override
    public double readDoubleDirectly() throws IOException {
        return Double.longBitsToDouble(readBigEndian(8));
    }

    @Override
    public long readBigEndian(int count) throws IOException {
        byte[] bytes = new byte[count];
        readFullyDirectly(bytes, 0, count);
        long value = 0;
        for (byte part : bytes) {
            value = (value << 8) | (part & 0xFF);
        }
        return value;
    }

    @Override
    public String readLineDirectly() throws IOException {
        StringBuilder line = new StringBuilder();
        int character;
        loop:
        for (;;) {
            character = in.read();
            switch (character) {
                case -1, '\n' -> {
                    break loop;
                }
                case '\r' -> {
                    int next = in.read();
                    if (next != '\n' && next != -1) {
                        if (!(in instanceof PushbackInputStream)) {
                            in = new PicoPushbackInputStream(in);
                        }
                        ((PushbackInputStream) in).unread(next);
                    }
                    break loop;
                }
                default -> line.append((char) character);
            }
        }
        if (character == -1 && line.length() == 0) {
            return null;
        }
        return line.toString();
    }

    @Override
    public String readUTFDirectly() throws IOException {
        int length = (int) readBigEndian(2);
        byte[] bytes = new byte[length];
        readFullyDirectly(bytes, 0, length);
        return ModifiedUtf8.decode(bytes, length);
    }

    /** Not for programs: the runtime's monitor of this stream (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
