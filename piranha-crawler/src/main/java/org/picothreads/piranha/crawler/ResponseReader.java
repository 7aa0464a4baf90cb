package org.picothreads.piranha.crawler;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads an HTTP response from a socket's stream through a buffer of its own: header lines byte by byte from the
 * buffer, bodies in bulk. It takes the place of a {@code BufferedInputStream}, whose {@code read()} is synchronized:
 * a header read one byte at a time would enter a monitor per byte, which on PicoThreads is a call into the
 * runtime's monitor table each time.
 */
final class ResponseReader {

    private final InputStream input;
    private final byte[] buffer = new byte[8192];
    /** The next unread byte of the buffer. */
    private int position;
    /** The end of the bytes read into the buffer. */
    private int limit;

    ResponseReader(InputStream input) {
        this.input = input;
    }

    /** Reads one line ending in LF (a CR before it is dropped), as ISO-8859-1, of at most 8 KB. */
    String readLine() throws IOException {
        StringBuilder line = new StringBuilder(64);
        while (true) {
            if (position == limit && !fill()) {
                throw new EOFException("the connection closed in the middle of a header");
            }
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            for (int index = start; index < position; index++) {
                line.append((char) (buffer[index] & 0xff));
            }
            if (line.length() > 8192) {
                throw new IOException("header line too long");
            }
            if (position < limit) {
                position++;
                int length = line.length();
                if (length > 0 && line.charAt(length - 1) == '\r') {
                    line.setLength(length - 1);
                }
                return line.toString();
            }
        }
    }

    /** Reads exactly the length's bytes; the connection closing first is an EOFException. */
    byte[] readExactly(int length) throws IOException {
        byte[] bytes = new byte[length];
        int filled = Math.min(length, limit - position);
        System.arraycopy(buffer, position, bytes, 0, filled);
        position += filled;
        while (filled < length) {
            int count = input.read(bytes, filled, length - filled);
            if (count < 0) {
                throw new EOFException("the connection closed after " + filled + " of " + length + " bytes");
            }
            filled += count;
        }
        return bytes;
    }

    /** Reads to the end of the stream, refusing more than the maximum. */
    byte[] readToEnd(int maximum) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        do {
            body.write(buffer, position, limit - position);
            position = limit;
            if (body.size() > maximum) {
                throw new IOException("body too large");
            }
        } while (fill());
        return body.toByteArray();
    }

    /** Reads more bytes into the emptied buffer; false at the end of the stream. */
    private boolean fill() throws IOException {
        int count = input.read(buffer, 0, buffer.length);
        if (count < 0) {
            return false;
        }
        position = 0;
        limit = count;
        return true;
    }
}
