package org.picothreads.runtime.internal;

import java.io.IOException;

/**
 * The writing methods of pico-net's DataOutputStream, whose JDK counterparts are final: {@link IoCalls} calls these
 * instead, so that a write suspending below them is captured through rewritten frames.
 */
public interface DirectDataOutput {
    /** Writes the low {@code count} bytes of {@code value}, big-endian, and counts them. */
    void writeBigEndian(long value, int count) throws IOException;

    /** As DataOutputStream.writeBytes(String). */
    void writeBytesDirectly(String text) throws IOException;

    /** As DataOutputStream.writeChars(String). */
    void writeCharsDirectly(String text) throws IOException;

    /** As DataOutputStream.writeUTF(String). */
    void writeUTFDirectly(String text) throws IOException;
}
