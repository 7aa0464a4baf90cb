package org.picothreads.targets.io.readers;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * Readers over a stream that sleeps every few bytes, read by several threads at once: readLine over mixed line
 * terminators with a last line that has none, multi-byte UTF-8 split across slow reads, single-character reads,
 * mark and reset, skip, and reading after close.
 */
public final class ReadersOverSlowStream {
    private static final String TEXT = "first line\r\nsecond \u00e9\u00e8 line\rthird \u4e2d\u6587 line\n\nfifth \ud83d\ude00"
            + " emoji\r\rlast without terminator";

    private ReadersOverSlowStream() {
    }

    public static String run() throws Exception {
        String[] results = new String[4];
        Thread[] threads = {
            new Thread(() -> results[0] = guarded(ReadersOverSlowStream::lines)),
            new Thread(() -> results[1] = guarded(ReadersOverSlowStream::characters)),
            new Thread(() -> results[2] = guarded(ReadersOverSlowStream::markResetAndSkip)),
            new Thread(() -> results[3] = guarded(ReadersOverSlowStream::closedAndEmpty)),
        };
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n--\n", results);
    }

    private interface Reading {
        String read() throws IOException;
    }

    private static String guarded(Reading reading) {
        try {
            return reading.read();
        } catch (IOException failure) {
            return "failed: " + failure;
        }
    }

    private static BufferedReader slowReader(int bufferSize) {
        return new BufferedReader(new InputStreamReader(new SlowInputStream(TEXT.getBytes(StandardCharsets.UTF_8), 3),
                StandardCharsets.UTF_8), bufferSize);
    }

    private static String lines() throws IOException {
        StringBuilder report = new StringBuilder();
        try (BufferedReader reader = slowReader(7)) {
            String line;
            while ((line = reader.readLine()) != null) {
                report.append('[').append(line).append("]\n");
            }
            report.append("after end: ").append(reader.readLine());
        }
        return report.toString();
    }

    private static String characters() throws IOException {
        StringBuilder report = new StringBuilder();
        Reader reader = new InputStreamReader(new SlowInputStream(TEXT.getBytes(StandardCharsets.UTF_8), 2),
                StandardCharsets.UTF_8);
        int character;
        while ((character = reader.read()) != -1) {
            report.append(Integer.toHexString(character)).append(' ');
        }
        report.append("end ").append(reader.read());
        reader.close();
        return report.toString();
    }

    private static String markResetAndSkip() throws IOException {
        StringBuilder report = new StringBuilder();
        BufferedReader reader = slowReader(8);
        reader.mark(40);
        report.append(reader.readLine()).append('|').append(reader.readLine()).append('|');
        reader.reset();
        report.append(reader.readLine()).append('|');
        report.append("skipped ").append(reader.skip(5)).append('|');
        char[] chunk = new char[6];
        int count = reader.read(chunk, 0, chunk.length);
        report.append(new String(chunk, 0, count)).append('|');
        reader.mark(2);
        reader.readLine();
        reader.readLine();
        try {
            reader.reset();
            report.append("reset beyond the limit worked");
        } catch (IOException invalid) {
            report.append(invalid.getMessage());
        }
        reader.close();
        return report.toString();
    }

    private static String closedAndEmpty() throws IOException {
        StringBuilder report = new StringBuilder();
        BufferedReader empty = new BufferedReader(new InputStreamReader(new SlowInputStream(new byte[0], 1)));
        report.append("empty: ").append(empty.readLine()).append(' ').append(empty.read()).append('\n');
        empty.close();
        empty.close();
        try {
            empty.readLine();
        } catch (IOException closed) {
            report.append("closed: ").append(closed.getMessage()).append('\n');
        }
        BufferedReader partial = new BufferedReader(new InputStreamReader(
                new SlowInputStream(new byte[] {'a', 'b', (byte) 0xe4, (byte) 0xb8}, 1), StandardCharsets.UTF_8));
        report.append("malformed end: ").append(partial.readLine()).append(' ').append(partial.readLine());
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

        private static void pause() throws IOException {
            try {
                Thread.sleep(1);
            } catch (InterruptedException interrupted) {
                throw new IOException(interrupted);
            }
        }
    }
}
