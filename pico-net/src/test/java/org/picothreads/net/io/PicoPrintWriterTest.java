package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.net.io.Outcomes.assertSameOutcomes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class PicoPrintWriterTest {
    /** Records how many times it was flushed, and fails every write once broken. */
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

    @SafeVarargs
    private static String compare(boolean autoFlush, Outcomes.Step<PrintWriter>... steps) {
        CountingStream jdkStream = new CountingStream();
        CountingStream picoStream = new CountingStream();
        Outcomes.Step<PrintWriter> state = writer -> (writer == jdkWriter[0] ? jdkStream : picoStream).bytes.size()
                + " bytes " + (writer == jdkWriter[0] ? jdkStream : picoStream).flushes + " flushes";
        jdkWriter[0] = new PrintWriter(jdkStream, autoFlush);
        Outcomes.Step<PrintWriter>[] withState = new Outcomes.Step[steps.length * 2];
        for (int index = 0; index < steps.length; index++) {
            Outcomes.Step<PrintWriter> step = steps[index];
            withState[2 * index] = writer -> {
                if (step == BREAK) {
                    (writer == jdkWriter[0] ? jdkStream : picoStream).broken = true;
                    return "broken";
                }
                return step.apply(writer);
            };
            withState[2 * index + 1] = state;
        }
        String outcomes = assertSameOutcomes(jdkWriter[0], new PicoPrintWriter(picoStream, autoFlush), withState);
        assertEquals(jdkStream.bytes.toString(), picoStream.bytes.toString());
        return picoStream.bytes.toString();
    }

    private static final PrintWriter[] jdkWriter = new PrintWriter[1];
    private static final Outcomes.Step<PrintWriter> BREAK = writer -> "broken";

    @Test
    @SuppressWarnings("unchecked")
    void println_printf_and_print_write_the_same_text_and_flush_only_when_automatic_flushing_asks() {
        for (boolean autoFlush : new boolean[] {false, true}) {
            String text = compare(autoFlush, writer -> {
                writer.println("line");
                return "println";
            }, writer -> {
                writer.printf(Locale.ROOT, "%05.1f|%s|%n", 3.14159, null);
                writer.format("%s", "formatted");
                return "printf";
            }, writer -> {
                writer.print(true);
                writer.print('c');
                writer.print(7);
                writer.print(8L);
                writer.print(1.5f);
                writer.print(2.5d);
                writer.print(new char[] {'a', 'b'});
                writer.print((String) null);
                writer.print((Object) null);
                writer.println(new char[] {'z'});
                writer.println((Object) "object");
                writer.println(3.0);
                writer.println();
                return "prints";
            }, writer -> writer.append("x").append('y').append("abc", 1, 2).checkError(), writer -> {
                writer.write("hello", 1, 3);
                writer.write(new char[] {'q', 'r'}, 1, 1);
                writer.write('w');
                writer.flush();
                return "writes";
            });
            assertEquals("line" + System.lineSeparator() + "003.1|null|" + System.lineSeparator() + "formatted"
                    + "truec781.52.5abnullnullz" + System.lineSeparator() + "object" + System.lineSeparator() + "3.0"
                    + System.lineSeparator() + System.lineSeparator() + "xybellrw", text);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void errors_set_the_flag_and_never_throw_and_a_closed_writer_reports_an_error() {
        compare(true, BREAK, writer -> {
            writer.println("lost");
            return writer.checkError();
        }, writer -> {
            writer.close();
            writer.close();
            return writer.checkError();
        }, writer -> {
            writer.println("after close");
            writer.printf("%d", 1);
            return writer.checkError();
        });
        compare(false, writer -> {
            writer.printf("%d then %d", 1);
            return "not reached";
        }, PrintWriter::checkError);
    }

    @Test
    void a_writer_over_a_writer_keeps_its_lock_and_the_file_constructors_refuse_a_missing_directory() {
        StringWriter text = new StringWriter();
        PicoPrintWriter writer = new PicoPrintWriter(text);
        writer.print("direct");
        writer.flush();
        assertEquals("direct", text.toString());
        assertEquals("java.io.FileNotFoundException", Outcomes.outcome(null,
                unused -> new PicoPrintWriter("/no/such/directory/file.txt")).split(":")[0]);
        assertEquals("java.io.UnsupportedEncodingException: no-such-charset", Outcomes.outcome(null,
                unused -> new PicoPrintWriter("/no/such/directory/file.txt", "no-such-charset")));
    }
}
