package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.net.io.Outcomes.assertSameOutcomes;

import java.io.BufferedReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.CharBuffer;
import org.junit.jupiter.api.Test;

class PicoBufferedReaderTest {
    private static final String MIXED = "one\rtwo\r\nthree\n\r\n\rfour\r";

    private static void compare(String text, int size, Outcomes.Step<BufferedReader>... steps) {
        assertSameOutcomes(new BufferedReader(new StringReader(text), size),
                new PicoBufferedReader(new StringReader(text), size), steps);
    }

    @Test
    @SuppressWarnings("unchecked")
    void readLine_splits_at_each_terminator_and_returns_the_last_line_without_one() {
        String lines = assertSameOutcomes(new BufferedReader(new StringReader(MIXED + "last"), 3),
                new PicoBufferedReader(new StringReader(MIXED + "last"), 3),
                BufferedReader::readLine, BufferedReader::readLine, BufferedReader::readLine, BufferedReader::readLine,
                BufferedReader::readLine, BufferedReader::readLine, BufferedReader::readLine, BufferedReader::readLine,
                BufferedReader::readLine);
        assertEquals("one\ntwo\nthree\n\n\nfour\nlast\nnull\nnull\n", lines);
    }

    @Test
    @SuppressWarnings("unchecked")
    void single_character_reads_skip_the_line_feed_after_a_line_ending_in_carriage_return() {
        for (int size = 1; size <= 5; size++) {
            compare(MIXED, size, BufferedReader::readLine, BufferedReader::read, BufferedReader::readLine,
                    BufferedReader::read, BufferedReader::read, BufferedReader::readLine, BufferedReader::readLine,
                    reader -> reader.skip(2), BufferedReader::read, BufferedReader::ready, BufferedReader::read);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void array_reads_mark_reset_and_skip_behave_as_the_jdk() {
        String text = "abcdefghijklmnopqrstuvwxyz\nsecond line\r\nthird";
        for (int size = 1; size <= 9; size += 2) {
            compare(text, size,
                    reader -> {
                        char[] chunk = new char[4];
                        return new String(chunk, 0, reader.read(chunk, 0, 4));
                    },
                    reader -> {
                        reader.mark(5);
                        return reader.read();
                    },
                    reader -> reader.skip(3), reader -> {
                        reader.reset();
                        return reader.read();
                    },
                    reader -> {
                        reader.mark(1);
                        return reader.readLine();
                    },
                    reader -> {
                        reader.reset();
                        return "reset";
                    },
                    reader -> reader.read(CharBuffer.allocate(100)),
                    reader -> reader.read(new char[10], 0, 0),
                    reader -> reader.skip(-1),
                    reader -> {
                        reader.mark(-1);
                        return "marked";
                    },
                    reader -> reader.read(new char[3], 2, 2));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void an_empty_input_gives_end_of_stream_everywhere() {
        compare("", 4, BufferedReader::readLine, BufferedReader::read, reader -> reader.read(new char[4], 0, 4),
                reader -> reader.skip(10), BufferedReader::ready, BufferedReader::markSupported, reader -> {
                    reader.reset();
                    return "reset";
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_closed_reader_refuses_every_read_and_closes_again_quietly() {
        compare("text", 4, reader -> {
            reader.close();
            reader.close();
            return "closed";
        }, BufferedReader::readLine, BufferedReader::read, BufferedReader::ready, reader -> reader.skip(1),
                reader -> {
                    reader.mark(1);
                    return "marked";
                });
    }

    @Test
    void a_buffer_size_below_one_is_refused_and_transferTo_copies_the_rest() throws Exception {
        assertEquals("java.lang.IllegalArgumentException: Buffer size <= 0",
                Outcomes.outcome(null, unused -> new PicoBufferedReader(Reader.nullReader(), 0)));
        PicoBufferedReader reader = new PicoBufferedReader(new StringReader("head\nrest of it"), 2);
        reader.readLine();
        java.io.StringWriter rest = new java.io.StringWriter();
        assertEquals(10, reader.transferTo(rest));
        assertEquals("rest of it", rest.toString());
    }
}
