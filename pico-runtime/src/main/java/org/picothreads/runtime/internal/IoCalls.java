package org.picothreads.runtime.internal;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.CharBuffer;
import java.nio.channels.Channel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.Locale;

/**
 * Where rewritten calls of the java.io decorators' reading and writing methods go, so that the transformer knows
 * them as calls that can suspend: each method makes exactly one call, the same method on the receiver, and returns
 * its value unchanged (a lazy resume hands that value straight to the rewritten caller), so that
 * virtual dispatch reaches pico-net's decorator (or the JDK's own method for objects that code which was not
 * rewritten created); DataInputStream's and DataOutputStream's final methods go to pico-net's data streams through
 * {@link DirectDataInput} and {@link DirectDataOutput}. Like {@link StreamCalls}, these frames keep nothing across a
 * suspension, so the marker lists them as capturable, and a program that prints but never uses pico-net needs only
 * pico-runtime.
 */
@Rewritten({
    "read(Ljava/io/Reader;)I",
    "read(Ljava/io/Reader;[C)I",
    "read(Ljava/io/Reader;[CII)I",
    "read(Ljava/io/Reader;Ljava/nio/CharBuffer;)I",
    "skip(Ljava/io/Reader;J)J",
    "transferTo(Ljava/io/Reader;Ljava/io/Writer;)J",
    "readLine(Ljava/io/BufferedReader;)Ljava/lang/String;",
    "read(Ljava/io/DataInputStream;[B)I",
    "read(Ljava/io/DataInputStream;[BII)I",
    "skipNBytes(Ljava/io/InputStream;J)V",
    "transferTo(Ljava/io/InputStream;Ljava/io/OutputStream;)J",
    "readFully(Ljava/io/DataInput;[B)V",
    "readFully(Ljava/io/DataInput;[BII)V",
    "skipBytes(Ljava/io/DataInput;I)I",
    "readBoolean(Ljava/io/DataInput;)Z",
    "readByte(Ljava/io/DataInput;)B",
    "readUnsignedByte(Ljava/io/DataInput;)I",
    "readShort(Ljava/io/DataInput;)S",
    "readUnsignedShort(Ljava/io/DataInput;)I",
    "readChar(Ljava/io/DataInput;)C",
    "readInt(Ljava/io/DataInput;)I",
    "readLong(Ljava/io/DataInput;)J",
    "readFloat(Ljava/io/DataInput;)F",
    "readDouble(Ljava/io/DataInput;)D",
    "readLine(Ljava/io/DataInput;)Ljava/lang/String;",
    "readUTF(Ljava/io/DataInput;)Ljava/lang/String;",
    "write(Ljava/io/Writer;I)V",
    "write(Ljava/io/Writer;[C)V",
    "write(Ljava/io/Writer;[CII)V",
    "write(Ljava/io/Writer;Ljava/lang/String;)V",
    "write(Ljava/io/Writer;Ljava/lang/String;II)V",
    "append(Ljava/io/Writer;Ljava/lang/CharSequence;)Ljava/io/Writer;",
    "append(Ljava/io/Writer;Ljava/lang/CharSequence;II)Ljava/io/Writer;",
    "append(Ljava/io/Writer;C)Ljava/io/Writer;",
    "flush(Ljava/io/Writer;)V",
    "close(Ljava/io/Writer;)V",
    "newLine(Ljava/io/BufferedWriter;)V",
    "close(Ljava/io/OutputStream;)V",
    "close(Ljava/nio/channels/Channel;)V",
    "close(Ljava/io/Closeable;)V",
    "close(Ljava/lang/AutoCloseable;)V",
    "write(Ljava/io/DataOutput;I)V",
    "write(Ljava/io/DataOutput;[B)V",
    "write(Ljava/io/DataOutput;[BII)V",
    "writeBoolean(Ljava/io/DataOutput;Z)V",
    "writeByte(Ljava/io/DataOutput;I)V",
    "writeShort(Ljava/io/DataOutput;I)V",
    "writeChar(Ljava/io/DataOutput;I)V",
    "writeInt(Ljava/io/DataOutput;I)V",
    "writeLong(Ljava/io/DataOutput;J)V",
    "writeFloat(Ljava/io/DataOutput;F)V",
    "writeDouble(Ljava/io/DataOutput;D)V",
    "writeBytes(Ljava/io/DataOutput;Ljava/lang/String;)V",
    "writeChars(Ljava/io/DataOutput;Ljava/lang/String;)V",
    "writeUTF(Ljava/io/DataOutput;Ljava/lang/String;)V",
    "print(Ljava/io/PrintWriter;Z)V",
    "print(Ljava/io/PrintWriter;C)V",
    "print(Ljava/io/PrintWriter;I)V",
    "print(Ljava/io/PrintWriter;J)V",
    "print(Ljava/io/PrintWriter;F)V",
    "print(Ljava/io/PrintWriter;D)V",
    "print(Ljava/io/PrintWriter;[C)V",
    "print(Ljava/io/PrintWriter;Ljava/lang/String;)V",
    "print(Ljava/io/PrintWriter;Ljava/lang/Object;)V",
    "println(Ljava/io/PrintWriter;)V",
    "println(Ljava/io/PrintWriter;Z)V",
    "println(Ljava/io/PrintWriter;C)V",
    "println(Ljava/io/PrintWriter;I)V",
    "println(Ljava/io/PrintWriter;J)V",
    "println(Ljava/io/PrintWriter;F)V",
    "println(Ljava/io/PrintWriter;D)V",
    "println(Ljava/io/PrintWriter;[C)V",
    "println(Ljava/io/PrintWriter;Ljava/lang/String;)V",
    "println(Ljava/io/PrintWriter;Ljava/lang/Object;)V",
    "printf(Ljava/io/PrintWriter;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintWriter;",
    "printf(Ljava/io/PrintWriter;Ljava/util/Locale;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintWriter;",
    "format(Ljava/io/PrintWriter;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintWriter;",
    "format(Ljava/io/PrintWriter;Ljava/util/Locale;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintWriter;",
    "append(Ljava/io/PrintWriter;Ljava/lang/CharSequence;)Ljava/io/PrintWriter;",
    "append(Ljava/io/PrintWriter;Ljava/lang/CharSequence;II)Ljava/io/PrintWriter;",
    "append(Ljava/io/PrintWriter;C)Ljava/io/PrintWriter;",
    "checkError(Ljava/io/PrintWriter;)Z",
    "print(Ljava/io/PrintStream;Z)V",
    "print(Ljava/io/PrintStream;C)V",
    "print(Ljava/io/PrintStream;I)V",
    "print(Ljava/io/PrintStream;J)V",
    "print(Ljava/io/PrintStream;F)V",
    "print(Ljava/io/PrintStream;D)V",
    "print(Ljava/io/PrintStream;[C)V",
    "print(Ljava/io/PrintStream;Ljava/lang/String;)V",
    "print(Ljava/io/PrintStream;Ljava/lang/Object;)V",
    "println(Ljava/io/PrintStream;)V",
    "println(Ljava/io/PrintStream;Z)V",
    "println(Ljava/io/PrintStream;C)V",
    "println(Ljava/io/PrintStream;I)V",
    "println(Ljava/io/PrintStream;J)V",
    "println(Ljava/io/PrintStream;F)V",
    "println(Ljava/io/PrintStream;D)V",
    "println(Ljava/io/PrintStream;[C)V",
    "println(Ljava/io/PrintStream;Ljava/lang/String;)V",
    "println(Ljava/io/PrintStream;Ljava/lang/Object;)V",
    "printf(Ljava/io/PrintStream;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;",
    "printf(Ljava/io/PrintStream;Ljava/util/Locale;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;",
    "format(Ljava/io/PrintStream;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;",
    "format(Ljava/io/PrintStream;Ljava/util/Locale;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;",
    "append(Ljava/io/PrintStream;Ljava/lang/CharSequence;)Ljava/io/PrintStream;",
    "append(Ljava/io/PrintStream;Ljava/lang/CharSequence;II)Ljava/io/PrintStream;",
    "append(Ljava/io/PrintStream;C)Ljava/io/PrintStream;",
    "checkError(Ljava/io/PrintStream;)Z",
    "writeBytes(Ljava/io/PrintStream;[B)V",
    "readUTFFrom(Ljava/io/DataInput;)Ljava/lang/String;"
})
public final class IoCalls {
    private IoCalls() {
    }

    /** {@code Reader.read}. */
    public static int read(Reader reader) throws IOException {
        return reader.read();
    }

    /** {@code Reader.read}. */
    public static int read(Reader reader, char[] characters) throws IOException {
        return reader.read(characters);
    }

    /** {@code Reader.read}. */
    public static int read(Reader reader, char[] characters, int offset, int length) throws IOException {
        return reader.read(characters, offset, length);
    }

    /** {@code Reader.read}. */
    public static int read(Reader reader, CharBuffer target) throws IOException {
        return reader.read(target);
    }

    /** {@code Reader.skip}. */
    public static long skip(Reader reader, long value) throws IOException {
        return reader.skip(value);
    }

    /** {@code Reader.transferTo}. */
    public static long transferTo(Reader reader, Writer out) throws IOException {
        return reader.transferTo(out);
    }

    /** {@code BufferedReader.readLine}. */
    public static String readLine(BufferedReader reader) throws IOException {
        return reader.readLine();
    }

    /** {@code DataInputStream.read}. */
    public static int read(DataInputStream in, byte[] bytes) throws IOException {
        if (in instanceof DirectDataInput data) {
            return data.readDirectly(bytes, 0, bytes.length);
        }
        return in.read(bytes);
    }

    /** {@code DataInputStream.read}. */
    public static int read(DataInputStream in, byte[] bytes, int offset, int length) throws IOException {
        if (in instanceof DirectDataInput data) {
            return data.readDirectly(bytes, offset, length);
        }
        return in.read(bytes, offset, length);
    }

    /** {@code InputStream.skipNBytes}. */
    public static void skipNBytes(InputStream in, long value) throws IOException {
        in.skipNBytes(value);
    }

    /** {@code InputStream.transferTo}. */
    public static long transferTo(InputStream in, OutputStream out) throws IOException {
        return in.transferTo(out);
    }

    /** {@code DataInput.readFully}. */
    public static void readFully(DataInput input, byte[] bytes) throws IOException {
        if (input instanceof DirectDataInput data) {
            data.readFullyDirectly(bytes, 0, bytes.length);
            return;
        }
        input.readFully(bytes);
    }

    /** {@code DataInput.readFully}. */
    public static void readFully(DataInput input, byte[] bytes, int offset, int length) throws IOException {
        if (input instanceof DirectDataInput data) {
            data.readFullyDirectly(bytes, offset, length);
            return;
        }
        input.readFully(bytes, offset, length);
    }

    /** {@code DataInput.skipBytes}. */
    public static int skipBytes(DataInput input, int value) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.skipBytesDirectly(value);
        }
        return input.skipBytes(value);
    }

    /** {@code DataInput.readBoolean}. */
    public static boolean readBoolean(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readBooleanDirectly();
        }
        return input.readBoolean();
    }

    /** {@code DataInput.readByte}. */
    public static byte readByte(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readByteDirectly();
        }
        return input.readByte();
    }

    /** {@code DataInput.readUnsignedByte}. */
    public static int readUnsignedByte(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readUnsignedByteDirectly();
        }
        return input.readUnsignedByte();
    }

    /** {@code DataInput.readShort}. */
    public static short readShort(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readShortDirectly();
        }
        return input.readShort();
    }

    /** {@code DataInput.readUnsignedShort}. */
    public static int readUnsignedShort(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readUnsignedShortDirectly();
        }
        return input.readUnsignedShort();
    }

    /** {@code DataInput.readChar}. */
    public static char readChar(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readCharDirectly();
        }
        return input.readChar();
    }

    /** {@code DataInput.readInt}. */
    public static int readInt(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readIntDirectly();
        }
        return input.readInt();
    }

    /** {@code DataInput.readLong}. */
    public static long readLong(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readBigEndian(8);
        }
        return input.readLong();
    }

    /** {@code DataInput.readFloat}. */
    public static float readFloat(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readFloatDirectly();
        }
        return input.readFloat();
    }

    /** {@code DataInput.readDouble}. */
    public static double readDouble(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readDoubleDirectly();
        }
        return input.readDouble();
    }

    /** {@code DataInput.readLine}. */
    public static String readLine(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readLineDirectly();
        }
        return input.readLine();
    }

    /** {@code DataInput.readUTF}. */
    public static String readUTF(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readUTFDirectly();
        }
        return input.readUTF();
    }

    /** {@code Writer.write}. */
    public static void write(Writer writer, int value) throws IOException {
        writer.write(value);
    }

    /** {@code Writer.write}. */
    public static void write(Writer writer, char[] characters) throws IOException {
        writer.write(characters);
    }

    /** {@code Writer.write}. */
    public static void write(Writer writer, char[] characters, int offset, int length) throws IOException {
        writer.write(characters, offset, length);
    }

    /** {@code Writer.write}. */
    public static void write(Writer writer, String text) throws IOException {
        writer.write(text);
    }

    /** {@code Writer.write}. */
    public static void write(Writer writer, String text, int offset, int length) throws IOException {
        writer.write(text, offset, length);
    }

    /** {@code Writer.append}. */
    public static Writer append(Writer writer, CharSequence text) throws IOException {
        return writer.append(text);
    }

    /** {@code Writer.append}. */
    public static Writer append(Writer writer, CharSequence text, int start, int end) throws IOException {
        return writer.append(text, start, end);
    }

    /** {@code Writer.append}. */
    public static Writer append(Writer writer, char value) throws IOException {
        return writer.append(value);
    }

    /** {@code Writer.flush}. */
    public static void flush(Writer writer) throws IOException {
        writer.flush();
    }

    /** {@code Writer.close}. */
    public static void close(Writer writer) throws IOException {
        writer.close();
    }

    /** {@code BufferedWriter.newLine}. */
    public static void newLine(BufferedWriter writer) throws IOException {
        writer.newLine();
    }

    /** {@code OutputStream.close}. */
    public static void close(OutputStream out) throws IOException {
        out.close();
    }

    /**
     * How pico-net closes a channel whose blocking mode it emulates (waking the threads waiting on it); installed by
     * pico-net before it emulates its first channel, so that until then every close is the channel's own. Not for
     * programs.
     */
    public interface ChannelCloser {
        /** Closes {@code channel} as a close through its class does in rewritten code. */
        void close(AbstractInterruptibleChannel channel) throws IOException;
    }

    private static volatile ChannelCloser channelCloser;

    /** Installs pico-net's {@link ChannelCloser}. Not for programs. */
    public static void installChannelCloser(ChannelCloser closer) {
        channelCloser = closer;
    }

    /**
     * {@code close()} through {@code Channel} or one of the channel interfaces a socket channel implements: a channel
     * closes as through its class, so that pico-net wakes the threads blocked on a channel whose blocking mode it
     * emulates. A call of it can suspend exactly when the interface call can ({@code transparent} entries of the
     * redirect table).
     */
    public static void close(Channel channel) throws IOException {
        ChannelCloser closer = channelCloser;
        if (closer != null && channel instanceof AbstractInterruptibleChannel interruptible) {
            closer.close(interruptible);
        } else {
            channel.close();
        }
    }

    /** {@code Closeable.close} through {@code Closeable} itself, as {@link #close(Channel)}. */
    public static void close(Closeable closeable) throws IOException {
        ChannelCloser closer = channelCloser;
        if (closer != null && closeable instanceof AbstractInterruptibleChannel interruptible) {
            closer.close(interruptible);
        } else {
            closeable.close();
        }
    }

    /** {@code AutoCloseable.close} through {@code AutoCloseable} itself, as {@link #close(Channel)}. */
    public static void close(AutoCloseable closeable) throws Exception {
        ChannelCloser closer = channelCloser;
        if (closer != null && closeable instanceof AbstractInterruptibleChannel interruptible) {
            closer.close(interruptible);
        } else {
            closeable.close();
        }
    }

    /** {@code DataOutput.write}. */
    public static void write(DataOutput output, int value) throws IOException {
        output.write(value);
    }

    /** {@code DataOutput.write}. */
    public static void write(DataOutput output, byte[] bytes) throws IOException {
        output.write(bytes);
    }

    /** {@code DataOutput.write}. */
    public static void write(DataOutput output, byte[] bytes, int offset, int length) throws IOException {
        output.write(bytes, offset, length);
    }

    /** {@code DataOutput.writeBoolean}. */
    public static void writeBoolean(DataOutput output, boolean value) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBigEndian(value ? 1 : 0, 1);
            return;
        }
        output.writeBoolean(value);
    }

    /** {@code DataOutput.writeByte}. */
    public static void writeByte(DataOutput output, int value) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBigEndian(value, 1);
            return;
        }
        output.writeByte(value);
    }

    /** {@code DataOutput.writeShort}. */
    public static void writeShort(DataOutput output, int value) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBigEndian(value, 2);
            return;
        }
        output.writeShort(value);
    }

    /** {@code DataOutput.writeChar}. */
    public static void writeChar(DataOutput output, int value) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBigEndian(value, 2);
            return;
        }
        output.writeChar(value);
    }

    /** {@code DataOutput.writeInt}. */
    public static void writeInt(DataOutput output, int value) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBigEndian(value, 4);
            return;
        }
        output.writeInt(value);
    }

    /** {@code DataOutput.writeLong}. */
    public static void writeLong(DataOutput output, long value) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBigEndian(value, 8);
            return;
        }
        output.writeLong(value);
    }

    /** {@code DataOutput.writeFloat}. */
    public static void writeFloat(DataOutput output, float value) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBigEndian(Float.floatToIntBits(value), 4);
            return;
        }
        output.writeFloat(value);
    }

    /** {@code DataOutput.writeDouble}. */
    public static void writeDouble(DataOutput output, double value) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBigEndian(Double.doubleToLongBits(value), 8);
            return;
        }
        output.writeDouble(value);
    }

    /** {@code DataOutput.writeBytes}. */
    public static void writeBytes(DataOutput output, String text) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeBytesDirectly(text);
            return;
        }
        output.writeBytes(text);
    }

    /** {@code DataOutput.writeChars}. */
    public static void writeChars(DataOutput output, String text) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeCharsDirectly(text);
            return;
        }
        output.writeChars(text);
    }

    /** {@code DataOutput.writeUTF}. */
    public static void writeUTF(DataOutput output, String text) throws IOException {
        if (output instanceof DirectDataOutput data) {
            data.writeUTFDirectly(text);
            return;
        }
        output.writeUTF(text);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, boolean value) {
        writer.print(value);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, char value) {
        writer.print(value);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, int value) {
        writer.print(value);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, long value) {
        writer.print(value);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, float value) {
        writer.print(value);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, double value) {
        writer.print(value);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, char[] characters) {
        writer.print(characters);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, String text) {
        writer.print(text);
    }

    /** {@code PrintWriter.print}. */
    public static void print(PrintWriter writer, Object value) {
        writer.print(value);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer) {
        writer.println();
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, boolean value) {
        writer.println(value);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, char value) {
        writer.println(value);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, int value) {
        writer.println(value);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, long value) {
        writer.println(value);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, float value) {
        writer.println(value);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, double value) {
        writer.println(value);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, char[] characters) {
        writer.println(characters);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, String text) {
        writer.println(text);
    }

    /** {@code PrintWriter.println}. */
    public static void println(PrintWriter writer, Object value) {
        writer.println(value);
    }

    /** {@code PrintWriter.printf}. */
    public static PrintWriter printf(PrintWriter writer, String format, Object... arguments) {
        return writer.printf(format, arguments);
    }

    /** {@code PrintWriter.printf}. */
    public static PrintWriter printf(PrintWriter writer, Locale locale, String format, Object... arguments) {
        return writer.printf(locale, format, arguments);
    }

    /** {@code PrintWriter.format}. */
    public static PrintWriter format(PrintWriter writer, String format, Object... arguments) {
        return writer.format(format, arguments);
    }

    /** {@code PrintWriter.format}. */
    public static PrintWriter format(PrintWriter writer, Locale locale, String format, Object... arguments) {
        return writer.format(locale, format, arguments);
    }

    /** {@code PrintWriter.append}. */
    public static PrintWriter append(PrintWriter writer, CharSequence text) {
        return writer.append(text);
    }

    /** {@code PrintWriter.append}. */
    public static PrintWriter append(PrintWriter writer, CharSequence text, int start, int end) {
        return writer.append(text, start, end);
    }

    /** {@code PrintWriter.append}. */
    public static PrintWriter append(PrintWriter writer, char value) {
        return writer.append(value);
    }

    /** {@code PrintWriter.checkError}. */
    public static boolean checkError(PrintWriter writer) {
        return writer.checkError();
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, boolean value) {
        stream.print(value);
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, char value) {
        stream.print(value);
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, int value) {
        stream.print(value);
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, long value) {
        stream.print(value);
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, float value) {
        stream.print(value);
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, double value) {
        stream.print(value);
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, char[] characters) {
        stream.print(characters);
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, String text) {
        stream.print(text);
    }

    /** {@code PrintStream.print}. */
    public static void print(PrintStream stream, Object value) {
        stream.print(value);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream) {
        stream.println();
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, boolean value) {
        stream.println(value);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, char value) {
        stream.println(value);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, int value) {
        stream.println(value);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, long value) {
        stream.println(value);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, float value) {
        stream.println(value);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, double value) {
        stream.println(value);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, char[] characters) {
        stream.println(characters);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, String text) {
        stream.println(text);
    }

    /** {@code PrintStream.println}. */
    public static void println(PrintStream stream, Object value) {
        stream.println(value);
    }

    /** {@code PrintStream.printf}. */
    public static PrintStream printf(PrintStream stream, String format, Object... arguments) {
        return stream.printf(format, arguments);
    }

    /** {@code PrintStream.printf}. */
    public static PrintStream printf(PrintStream stream, Locale locale, String format, Object... arguments) {
        return stream.printf(locale, format, arguments);
    }

    /** {@code PrintStream.format}. */
    public static PrintStream format(PrintStream stream, String format, Object... arguments) {
        return stream.format(format, arguments);
    }

    /** {@code PrintStream.format}. */
    public static PrintStream format(PrintStream stream, Locale locale, String format, Object... arguments) {
        return stream.format(locale, format, arguments);
    }

    /** {@code PrintStream.append}. */
    public static PrintStream append(PrintStream stream, CharSequence text) {
        return stream.append(text);
    }

    /** {@code PrintStream.append}. */
    public static PrintStream append(PrintStream stream, CharSequence text, int start, int end) {
        return stream.append(text, start, end);
    }

    /** {@code PrintStream.append}. */
    public static PrintStream append(PrintStream stream, char value) {
        return stream.append(value);
    }

    /** {@code PrintStream.checkError}. */
    public static boolean checkError(PrintStream stream) {
        return stream.checkError();
    }

    /** {@code PrintStream.writeBytes}. */
    public static void writeBytes(PrintStream stream, byte[] bytes) {
        stream.writeBytes(bytes);
    }

    /** {@code DataInputStream.readUTF(DataInput)}. */
    public static String readUTFFrom(DataInput input) throws IOException {
        if (input instanceof DirectDataInput data) {
            return data.readUTFDirectly();
        }
        return DataInputStream.readUTF(input);
    }
}
