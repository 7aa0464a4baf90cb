package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.net.io.Outcomes.assertSameOutcomes;

import java.io.BufferedWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class PicoBufferedWriterTest {
    @SafeVarargs
    private static String compare(int size, Outcomes.Step<BufferedWriter>... steps) {
        StringWriter jdkText = new StringWriter();
        StringWriter picoText = new StringWriter();
        String outcomes = assertSameOutcomes(new BufferedWriter(jdkText, size), new PicoBufferedWriter(picoText, size),
                steps);
        assertEquals(jdkText.toString(), picoText.toString());
        return outcomes + picoText;
    }

    @Test
    @SuppressWarnings("unchecked")
    void characters_reach_the_writer_when_the_buffer_fills_or_on_flush() {
        String result = compare(4, writer -> {
            writer.write("abc");
            return "three buffered";
        }, writer -> {
            writer.write('d');
            writer.write('e');
            return "one flushed";
        }, writer -> {
            writer.write("0123456789", 2, 5);
            writer.write(new char[] {'x', 'y', 'z', 'w', 'v'});
            writer.newLine();
            writer.append("app").append('!').append("skip-me", 5, 7);
            return "written";
        }, writer -> {
            writer.flush();
            return "flushed";
        });
        assertEquals("three buffered\none flushed\nwritten\nflushed\nabcde23456xyzwv" + System.lineSeparator()
                + "app!me", result);
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_closed_writer_flushes_once_and_then_refuses_writes() {
        compare(8, writer -> {
            writer.write("pending");
            writer.close();
            writer.close();
            return "closed";
        }, writer -> {
            writer.write('x');
            return "written";
        }, writer -> {
            writer.flush();
            return "flushed";
        }, writer -> {
            writer.write(new char[2], 1, 2);
            return "written";
        });
        compare(2, writer -> {
            writer.write(new char[2], 1, 2);
            return "written";
        }, writer -> {
            writer.write("abc", 0, -1);
            return "nothing written";
        });
    }
}
