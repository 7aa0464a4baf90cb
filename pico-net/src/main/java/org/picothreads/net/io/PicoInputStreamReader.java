package org.picothreads.net.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The InputStreamReader that rewritten code creates: it decodes with its own CharsetDecoder over its own byte
 * buffer, calling only the stream's {@code read}, so that a read suspending in the stream is captured through it.
 * The superclass's decoder and its 8 KB byte buffer are allocated but never used; this reader's own byte buffer
 * starts at 512 bytes and grows, up to the JDK's 8 KB, each time a read fills it ({@link #fillBytes}), so that a
 * reader over a short input (a request's header lines) does not allocate a second 8 KB.
 */
public class PicoInputStreamReader extends InputStreamReader implements MonitorHome {
    private static final int INITIAL_BYTE_BUFFER_SIZE = 512;
    /** The size of the JDK's StreamDecoder's byte buffer, the largest this reader's grows to. */
    private static final int BYTE_BUFFER_SIZE = 8192;

    /** This reader's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** The stream the bytes come from. */
    private final InputStream source;
    private final CharsetDecoder decoder;
    /** Bytes read but not decoded yet, in read mode (between position and limit); grown by {@link #fillBytes}. */
    private ByteBuffer bytes;
    /** The second half of a surrogate pair decoded by a single-character read. */
    private char leftoverChar;
    private boolean haveLeftoverChar;
    /** Scratch for the single-character read, which needs room for a surrogate pair. */
    private final char[] pair = new char[2];
    private boolean closed;

    /** As {@link InputStreamReader#InputStreamReader(InputStream)}. */
    public PicoInputStreamReader(InputStream in) {
        super(in);
        this.source = in;
        this.decoder = replacingDecoder(Charset.defaultCharset());
        this.bytes = emptyBuffer();
    }

    /** As {@link InputStreamReader#InputStreamReader(InputStream, String)}. */
    public PicoInputStreamReader(InputStream in, String charsetName) throws UnsupportedEncodingException {
        super(in, charsetName);
        this.source = in;
        this.decoder = replacingDecoder(Charset.forName(charsetName));
        this.bytes = emptyBuffer();
    }

    /** As {@link InputStreamReader#InputStreamReader(InputStream, Charset)}. */
    public PicoInputStreamReader(InputStream in, Charset charset) {
        super(in, charset);
        this.source = in;
        this.decoder = replacingDecoder(charset);
        this.bytes = emptyBuffer();
    }

    /** As {@link InputStreamReader#InputStreamReader(InputStream, CharsetDecoder)}. */
    public PicoInputStreamReader(InputStream in, CharsetDecoder decoder) {
        super(in, decoder);
        this.source = in;
        this.decoder = decoder;
        this.bytes = emptyBuffer();
    }

    private static CharsetDecoder replacingDecoder(Charset charset) {
        return charset.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
    }

    private static ByteBuffer emptyBuffer() {
        ByteBuffer buffer = ByteBuffer.allocate(INITIAL_BYTE_BUFFER_SIZE);
        buffer.flip();
        return buffer;
    }

    @Override
    public String getEncoding() {
        return closed ? null : super.getEncoding();
    }

    @Override
    public int read() throws IOException {
        synchronized (lock) {
            ensureOpen();
            if (haveLeftoverChar) {
                haveLeftoverChar = false;
                return leftoverChar;
            }
            int count = decode(pair, 0, 2);
            if (count < 0) {
                return -1;
            }
            if (count == 2) {
                leftoverChar = pair[1];
                haveLeftoverChar = true;
            }
            return pair[0];
        }
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
        synchronized (lock) {
            ensureOpen();
            if (offset < 0 || offset > buffer.length || length < 0 || offset + length > buffer.length
                    || offset + length < 0) {
                throw new IndexOutOfBoundsException();
            }
            if (length == 0) {
                return 0;
            }
            int count = 0;
            if (haveLeftoverChar) {
                buffer[offset] = leftoverChar;
                offset++;
                length--;
                haveLeftoverChar = false;
                count = 1;
                if (length == 0 || !decoderReady()) {
                    return count;
                }
            }
            if (length == 1) {
                int single = read();
                if (single == -1) {
                    return count == 0 ? -1 : count;
                }
                buffer[offset] = (char) single;
                return count + 1;
            }
            int decoded = decode(buffer, offset, length);
            if (decoded < 0) {
                return count == 0 ? -1 : count;
            }
            return count + decoded;
        }
    }

    @Override
    public int read(char[] buffer) throws IOException {
        return read(buffer, 0, buffer.length);
    }

    @Override
    public int read(CharBuffer target) throws IOException {
        return ReaderLoops.readInto(this, target);
    }

    @Override
    public long skip(long count) throws IOException {
        return ReaderLoops.skip(this, lock, count);
    }

    @Override
    public long transferTo(Writer out) throws IOException {
        return ReaderLoops.transferTo(this, out);
    }

    @Override
    public boolean ready() throws IOException {
        synchronized (lock) {
            ensureOpen();
            return haveLeftoverChar || decoderReady();
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (closed) {
                return;
            }
            try {
                source.close();
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

    private boolean decoderReady() throws IOException {
        return bytes.hasRemaining() || source.available() > 0;
    }

    /** Decodes into {@code buffer} at least one character, as the JDK's StreamDecoder does; -1 at end of input. */
    private int decode(char[] buffer, int offset, int length) throws IOException {
        CharBuffer chars = CharBuffer.wrap(buffer, offset, length).slice();
        boolean endOfInput = false;
        for (;;) {
            CoderResult result = decoder.decode(bytes, chars, endOfInput);
            if (result.isUnderflow()) {
                if (endOfInput || !chars.hasRemaining() || chars.position() > 0 && source.available() <= 0) {
                    break;
                }
                if (fillBytes() < 0) {
                    endOfInput = true;
                    if (chars.position() == 0 && !bytes.hasRemaining()) {
                        break;
                    }
                }
                continue;
            }
            if (result.isOverflow()) {
                break;
            }
            result.throwException();
        }
        if (endOfInput) {
            decoder.reset();
        }
        if (chars.position() == 0) {
            return -1;
        }
        return chars.position();
    }

    /**
     * Reads more bytes after the undecoded ones; the count now buffered, or -1 at end of stream. A read that fills the
     * buffer makes it four times larger, up to {@link #BYTE_BUFFER_SIZE}, for the next one.
     */
    private int fillBytes() throws IOException {
        bytes.compact();
        try {
            int position = bytes.position();
            int count = source.read(bytes.array(), bytes.arrayOffset() + position, bytes.remaining());
            if (count < 0) {
                return count;
            }
            if (count == 0) {
                throw new IOException("Underlying input stream returned zero bytes");
            }
            bytes.position(position + count);
            if (!bytes.hasRemaining() && bytes.capacity() < BYTE_BUFFER_SIZE) {
                ByteBuffer larger = ByteBuffer.allocate(Math.min(bytes.capacity() * 4, BYTE_BUFFER_SIZE));
                bytes = larger.put(bytes.flip());
            }
        } finally {
            bytes.flip();
        }
        return bytes.remaining();
    }

    /** Not for programs: the runtime's monitor of this reader (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
