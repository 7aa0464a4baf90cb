package org.picothreads.targets.io.writers;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Writers and print streams over a stream that sleeps on every write, used by several threads at once: println,
 * printf and format, append, automatic flushing, surrogate pairs split across writes, and checkError after a failing
 * stream and after close.
 */
public final class WritersOverSlowStream {
    private WritersOverSlowStream() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = {
            new Thread(() -> results[0] = guarded(WritersOverSlowStream::printWriter)),
            new Thread(() -> results[1] = guarded(WritersOverSlowStream::printStream)),
            new Thread(() -> results[2] = guarded(WritersOverSlowStream::bufferedWriter)),
        };
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n--\n", results);
    }

    private interface Writing {
        String write() throws IOException;
    }

    private static String guarded(Writing writing) {
        try {
            return writing.write();
        } catch (IOException failure) {
            return "failed: " + failure;
        }
    }

    private static String printWriter() {
        SlowOutputStream sink = new SlowOutputStream(false);
        PrintWriter writer = new PrintWriter(new BufferedWriter(new OutputStreamWriter(sink, StandardCharsets.UTF_8), 5),
                true);
        writer.println("caf\u00e9 \u4e2d\u6587");
        writer.printf(Locale.ROOT, "%d apples, %.2f pears, %s%n", 3, 2.5, "done");
        writer.print('x');
        writer.print(42L);
        writer.print(new char[] {'y', 'z'});
        writer.append("appended").append('!').append("0123456789", 2, 5);
        writer.println();
        writer.write("\ud83d");
        writer.write("\ude00 emoji");
        writer.println(true);
        String beforeFlush = "flushed so far " + sink.bytes.size();
        boolean error = writer.checkError();
        writer.close();
        writer.println("after close");
        return beforeFlush + "\nerror " + error + " after close " + writer.checkError() + "\n" + sink.text();
    }

    private static String printStream() {
        SlowOutputStream sink = new SlowOutputStream(false);
        PrintStream stream = new PrintStream(sink, false, StandardCharsets.UTF_8);
        stream.println("line \u00e9");
        stream.printf(Locale.ROOT, "%5s|%-5s|%x%n", "ab", "cd", 255);
        stream.print(1.5f);
        stream.print(' ');
        stream.print((Object) null);
        stream.write('\n');
        stream.append("tail");
        String written = sink.text();
        stream.close();
        SlowOutputStream failing = new SlowOutputStream(true);
        PrintStream failingStream = new PrintStream(failing, true);
        failingStream.println("lost");
        return written + "\nerror " + stream.checkError() + " failing " + failingStream.checkError();
    }

    private static String bufferedWriter() throws IOException {
        SlowOutputStream sink = new SlowOutputStream(false);
        Writer writer = new BufferedWriter(new OutputStreamWriter(sink, StandardCharsets.UTF_8), 4);
        writer.write("buffered ");
        writer.write(new char[] {'\u00e9', '\u00e8', ' '});
        writer.write("long enough to pass the buffer by", 5, 20);
        String beforeFlush = "before flush " + sink.bytes.size();
        writer.flush();
        String afterFlush = "after flush " + sink.bytes.size();
        writer.close();
        writer.close();
        try {
            writer.write("x");
        } catch (IOException closed) {
            return beforeFlush + " " + afterFlush + " " + closed.getMessage() + "\n" + sink.text();
        }
        return "write after close worked";
    }

    /** A stream that sleeps on every write and keeps the bytes, or fails every write. */
    static final class SlowOutputStream extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final boolean failing;

        SlowOutputStream(boolean failing) {
            this.failing = failing;
        }

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

        private void pause() throws IOException {
            try {
                Thread.sleep(1);
            } catch (InterruptedException interrupted) {
                throw new IOException(interrupted);
            }
            if (failing) {
                throw new IOException("broken pipe");
            }
        }

        String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
