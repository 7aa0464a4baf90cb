package org.picothreads.targets.io.data;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.util.Arrays;

/**
 * Data streams over buffered streams over slow streams, in several threads at once: every type written and read
 * back, readUTF and writeUTF with multi-byte characters, readFully, the end of the stream, a pushback stream's
 * unread, and a buffered stream's mark and reset.
 */
public final class DataStreamsOverSlowStream {
    private DataStreamsOverSlowStream() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = {
            new Thread(() -> results[0] = guarded(DataStreamsOverSlowStream::roundTrip)),
            new Thread(() -> results[1] = guarded(DataStreamsOverSlowStream::pushback)),
            new Thread(() -> results[2] = guarded(DataStreamsOverSlowStream::markAndReset)),
        };
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n--\n", results);
    }

    private interface Work {
        String run() throws IOException;
    }

    private static String guarded(Work work) {
        try {
            return work.run();
        } catch (IOException failure) {
            return "failed: " + failure;
        }
    }

    private static String roundTrip() throws IOException {
        SlowOutputStream sink = new SlowOutputStream();
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(sink, 6));
        out.writeBoolean(true);
        out.writeByte(-3);
        out.writeShort(-12345);
        out.writeChar('\u4e2d');
        out.writeInt(0x12345678);
        out.writeLong(-987654321012345L);
        out.writeFloat(3.25f);
        out.writeDouble(-1.0e-7);
        out.writeUTF("h\u00e9llo \u4e2d\u6587 \u0000 \ud83d\ude00");
        out.writeBytes("ascii");
        out.writeChars("wide");
        out.write(new byte[] {9, 8, 7});
        out.write(200);
        int size = out.size();
        out.flush();
        out.close();
        byte[] written = sink.bytes.toByteArray();
        DataInputStream in = new DataInputStream(new BufferedInputStream(new SlowInputStream(written, 3), 5));
        StringBuilder report = new StringBuilder("size " + size + " bytes " + written.length + "\n");
        report.append(in.readBoolean()).append(' ').append(in.readByte()).append(' ').append(in.readShort())
                .append(' ').append(in.readChar()).append(' ').append(Integer.toHexString(in.readInt()))
                .append(' ').append(in.readLong()).append(' ').append(in.readFloat()).append(' ')
                .append(in.readDouble()).append('\n').append(in.readUTF()).append('\n');
        byte[] ascii = new byte[5];
        in.readFully(ascii);
        report.append(new String(ascii, java.nio.charset.StandardCharsets.US_ASCII)).append(' ');
        report.append(in.readChar()).append(in.readChar()).append(in.readChar()).append(in.readChar()).append(' ');
        report.append(in.readUnsignedByte()).append(in.readUnsignedByte()).append(in.readUnsignedByte()).append(' ');
        report.append(in.readUnsignedByte()).append(' ').append(in.read()).append(' ');
        try {
            in.readInt();
        } catch (EOFException end) {
            report.append("end of stream");
        }
        return report.toString();
    }

    private static String pushback() throws IOException {
        PushbackInputStream in = new PushbackInputStream(new SlowInputStream("pushback text".getBytes(), 2), 4);
        StringBuilder report = new StringBuilder();
        byte[] start = new byte[4];
        int count = in.read(start);
        report.append(new String(start, 0, count)).append('|');
        in.unread(start, 1, count - 1);
        in.unread('X');
        try {
            in.unread('Y');
        } catch (IOException full) {
            report.append(full.getMessage()).append('|');
        }
        report.append(new String(in.readAllBytes())).append('|').append(in.read());
        in.close();
        try {
            in.read();
        } catch (IOException closed) {
            report.append('|').append(closed.getMessage());
        }
        return report.toString();
    }

    private static String markAndReset() throws IOException {
        BufferedInputStream in = new BufferedInputStream(new SlowInputStream("0123456789abcdef".getBytes(), 3), 4);
        StringBuilder report = new StringBuilder();
        report.append((char) in.read());
        in.mark(6);
        byte[] chunk = new byte[5];
        report.append(new String(chunk, 0, in.readNBytes(chunk, 0, 5))).append('|');
        in.reset();
        report.append(new String(in.readNBytes(3))).append('|').append(in.skip(2)).append('|');
        in.mark(1);
        report.append(new String(in.readNBytes(6))).append('|');
        try {
            in.reset();
        } catch (IOException invalid) {
            report.append(invalid.getMessage());
        }
        report.append('|').append(Arrays.toString(in.readAllBytes()));
        return report.toString();
    }

    /** A stream over bytes that sleeps before each read and hands out at most a few bytes at a time. */
    static final class SlowInputStream extends InputStream {
        private final ByteArrayInputStream bytes;
        private final int chunk;

        SlowInputStream(byte[] content, int chunk) {
            this.bytes = new ByteArrayInputStream(content);
            this.chunk = chunk;
        }

        @Override
        public int read() throws IOException {
            pause();
            return bytes.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            pause();
            return bytes.read(buffer, offset, Math.min(length, chunk));
        }
    }

    /** A stream that sleeps on every write and keeps the bytes. */
    static final class SlowOutputStream extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(int value) throws IOException {
            pause();
            bytes.write(value);
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            pause();
            bytes.write(buffer, offset, length);
        }
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(1);
        } catch (InterruptedException interrupted) {
            throw new IOException(interrupted);
        }
    }
}
