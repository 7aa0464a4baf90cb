package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.net.io.Outcomes.assertSameOutcomes;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.IoCalls;

/** The data streams' final methods are reached through the runtime's IoCalls, as rewritten code reaches them. */
class DataStreamsTest {
    private static final String UNICODE = "h\u00e9llo \u4e2d\u6587 \u0000 \ud83d\ude00 end";

    private static void writeEverything(DataOutputStream out, boolean throughIoCalls) throws IOException {
        if (throughIoCalls) {
            IoCalls.writeBoolean(out, true);
            IoCalls.writeByte(out, 0x1ff);
            IoCalls.writeShort(out, -2);
            IoCalls.writeChar(out, '\u4e2d');
            IoCalls.writeInt(out, Integer.MIN_VALUE);
            IoCalls.writeLong(out, Long.MAX_VALUE - 5);
            IoCalls.writeFloat(out, Float.NaN);
            IoCalls.writeDouble(out, -0.0);
            IoCalls.writeUTF(out, UNICODE);
            IoCalls.writeBytes(out, "bytes\u0141");
            IoCalls.writeChars(out, "ch");
            IoCalls.write((java.io.DataOutput) out, new byte[] {1, 2});
            IoCalls.write((java.io.DataOutput) out, 3);
        } else {
            out.writeBoolean(true);
            out.writeByte(0x1ff);
            out.writeShort(-2);
            out.writeChar('\u4e2d');
            out.writeInt(Integer.MIN_VALUE);
            out.writeLong(Long.MAX_VALUE - 5);
            out.writeFloat(Float.NaN);
            out.writeDouble(-0.0);
            out.writeUTF(UNICODE);
            out.writeBytes("bytes\u0141");
            out.writeChars("ch");
            out.write(new byte[] {1, 2});
            out.write(3);
        }
    }

    @Test
    void every_type_is_written_as_the_jdk_writes_it_and_counted_in_size() throws IOException {
        ByteArrayOutputStream jdkBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream picoBytes = new ByteArrayOutputStream();
        DataOutputStream jdk = new DataOutputStream(jdkBytes);
        PicoDataOutputStream pico = new PicoDataOutputStream(picoBytes);
        writeEverything(jdk, false);
        writeEverything(pico, true);
        assertArrayEquals(jdkBytes.toByteArray(), picoBytes.toByteArray());
        assertEquals(jdk.size(), pico.size());
        assertEquals(72, pico.size());
    }

    @Test
    @SuppressWarnings("unchecked")
    void every_type_is_read_back_as_the_jdk_reads_it_up_to_the_end_of_the_stream() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        writeEverything(new DataOutputStream(bytes), false);
        byte[] written = bytes.toByteArray();
        String values = assertSameOutcomes(new DataInputStream(new ByteArrayInputStream(written)),
                new PicoDataInputStream(new ByteArrayInputStream(written)),
                IoCalls::readBoolean, IoCalls::readByte, IoCalls::readShort, IoCalls::readChar, IoCalls::readInt,
                IoCalls::readLong, IoCalls::readFloat, IoCalls::readDouble, IoCalls::readUTF, in -> {
                    byte[] six = new byte[6];
                    IoCalls.readFully(in, six);
                    return six;
                }, IoCalls::readChar, IoCalls::readChar, IoCalls::readUnsignedByte, IoCalls::readUnsignedShort,
                in -> IoCalls.read(in, new byte[4]), IoCalls::readInt, IoCalls::readUTF, in -> IoCalls.skipBytes(in, 3),
                in -> {
                    IoCalls.readFully(in, new byte[1], 0, 1);
                    return "read";
                });
        assertEquals("true\n-1\n-2\n\u4e2d\n-2147483648\n9223372036854775802\nNaN\n-0.0\n" + UNICODE
                + "\n[98, 121, 116, 101, 115, 65]\nc\nh\n1\n515\n-1\njava.io.EOFException: null\n"
                + "java.io.EOFException: null\n0\njava.io.EOFException: null\n", values);
    }

    @Test
    @SuppressWarnings({"unchecked", "deprecation"})
    void readLine_handles_each_terminator_and_readUTF_refuses_malformed_input_with_the_jdk_message() {
        byte[] lines = "one\rtwo\r\nthree\n\rfour".getBytes();
        assertSameOutcomes(new DataInputStream(new ByteArrayInputStream(lines)),
                new PicoDataInputStream(new ByteArrayInputStream(lines)), IoCalls::readLine, IoCalls::readLine,
                IoCalls::readLine, IoCalls::readLine, IoCalls::readLine, IoCalls::readLine, IoCalls::readByte);
        for (byte[] malformed : new byte[][] {{0, 2, (byte) 0xc3, 'a'}, {0, 1, (byte) 0xc3}, {0, 3, (byte) 0xe4,
                (byte) 0xb8, 'x'}, {0, 1, (byte) 0x80}, {0, 4, 'a'}}) {
            assertSameOutcomes(new DataInputStream(new ByteArrayInputStream(malformed)),
                    new PicoDataInputStream(new ByteArrayInputStream(malformed)), IoCalls::readUTF);
            assertSameOutcomes(new DataInputStream(new ByteArrayInputStream(malformed)),
                    new PicoDataInputStream(new ByteArrayInputStream(malformed)), IoCalls::readUTFFrom);
        }
    }

    @Test
    void writeUTF_refuses_a_string_longer_than_65535_encoded_bytes_with_the_jdk_message() {
        String tooLong = "\u4e2d".repeat(30000);
        assertEquals(Outcomes.outcome(new DataOutputStream(new ByteArrayOutputStream()), out -> {
            out.writeUTF(tooLong);
            return "written";
        }), Outcomes.outcome(new PicoDataOutputStream(new ByteArrayOutputStream()), out -> {
            IoCalls.writeUTF(out, tooLong);
            return "written";
        }));
    }
}
