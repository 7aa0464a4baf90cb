package org.picothreads.net.io;

import java.io.UTFDataFormatException;

/** The modified UTF-8 of {@code DataInput.readUTF} and {@code DataOutput.writeUTF}, with the JDK's messages. */
final class ModifiedUtf8 {
    private ModifiedUtf8() {
    }

    /** Decodes {@code length} bytes as DataInputStream.readUTF does. */
    static String decode(byte[] bytes, int length) throws UTFDataFormatException {
        char[] characters = new char[length];
        int count = 0;
        int characterCount = 0;
        while (count < length) {
            int first = bytes[count] & 0xff;
            switch (first >> 4) {
                case 0, 1, 2, 3, 4, 5, 6, 7 -> {
                    count++;
                    characters[characterCount++] = (char) first;
                }
                case 12, 13 -> {
                    count += 2;
                    if (count > length) {
                        throw new UTFDataFormatException("malformed input: partial character at end");
                    }
                    int second = bytes[count - 1];
                    if ((second & 0xC0) != 0x80) {
                        throw new UTFDataFormatException("malformed input around byte " + count);
                    }
                    characters[characterCount++] = (char) (((first & 0x1F) << 6) | (second & 0x3F));
                }
                case 14 -> {
                    count += 3;
                    if (count > length) {
                        throw new UTFDataFormatException("malformed input: partial character at end");
                    }
                    int second = bytes[count - 2];
                    int third = bytes[count - 1];
                    if ((second & 0xC0) != 0x80 || (third & 0xC0) != 0x80) {
                        throw new UTFDataFormatException("malformed input around byte " + (count - 1));
                    }
                    characters[characterCount++] =
                            (char) (((first & 0x0F) << 12) | ((second & 0x3F) << 6) | (third & 0x3F));
                }
                default -> throw new UTFDataFormatException("malformed input around byte " + count);
            }
        }
        return new String(characters, 0, characterCount);
    }

    /** Encodes a string with its two-byte length first, as DataOutputStream.writeUTF writes it. */
    static byte[] encode(String text) throws UTFDataFormatException {
        int length = text.length();
        long encodedLength = 0;
        for (int index = 0; index < length; index++) {
            char character = text.charAt(index);
            encodedLength += character >= 0x0001 && character <= 0x007F ? 1 : character > 0x07FF ? 3 : 2;
        }
        if (encodedLength > 65535) {
            throw new UTFDataFormatException("encoded string (" + text.substring(0, 8) + "..."
                    + text.substring(length - 8, length) + ") too long: " + encodedLength + " bytes");
        }
        byte[] bytes = new byte[(int) encodedLength + 2];
        bytes[0] = (byte) (encodedLength >>> 8);
        bytes[1] = (byte) encodedLength;
        int count = 2;
        for (int index = 0; index < length; index++) {
            char character = text.charAt(index);
            if (character >= 0x0001 && character <= 0x007F) {
                bytes[count++] = (byte) character;
            } else if (character > 0x07FF) {
                bytes[count++] = (byte) (0xE0 | ((character >> 12) & 0x0F));
                bytes[count++] = (byte) (0x80 | ((character >> 6) & 0x3F));
                bytes[count++] = (byte) (0x80 | (character & 0x3F));
            } else {
                bytes[count++] = (byte) (0xC0 | ((character >> 6) & 0x1F));
                bytes[count++] = (byte) (0x80 | (character & 0x3F));
            }
        }
        return bytes;
    }
}
