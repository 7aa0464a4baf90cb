package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.net.io.Outcomes.assertSameOutcomes;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PicoInputStreamReaderTest {
    /** A stream that hands out one byte per read, so that every multi-byte character is split. */
    private static InputStream trickle(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                return super.read(buffer, offset, Math.min(length, 1));
            }

            @Override
            public synchronized int available() {
                return 0;
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static void compare(byte[] bytes, Charset charset, Outcomes.Step<InputStreamReader>... steps) {
        assertSameOutcomes(new InputStreamReader(trickle(bytes), charset),
                new PicoInputStreamReader(trickle(bytes), charset), steps);
    }

    @Test
    @SuppressWarnings("unchecked")
    void multi_byte_characters_split_across_reads_decode_as_the_jdk_decodes_them() {
        byte[] text = "a\u00e9\u4e2d\ud83d\ude00z".getBytes(StandardCharsets.UTF_8);
        compare(text, StandardCharsets.UTF_8, InputStreamReader::read, InputStreamReader::read,
                InputStreamReader::read, InputStreamReader::read, InputStreamReader::read, InputStreamReader::read,
                InputStreamReader::read, InputStreamReader::read);
        compare(text, StandardCharsets.UTF_8, reader -> {
            char[] all = new char[20];
            StringBuilder read = new StringBuilder();
            int count;
            while ((count = reader.read(all, 0, all.length)) > 0) {
                read.append(all, 0, count).append('|');
            }
            return read.append(count);
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void malformed_and_truncated_input_become_replacement_characters() {
        byte[] malformed = {'a', (byte) 0xff, 'b', (byte) 0xe4, (byte) 0xb8};
        compare(malformed, StandardCharsets.UTF_8, reader -> {
            char[] all = new char[20];
            return new String(all, 0, reader.read(all));
        }, InputStreamReader::read, InputStreamReader::read);
        compare("caf\u00e9".getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.ISO_8859_1,
                reader -> reader.read(new char[8], 0, 8), InputStreamReader::getEncoding, InputStreamReader::ready);
    }

    @Test
    @SuppressWarnings("unchecked")
    void empty_and_closed_readers_behave_as_the_jdk() {
        compare(new byte[0], StandardCharsets.UTF_8, InputStreamReader::read, reader -> reader.read(new char[2]),
                InputStreamReader::ready, reader -> reader.skip(4));
        compare("abc".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8, reader -> {
            reader.close();
            reader.close();
            return "closed";
        }, InputStreamReader::read, InputStreamReader::ready, InputStreamReader::getEncoding,
                reader -> reader.read(new char[2], 0, 2));
    }

    @Test
    void a_charset_name_the_jdk_does_not_know_is_refused_as_by_the_jdk() {
        assertEquals("java.io.UnsupportedEncodingException: no-such-charset",
                Outcomes.outcome(null, unused -> new PicoInputStreamReader(InputStream.nullInputStream(),
                        "no-such-charset")));
        assertEquals("UTF8", new PicoInputStreamReader(InputStream.nullInputStream(), StandardCharsets.UTF_8)
                .getEncoding());
    }

    @Test
    void the_byte_buffer_starts_small_and_grows_to_the_jdk_s_8_kb_as_reads_fill_it_and_decodes_the_same_text()
            throws Exception {
        String text = "0123456789\u00e9\u4e2d".repeat(2000);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        List<Integer> asked = new ArrayList<>();
        InputStream recording = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                asked.add(length);
                return super.read(buffer, offset, length);
            }
        };
        StringBuilder pico = new StringBuilder();
        StringBuilder jdk = new StringBuilder();
        for (var reader : List.of(new PicoInputStreamReader(recording, StandardCharsets.UTF_8),
                new InputStreamReader(new ByteArrayInputStream(bytes), StandardCharsets.UTF_8))) {
            StringBuilder read = reader instanceof PicoInputStreamReader ? pico : jdk;
            char[] chunk = new char[3000];
            int count;
            while ((count = reader.read(chunk, 0, chunk.length)) > 0) {
                read.append(chunk, 0, count);
            }
        }
        assertEquals(text, jdk.toString());
        assertEquals(text, pico.toString());
        // 512 bytes, then 2 KB, then 8 KB buffers (less what each read left undecoded: a split character)
        assertEquals(512, asked.get(0));
        assertEquals(true, asked.get(1) > 2048 - 4 && asked.get(1) <= 2048, asked.toString());
        assertEquals(true, asked.subList(2, asked.size() - 1).stream().allMatch(length -> length > 8192 - 4
                && length <= 8192), asked.toString());
    }
}
