package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.net.io.Outcomes.assertSameOutcomes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class PicoPrintStreamTest {
    /** Keeps the bytes, counts flushes, and fails every write once broken. */
    private static final class CountingStream extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int flushes;
        boolean broken;

        @Override
        public void write(int value) throws IOException {
            if (broken) {
                throw new IOException("broken");
            }
            bytes.write(value);
        }

        @Override
        public void flush() {
            flushes++;
        }
    }

    @Test
    void printing_writes_the_same_bytes_and_flushes_as_often_as_the_jdk() {
        for (boolean autoFlush : new boolean[] {false, true}) {
            CountingStream jdkStream = new CountingStream();
            CountingStream picoStream = new CountingStream();
            String outcomes = assertSameOutcomes(new PrintStream(jdkStream, autoFlush, StandardCharsets.UTF_8),
                    new PicoPrintStream(picoStream, autoFlush, StandardCharsets.UTF_8), stream -> {
                        stream.println("caf\u00e9");
                        stream.print("\ud83d");
                        stream.print("\ude00 no newline");
                        return "printed";
                    }, stream -> {
                        stream.print(true);
                        stream.print('c');
                        stream.print(1L);
                        stream.print(2.5f);
                        stream.print(new char[] {'a', '\n'});
                        stream.println(4.5d);
                        stream.println((Object) null);
                        stream.append("xyz", 0, 2).append('!').append(null);
                        stream.write('\n');
                        stream.write(new byte[] {65, 66, 67}, 1, 2);
                        stream.writeBytes(new byte[] {68});
                        return stream.checkError();
                    }, stream -> {
                        stream.close();
                        stream.close();
                        stream.println("after close");
                        return stream.checkError();
                    });
            assertEquals("printed\nfalse\ntrue\n", outcomes);
            assertArrayEquals(jdkStream.bytes.toByteArray(), picoStream.bytes.toByteArray());
            assertEquals(jdkStream.flushes, picoStream.flushes, "flushes with autoFlush " + autoFlush);
        }
    }

    @Test
    void printf_and_format_write_the_same_bytes_as_the_jdk() {
        for (boolean autoFlush : new boolean[] {false, true}) {
            ByteArrayOutputStream jdkBytes = new ByteArrayOutputStream();
            ByteArrayOutputStream picoBytes = new ByteArrayOutputStream();
            assertSameOutcomes(new PrintStream(jdkBytes, autoFlush, StandardCharsets.UTF_8),
                    new PicoPrintStream(picoBytes, autoFlush, StandardCharsets.UTF_8), stream -> {
                        stream.printf(Locale.ROOT, "%3d|%-4s|%n", 7, "\u00e9");
                        stream.format(Locale.ROOT, "%.3e", 12345.678);
                        return stream.checkError();
                    }, stream -> {
                        stream.printf("%s then %d", "partial");
                        return "not reached";
                    });
            assertArrayEquals(jdkBytes.toByteArray(), picoBytes.toByteArray());
            assertEquals("  7|\u00e9   |" + System.lineSeparator() + "1.235e+04partial then ",
                    picoBytes.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void a_failing_stream_sets_the_error_flag_and_never_throws() {
        CountingStream jdkStream = new CountingStream();
        CountingStream picoStream = new CountingStream();
        jdkStream.broken = true;
        picoStream.broken = true;
        assertSameOutcomes(new PrintStream(jdkStream, true), new PicoPrintStream(picoStream, true), stream -> {
            stream.println("lost");
            return stream.checkError();
        }, stream -> {
            stream.printf("%d and %d", 1);
            return "not reached";
        });
    }

    @Test
    void a_print_stream_over_a_print_stream_reports_the_inner_error() {
        CountingStream broken = new CountingStream();
        broken.broken = true;
        PicoPrintStream inner = new PicoPrintStream(broken, true);
        inner.print("x");
        assertEquals(true, new PicoPrintStream(inner).checkError());
    }
}
