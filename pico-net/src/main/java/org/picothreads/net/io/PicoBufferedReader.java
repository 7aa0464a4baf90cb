package org.picothreads.net.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.CharBuffer;
import java.util.Objects;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The BufferedReader that rewritten code creates: its buffer, {@code readLine} and mark logic are its own and call
 * only the underlying reader's {@code read}, so that a read suspending below it is captured through it. The
 * superclass is given a one-character buffer it never uses.
 */
public class PicoBufferedReader extends BufferedReader implements MonitorHome {
    private static final int DEFAULT_BUFFER_SIZE = 8192;
    private static final int DEFAULT_EXPECTED_LINE_LENGTH = 80;
    private static final int INVALIDATED = -2;
    private static final int UNMARKED = -1;

    /** This reader's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    /** The reader below, null once closed. */
    private Reader source;
    private char[] buffer;
    /** The number of valid characters in the buffer, and the index of the next one to hand out. */
    private int count;
    private int next;
    /** The index of the marked character, or UNMARKED, or INVALIDATED once read beyond the limit. */
    private int markedChar = UNMARKED;
    private int readAheadLimit;
    /** True when the next character is to be skipped if it is a line feed (the line ended with a carriage return). */
    private boolean skipLineFeed;
    private boolean markedSkipLineFeed;

    /** As {@link BufferedReader#BufferedReader(Reader, int)}. */
    public PicoBufferedReader(Reader in, int size) {
        super(in, 1);
        if (size <= 0) {
            throw new IllegalArgumentException("Buffer size <= 0");
        }
        this.source = in;
        this.buffer = new char[size];
    }

    /** As {@link BufferedReader#BufferedReader(Reader)}. */
    public PicoBufferedReader(Reader in) {
        this(in, DEFAULT_BUFFER_SIZE);
    }

    private void ensureOpen() throws IOException {
        if (source == null) {
            throw new IOException("Stream closed");
        }
    }

    /** Fills the buffer, keeping the marked characters when the mark is still valid. */
    private void fill() throws IOException {
        int destination;
        if (markedChar <= UNMARKED) {
            destination = 0;
        } else {
            int delta = next - markedChar;
            if (delta >= readAheadLimit) {
                markedChar = INVALIDATED;
                readAheadLimit = 0;
                destination = 0;
            } else {
                if (readAheadLimit <= buffer.length) {
                    System.arraycopy(buffer, markedChar, buffer, 0, delta);
                } else {
                    char[] larger = new char[readAheadLimit];
                    System.arraycopy(buffer, markedChar, larger, 0, delta);
                    buffer = larger;
                }
                markedChar = 0;
                destination = delta;
                next = delta;
                count = delta;
            }
        }
        int read;
        do {
            read = source.read(buffer, destination, buffer.length - destination);
        } while (read == 0);
        if (read > 0) {
            count = destination + read;
            next = destination;
        }
    }

    @Override
    public int read() throws IOException {
        synchronized (lock) {
            ensureOpen();
            for (;;) {
                if (next >= count) {
                    fill();
                    if (next >= count) {
                        return -1;
                    }
                }
                if (skipLineFeed) {
                    skipLineFeed = false;
                    if (buffer[next] == '\n') {
                        next++;
                        continue;
                    }
                }
                return buffer[next++];
            }
        }
    }

    /** Reads into a portion of an array, reading from the underlying reader at most once. */
    private int readOnce(char[] target, int offset, int length) throws IOException {
        if (next >= count) {
            if (length >= buffer.length && markedChar <= UNMARKED && !skipLineFeed) {
                return source.read(target, offset, length);
            }
            fill();
        }
        if (next >= count) {
            return -1;
        }
        if (skipLineFeed) {
            skipLineFeed = false;
            if (buffer[next] == '\n') {
                next++;
                if (next >= count) {
                    fill();
                }
                if (next >= count) {
                    return -1;
                }
            }
        }
        int copied = Math.min(length, count - next);
        System.arraycopy(buffer, next, target, offset, copied);
        next += copied;
        return copied;
    }

    @Override
    public int read(char[] target, int offset, int length) throws IOException {
        synchronized (lock) {
            ensureOpen();
            Objects.checkFromIndexSize(offset, length, target.length);
            if (length == 0) {
                return 0;
            }
            int total = readOnce(target, offset, length);
            if (total <= 0) {
                return total;
            }
            while (total < length && source.ready()) {
                int more = readOnce(target, offset + total, length - total);
                if (more <= 0) {
                    break;
                }
                total += more;
            }
            return total;
        }
    }

    @Override
    public int read(char[] target) throws IOException {
        return read(target, 0, target.length);
    }

    @Override
    public int read(CharBuffer target) throws IOException {
        return ReaderLoops.readInto(this, target);
    }

    @Override
    public String readLine() throws IOException {
        StringBuilder line = null;
        synchronized (lock) {
            ensureOpen();
            boolean omitLineFeed = skipLineFeed;
            for (;;) {
                if (next >= count) {
                    fill();
                }
                if (next >= count) {
                    return line != null && line.length() > 0 ? line.toString() : null;
                }
                boolean endOfLine = false;
                char character = 0;
                if (omitLineFeed && buffer[next] == '\n') {
                    next++;
                }
                skipLineFeed = false;
                omitLineFeed = false;
                int index;
                for (index = next; index < count; index++) {
                    character = buffer[index];
                    if (character == '\n' || character == '\r') {
                        endOfLine = true;
                        break;
                    }
                }
                int start = next;
                next = index;
                if (endOfLine) {
                    String result;
                    if (line == null) {
                        result = new String(buffer, start, index - start);
                    } else {
                        line.append(buffer, start, index - start);
                        result = line.toString();
                    }
                    next++;
                    if (character == '\r') {
                        skipLineFeed = true;
                    }
                    return result;
                }
                if (line == null) {
                    line = new StringBuilder(DEFAULT_EXPECTED_LINE_LENGTH);
                }
                line.append(buffer, start, index - start);
            }
        }
    }

    @Override
    public long skip(long skipCount) throws IOException {
        if (skipCount < 0L) {
            throw new IllegalArgumentException("skip value is negative");
        }
        synchronized (lock) {
            ensureOpen();
            long remaining = skipCount;
            while (remaining > 0) {
                if (next >= count) {
                    fill();
                }
                if (next >= count) {
                    break;
                }
                if (skipLineFeed) {
                    skipLineFeed = false;
                    if (buffer[next] == '\n') {
                        next++;
                    }
                }
                long available = count - next;
                if (remaining <= available) {
                    next += (int) remaining;
                    remaining = 0;
                    break;
                }
                remaining -= available;
                next = count;
            }
            return skipCount - remaining;
        }
    }

    @Override
    public boolean ready() throws IOException {
        synchronized (lock) {
            ensureOpen();
            if (skipLineFeed) {
                if (next >= count && source.ready()) {
                    fill();
                }
                if (next < count) {
                    if (buffer[next] == '\n') {
                        next++;
                    }
                    skipLineFeed = false;
                }
            }
            return next < count || source.ready();
        }
    }

    @Override
    public boolean markSupported() {
        return true;
    }

    @Override
    public void mark(int limit) throws IOException {
        if (limit < 0) {
            throw new IllegalArgumentException("Read-ahead limit < 0");
        }
        synchronized (lock) {
            ensureOpen();
            readAheadLimit = limit;
            markedChar = next;
            markedSkipLineFeed = skipLineFeed;
        }
    }

    @Override
    public void reset() throws IOException {
        synchronized (lock) {
            ensureOpen();
            if (markedChar < 0) {
                throw new IOException(markedChar == INVALIDATED ? "Mark invalid" : "Stream not marked");
            }
            next = markedChar;
            skipLineFeed = markedSkipLineFeed;
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (source == null) {
                return;
            }
            try {
                source.close();
            } finally {
                source = null;
                buffer = null;
            }
        }
    }

    @Override
    public long transferTo(Writer out) throws IOException {
        return ReaderLoops.transferTo(this, out);
    }

    /** Not for programs: the runtime's monitor of this reader (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
