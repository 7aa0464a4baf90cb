package org.picothreads.runtime.internal;

import java.io.IOException;

/**
 * The reading methods of pico-net's DataInputStream, whose JDK counterparts are final: {@link IoCalls} calls these
 * instead, so that a read suspending below them is captured through rewritten frames. Each gives exactly the value
 * IoCalls returns: IoCalls' frames are not saved, and a lazy resume hands the value of the method below straight to
 * the rewritten caller above, so no conversion may happen in IoCalls after the call.
 */
public interface DirectDataInput {
    /** As DataInputStream.read(byte[], int, int). */
    int readDirectly(byte[] buffer, int offset, int length) throws IOException;

    /** As DataInputStream.readFully(byte[], int, int). */
    void readFullyDirectly(byte[] buffer, int offset, int length) throws IOException;

    /** As DataInputStream.skipBytes(int). */
    int skipBytesDirectly(int count) throws IOException;

    /** One byte, or EOFException at the end of the stream. */
    int readUnsignedByteDirectly() throws IOException;

    /** The next {@code count} bytes, big-endian, as a long; EOFException when fewer remain. */
    long readBigEndian(int count) throws IOException;

    /** As DataInputStream.readBoolean(). */
    boolean readBooleanDirectly() throws IOException;

    /** As DataInputStream.readByte(). */
    byte readByteDirectly() throws IOException;

    /** As DataInputStream.readShort(). */
    short readShortDirectly() throws IOException;

    /** As DataInputStream.readUnsignedShort(). */
    int readUnsignedShortDirectly() throws IOException;

    /** As DataInputStream.readChar(). */
    char readCharDirectly() throws IOException;

    /** As DataInputStream.readInt(). */
    int readIntDirectly() throws IOException;

    /** As DataInputStream.readFloat(). */
    float readFloatDirectly() throws IOException;

    /** As DataInputStream.readDouble(). */
    double readDoubleDirectly() throws IOException;

    /** As the deprecated DataInputStream.readLine(). */
    String readLineDirectly() throws IOException;

    /** As DataInputStream.readUTF(). */
    String readUTFDirectly() throws IOException;
}
