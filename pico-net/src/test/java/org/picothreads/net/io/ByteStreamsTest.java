package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.net.io.Outcomes.assertSameOutcomes;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PushbackInputStream;
import org.junit.jupiter.api.Test;

/** PicoBufferedInputStream, PicoPushbackInputStream and PicoBufferedOutputStream against the JDK's. */
class ByteStreamsTest {
    private static final byte[] DIGITS = "0123456789abcdefghij".getBytes();

    /** A stream that hands out at most three bytes per read and reports nothing available. */
    private static InputStream slow(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                return super.read(buffer, offset, Math.min(length, 3));
            }

            @Override
            public synchronized int available() {
                return 0;
            }
        };
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_buffered_input_stream_reads_marks_resets_and_skips_as_the_jdk() {
        for (int size = 1; size <= 8; size++) {
            assertSameOutcomes(new BufferedInputStream(slow(DIGITS), size), new PicoBufferedInputStream(slow(DIGITS),
                    size), InputStream::read, in -> {
                        in.mark(4);
                        return in.readNBytes(5);
                    }, in -> {
                        in.reset();
                        return in.read(new byte[7], 0, 7);
                    }, in -> in.skip(2), in -> {
                        in.mark(20);
                        return in.readNBytes(3);
                    }, in -> {
                        in.reset();
                        return in.available();
                    }, InputStream::readAllBytes, InputStream::read, in -> in.read(new byte[2], 0, 0), in -> {
                        in.close();
                        in.close();
                        return "closed";
                    }, InputStream::read, InputStream::available, in -> {
                        in.reset();
                        return "reset";
                    });
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_pushback_stream_returns_unread_bytes_first_and_refuses_more_than_its_buffer() {
        assertSameOutcomes(new PushbackInputStream(slow(DIGITS), 3), new PicoPushbackInputStream(slow(DIGITS), 3),
                in -> in.readNBytes(4), in -> {
                    in.unread(new byte[] {'x', 'y'});
                    in.unread('z');
                    return in.available();
                }, in -> {
                    in.unread('w');
                    return "unread";
                }, in -> in.read(new byte[5], 0, 5), in -> in.skip(4), InputStream::read, InputStream::markSupported,
                in -> {
                    in.reset();
                    return "reset";
                }, InputStream::readAllBytes, InputStream::read, in -> {
                    in.close();
                    in.close();
                    return "closed";
                }, InputStream::read, in -> {
                    in.unread(1);
                    return "unread";
                });
    }

    @Test
    void a_buffered_output_stream_writes_when_full_on_flush_and_on_close() throws Exception {
        ByteArrayOutputStream jdkBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream picoBytes = new ByteArrayOutputStream();
        BufferedOutputStream jdk = new BufferedOutputStream(jdkBytes, 4);
        BufferedOutputStream pico = new PicoBufferedOutputStream(picoBytes, 4);
        for (BufferedOutputStream out : new BufferedOutputStream[] {jdk, pico}) {
            out.write(1);
            out.write(new byte[] {2, 3, 4});
        }
        assertEquals(jdkBytes.size(), picoBytes.size());
        for (BufferedOutputStream out : new BufferedOutputStream[] {jdk, pico}) {
            out.write(new byte[] {5, 6, 7, 8, 9, 10}, 1, 5);
            out.write(11);
            out.flush();
            out.write(12);
            out.close();
            out.close();
        }
        assertArrayEquals(jdkBytes.toByteArray(), picoBytes.toByteArray());
        assertArrayEquals(new byte[] {1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12}, picoBytes.toByteArray());
    }
}
