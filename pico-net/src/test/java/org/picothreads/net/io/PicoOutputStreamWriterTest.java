package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.net.io.Outcomes.assertSameOutcomes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PicoOutputStreamWriterTest {
    @SafeVarargs
    private static String compare(Charset charset, Outcomes.Step<OutputStreamWriter>... steps) {
        ByteArrayOutputStream jdkBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream picoBytes = new ByteArrayOutputStream();
        assertSameOutcomes(new OutputStreamWriter(jdkBytes, charset), new PicoOutputStreamWriter(picoBytes, charset),
                steps);
        assertArrayEquals(jdkBytes.toByteArray(), picoBytes.toByteArray());
        return picoBytes.toString(charset);
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_surrogate_pair_split_across_writes_is_encoded_as_one_character() {
        String written = compare(StandardCharsets.UTF_8, writer -> {
            writer.write("a\ud83d");
            return "half";
        }, writer -> {
            writer.write('\ude00');
            writer.write("\u00e9\u4e2d");
            writer.flush();
            return "flushed";
        }, writer -> {
            writer.write("\ud83d");
            writer.close();
            return "closed with a lone high surrogate";
        });
        assertEquals("a\ud83d\ude00\u00e9\u4e2d?", written);
    }

    @Test
    @SuppressWarnings("unchecked")
    void unmappable_characters_become_the_charset_replacement_and_closed_writers_refuse_writes() {
        compare(StandardCharsets.US_ASCII, writer -> {
            writer.write("caf\u00e9", 1, 3);
            writer.append("xyz", 1, 2).append('!').append(null);
            writer.write(new char[] {'a', 'b', 'c'}, 1, 2);
            return writer.getEncoding();
        }, writer -> {
            writer.close();
            writer.close();
            return writer.getEncoding();
        }, writer -> {
            writer.write("late");
            return "written";
        }, writer -> {
            writer.flush();
            return "flushed";
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void long_text_fills_several_byte_buffers() {
        String text = "\u4e2d\u6587 text ".repeat(3000);
        assertEquals(text, compare(StandardCharsets.UTF_8, writer -> {
            writer.write(text);
            writer.flush();
            return "flushed";
        }, writer -> {
            writer.write(new char[4], 3, 2);
            return "written";
        }));
    }

    @Test
    void bytes_reach_the_stream_in_the_writes_a_full_eight_kilobyte_buffer_makes_though_it_starts_small()
            throws IOException {
        List<Integer> writes = new ArrayList<>();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        OutputStream recording = new OutputStream() {
            @Override
            public void write(int value) {
                writes.add(1);
                received.write(value);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                writes.add(length);
                received.write(bytes, offset, length);
            }
        };
        PicoOutputStreamWriter writer = new PicoOutputStreamWriter(recording, StandardCharsets.UTF_8);
        writer.write("a".repeat(300));
        writer.flush();
        String line = "0123456789".repeat(10);
        for (int index = 0; index < 200; index++) {
            writer.write(line);
        }
        writer.write("\u00e9".repeat(5000));
        writer.close();
        assertEquals(List.of(300, 8192, 8192, 8192, 5424), writes);
        assertEquals("a".repeat(300) + line.repeat(200) + "\u00e9".repeat(5000),
                received.toString(StandardCharsets.UTF_8));
    }
}
