package org.picothreads.net.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UnsupportedEncodingException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The OutputStreamWriter that rewritten code creates: it encodes with its own CharsetEncoder into its own byte
 * buffer and calls only the stream's {@code write} and {@code flush}, so that a write suspending in the stream is
 * captured through it. The superclass's encoder and its byte buffer are allocated but never used.
 */
public class PicoOutputStreamWriter extends OutputStreamWriter implements MonitorHome {
    private static final int BYTE_BUFFER_SIZE = 8192;
    private static final int INITIAL_BYTE_BUFFER_SIZE = 512;

    /** This writer's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** The stream the bytes go to. */
    private final OutputStream target;
    private final CharsetEncoder encoder;
    /**
     * Encoded bytes not written yet, in write mode (from 0 to position): 512 bytes at first, grown up to 8 KB as it
     * fills ({@link #makeRoom}).
     */
    private ByteBuffer bytes = ByteBuffer.allocate(INITIAL_BYTE_BUFFER_SIZE);
    /** A high surrogate that ended the last write, waiting for its low half. */
    private char leftoverChar;
    private boolean haveLeftoverChar;
    /** Scratch for encoding the leftover surrogate with the character after it. */
    private final CharBuffer leftoverPair = CharBuffer.allocate(2);
    private boolean closed;

    /** As {@link OutputStreamWriter#OutputStreamWriter(OutputStream)}. */
    public PicoOutputStreamWriter(OutputStream out) {
        super(out);
        this.target = out;
        this.encoder = replacingEncoder(Charset.defaultCharset());
    }

    /** As {@link OutputStreamWriter#OutputStreamWriter(OutputStream, String)}. */
    public PicoOutputStreamWriter(OutputStream out, String charsetName) throws UnsupportedEncodingException {
        super(out, charsetName);
        this.target = out;
        this.encoder = replacingEncoder(Charset.forName(charsetName));
    }

    /** As {@link OutputStreamWriter#OutputStreamWriter(OutputStream, Charset)}. */
    public PicoOutputStreamWriter(OutputStream out, Charset charset) {
        super(out, charset);
        this.target = out;
        this.encoder = replacingEncoder(charset);
    }

    /** As {@link OutputStreamWriter#OutputStreamWriter(OutputStream, CharsetEncoder)}. */
    public PicoOutputStreamWriter(OutputStream out, CharsetEncoder encoder) {
        super(out, encoder);
        this.target = out;
        this.encoder = encoder;
    }

    static CharsetEncoder replacingEncoder(Charset charset) {
        return charset.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
    }

    @Override
    public String getEncoding() {
        return closed ? null : super.getEncoding();
    }

    @Override
    public void write(int character) throws IOException {
        write(new char[] {(char) character}, 0, 1);
    }

    @Override
    public void write(char[] buffer, int offset, int length) throws IOException {
        synchronized (lock) {
            ensureOpen();
            if (offset < 0 || offset > buffer.length || length < 0 || offset + length > buffer.length
                    || offset + length < 0) {
                throw new IndexOutOfBoundsException();
            }
            if (length == 0) {
                return;
            }
            encode(CharBuffer.wrap(buffer, offset, length));
        }
    }

    @Override
    public void write(char[] buffer) throws IOException {
        write(buffer, 0, buffer.length);
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
        if (length < 0) {
            throw new IndexOutOfBoundsException();
        }
        char[] characters = new char[length];
        text.getChars(offset, offset + length, characters, 0);
        write(characters, 0, length);
    }

    @Override
    public void write(String text) throws IOException {
        write(text, 0, text.length());
    }

    @Override
    public Writer append(CharSequence text) throws IOException {
        write(String.valueOf(text));
        return this;
    }

    @Override
    public Writer append(CharSequence text, int start, int end) throws IOException {
        CharSequence source = text == null ? "null" : text;
        return append(source.subSequence(start, end));
    }

    @Override
    public Writer append(char character) throws IOException {
        write(character);
        return this;
    }

    @Override
    public void flush() throws IOException {
        synchronized (lock) {
            ensureOpen();
            writeBytes();
            target.flush();
        }
    }

    /** Writes the encoded bytes to the stream without flushing it, as the JDK's package-private flushBuffer. */
    void flushBuffer() throws IOException {
        synchronized (lock) {
            ensureOpen();
            writeBytes();
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (closed) {
                return;
            }
            try (OutputStream closing = target) {
                encodeLeftover(null, true);
                for (;;) {
                    CoderResult result = encoder.flush(bytes);
                    if (result.isUnderflow()) {
                        break;
                    }
                    if (result.isOverflow()) {
                        makeRoom();
                        continue;
                    }
                    result.throwException();
                }
                writeBytes();
                closing.flush();
            } catch (IOException failure) {
                encoder.reset();
                throw failure;
            } finally {
                closed = true;
            }
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
    }

    private void encode(CharBuffer chars) throws IOException {
        if (haveLeftoverChar) {
            encodeLeftover(chars, false);
        }
        while (chars.hasRemaining()) {
            CoderResult result = encoder.encode(chars, bytes, false);
            if (result.isUnderflow()) {
                if (chars.remaining() == 1) {
                    haveLeftoverChar = true;
                    leftoverChar = chars.get();
                }
                break;
            }
            if (result.isOverflow()) {
                makeRoom();
                continue;
            }
            result.throwException();
        }
    }

    /** Encodes the pending high surrogate with the next character, or alone at the end of input. */
    private void encodeLeftover(CharBuffer chars, boolean endOfInput) throws IOException {
        if (!haveLeftoverChar && !endOfInput) {
            return;
        }
        CharBuffer pending = leftoverPair;
        pending.clear();
        if (haveLeftoverChar) {
            pending.put(leftoverChar);
        }
        if (chars != null && chars.hasRemaining()) {
            pending.put(chars.get());
        }
        pending.flip();
        while (pending.hasRemaining() || endOfInput) {
            CoderResult result = encoder.encode(pending, bytes, endOfInput);
            if (result.isUnderflow()) {
                if (pending.hasRemaining()) {
                    leftoverChar = pending.get();
                    if (chars != null && chars.hasRemaining()) {
                        pending.clear();
                        pending.put(leftoverChar).put(chars.get()).flip();
                        continue;
                    }
                    return;
                }
                break;
            }
            if (result.isOverflow()) {
                makeRoom();
                continue;
            }
            result.throwException();
        }
        haveLeftoverChar = false;
    }

    /**
     * Makes room for more encoded bytes in a full buffer: one smaller than 8 KB grows (to twice its size, at most 8 KB),
     * a full 8 KB one is written out. So the bytes reach the stream in exactly the writes an 8 KB buffer would make,
     * while a writer that writes a little (one per response, say) never allocates 8 KB.
     */
    private void makeRoom() throws IOException {
        int capacity = bytes.capacity();
        if (capacity >= BYTE_BUFFER_SIZE) {
            writeBytes();
            return;
        }
        ByteBuffer grown = ByteBuffer.allocate(Math.min(2 * capacity, BYTE_BUFFER_SIZE));
        bytes.flip();
        grown.put(bytes);
        bytes = grown;
    }

    /** Writes the encoded bytes to the stream and empties the buffer; a failed write loses them, as with the JDK. */
    private void writeBytes() throws IOException {
        int count = bytes.position();
        bytes.clear();
        if (count > 0) {
            target.write(bytes.array(), bytes.arrayOffset(), count);
        }
    }

    /** Not for programs: the runtime's monitor of this writer (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
