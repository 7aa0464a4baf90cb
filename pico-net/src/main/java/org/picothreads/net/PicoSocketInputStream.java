package org.picothreads.net;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.picothreads.net.internal.BlockingChannels;
import org.picothreads.net.internal.IoWait;
import org.picothreads.net.internal.SocketErrors;
import org.picothreads.runtime.internal.DirectStream;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * A {@link PicoSocket}'s input stream, buffered as in the paper: a read that the buffer can satisfy returns at once;
 * otherwise one non-blocking read of the channel refills the buffer (or, for an array at least as long as the buffer,
 * fills the array itself), and only when the channel has nothing does the reading PicoThread suspend until it is
 * readable (or SO_TIMEOUT passes).
 */
public final class PicoSocketInputStream extends InputStream implements DirectStream, MonitorHome {
    /**
     * Size of the buffer once grown; the paper found no difference in throughput between 2 and 50 KB. A read of an
     * array at least this long, made while the buffer is empty, reads the channel straight into the array.
     */
    private static final int BUFFER_SIZE = 8192;
    /**
     * Size of the buffer when made. A refill that fills it doubles it for the next refill, up to {@link #BUFFER_SIZE};
     * a connection of requests and replies smaller than this keeps this size.
     */
    private static final int FIRST_BUFFER_SIZE = 1024;
    /**
     * How many refills in a row, each after a short read, must have found nothing before the next such refill waits
     * for the poller instead of reading first.
     */
    private static final int EMPTY_REFILLS_BEFORE_WAITING_FIRST = 2;
    /** One refill in this many that would wait first reads first instead, to learn whether data now comes sooner. */
    private static final int WAIT_FIRST_PROBE_INTERVAL = 16;

    /** This stream's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    private final PicoSocket socket;
    /**
     * The bytes read from the channel, made at the first refill (a stream read only in arrays of {@link #BUFFER_SIZE}
     * or more never needs it: thousands of connections waiting for a response hold no buffer each) with
     * {@link #FIRST_BUFFER_SIZE} bytes, and made twice as large, up to {@link #BUFFER_SIZE}, when a refill filled it
     * (thousands of connections exchanging short messages hold a small buffer each);
     * {@link #buffered} wraps it, so a refill allocates nothing. It and the fields below are used under the read
     * lock.
     */
    private byte[] buffer;
    private ByteBuffer buffered;
    /** The next byte to hand out. */
    private int position;
    /** The end of the bytes held. */
    private int limit;
    /** True once the channel reported end of stream. */
    private boolean endOfStream;
    /**
     * True when the last read of the channel was short (fewer bytes than asked, but some): the socket's receive
     * queue was empty just then, so the next read finds data only if some arrived since.
     */
    private boolean lastReadShort;
    /**
     * How many refills in a row, each the first read after a short read, found nothing (up to
     * {@link #EMPTY_REFILLS_BEFORE_WAITING_FIRST}): a request and its reply, where the next read always waits.
     */
    private int emptyRefillsAfterShortRead;
    /** Refills that could wait first, counted to read first once per {@link #WAIT_FIRST_PROBE_INTERVAL}. */
    private int refillsThatCouldWaitFirst;
    /** Refills that waited first. */
    private int refillsThatWaitedFirst;
    /**
     * Held by every read and skip, waits included, as java.net's stream holds its read lock: threads reading one
     * stream at once are handed distinct bytes, and a second reader waits here instead of overwriting the first one's
     * registration. {@code available()} takes it only when it is free.
     */
    private final TransferLock readLock = new TransferLock();

    PicoSocketInputStream(PicoSocket socket) {
        this.socket = socket;
    }

    /** True when its blocking methods run only pico-net's code and the runtime's (see {@link DirectStream}). */
    @Override
    public boolean isDirect() {
        return socket.streamsDirect;
    }

    @Override
    public int read() throws IOException {
        readLock.lock();
        try {
            if ((position == limit || socket.isClosed()) && !fill()) {
                return -1;
            }
            return buffer[position++] & 0xff;
        } finally {
            readLock.unlock();
        }
    }

    @Override
    public int read(byte[] bytes) throws IOException {
        return read(bytes, 0, bytes.length);
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (length == 0) {
            return 0;
        }
        readLock.lock();
        try {
            if (position == limit || socket.isClosed()) {
                if (endOfStream) {
                    return -1; // as java.net's: once the end of stream was read, even when closed since
                }
                // fill()'s wait written out here: the reads of arrays (a BufferedInputStream's, a program's) are most
                // of a socket's reads, and a wait saves and restores this one activation of the stream instead of two
                long deadline = beginFill();
                if (predictsNothingToRead()) {
                    IoWait.awaitReadable(socket.waits, deadline);
                    ensureNotClosed();
                }
                if (length >= BUFFER_SIZE) {
                    // as BufferedInputStream does: a read as long as the buffer goes straight into the caller's
                    // array, one copy fewer
                    ByteBuffer target = ByteBuffer.wrap(bytes, offset, length);
                    int count;
                    while ((count = readDirectOrEnded(target, deadline)) == 0) {
                        IoWait.awaitReadable(socket.waits, deadline);
                        ensureNotClosed();
                    }
                    return count;
                }
                while (!filledOrEnded(deadline)) {
                    IoWait.awaitReadable(socket.waits, deadline);
                    ensureNotClosed();
                }
                if (position == limit) {
                    return -1;
                }
            }
            int count = Math.min(length, limit - position);
            System.arraycopy(buffer, position, bytes, offset, count);
            position += count;
            return count;
        } finally {
            readLock.unlock();
        }
    }

    @Override
    public int readNBytes(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        int total = 0;
        while (total < length) {
            int count = read(bytes, offset + total, length - total);
            if (count < 0) {
                break;
            }
            total += count;
        }
        return total;
    }

    @Override
    public byte[] readNBytes(int length) throws IOException {
        if (length < 0) {
            throw new IllegalArgumentException("len < 0");
        }
        byte[] result = new byte[Math.min(length, BUFFER_SIZE)];
        int total = 0;
        while (total < length) {
            if (total == result.length) {
                result = Arrays.copyOf(result, (int) Math.min(length, 2L * result.length));
            }
            int count = read(result, total, result.length - total);
            if (count < 0) {
                break;
            }
            total += count;
        }
        return total == result.length ? result : Arrays.copyOf(result, total);
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        return readNBytes(Integer.MAX_VALUE - 8);
    }

    @Override
    public long skip(long count) throws IOException {
        readLock.lock();
        try {
            long skipped = 0;
            while (skipped < count) {
                if (position == limit && !fill()) {
                    break;
                }
                int step = (int) Math.min(count - skipped, limit - position);
                position += step;
                skipped += step;
            }
            return skipped;
        } finally {
            readLock.unlock();
        }
    }

    /**
     * The bytes held, or those a non-blocking read of the channel brings; never waits, as java.net's does not. While
     * another thread's read holds the read lock (copying, or waiting for the channel), 0: what arrives goes to that
     * read.
     */
    @Override
    public int available() throws IOException {
        if (socket.isClosed()) {
            throw new SocketException("Socket closed");
        }
        if (!readLock.tryLock()) {
            return 0;
        }
        try {
            if (position < limit || endOfStream || socket.inputShutdownFlag()) {
                return limit - position;
            }
            readChannel();
            return limit - position;
        } finally {
            readLock.unlock();
        }
    }

    /**
     * Refills the empty buffer, suspending while the channel has nothing: true when bytes arrived, false at end of
     * stream; on a closed socket, SocketException "Socket closed" unless the end of stream was read before, as
     * java.net's read. Under the read lock.
     */
    private boolean fill() throws IOException {
        if (endOfStream) {
            return false; // as java.net's: once the end of stream was read, even when closed since
        }
        long deadline = beginFill();
        if (predictsNothingToRead()) {
            IoWait.awaitReadable(socket.waits, deadline);
            ensureNotClosed();
        }
        while (!filledOrEnded(deadline)) {
            IoWait.awaitReadable(socket.waits, deadline);
            ensureNotClosed();
        }
        return position < limit;
    }

    /** A refill's start, under the read lock: checks the socket and answers the deadline of its waits. */
    private long beginFill() throws IOException {
        socket.ensureOpenAndConnected();
        return socket.readDeadline();
    }

    /**
     * One step of a refill, which never waits: true when bytes are held (a non-blocking read of the channel brought
     * some) or the stream has ended, false when the caller is to wait until the channel is readable; a
     * SocketTimeoutException once {@code deadline} has passed. Under the read lock.
     */
    private boolean filledOrEnded(long deadline) throws IOException {
        if (position < limit || endOfStream || socket.inputShutdownFlag()) {
            return true;
        }
        if (readChannel() != 0) {
            return true;
        }
        if (IoWait.passed(deadline)) {
            throw new SocketTimeoutException("Read timed out");
        }
        return false;
    }

    /**
     * One step of a direct read, which never waits: the count read into {@code target} (more than 0), -1 when the
     * stream has ended, 0 when the caller is to wait until the channel is readable; a SocketTimeoutException once
     * {@code deadline} has passed. Under the read lock, with the buffer empty.
     */
    private int readDirectOrEnded(ByteBuffer target, long deadline) throws IOException {
        if (endOfStream || socket.inputShutdownFlag()) {
            return -1;
        }
        int count = readNow(target);
        if (count == 0 && IoWait.passed(deadline)) {
            throw new SocketTimeoutException("Read timed out");
        }
        return count;
    }

    /**
     * True when a refill should wait for the poller before it reads: on a PicoThread, after a short read, when the
     * refills after the last short reads found nothing (a request and its reply: the read that follows a reply would
     * fail), but for one in {@link #WAIT_FIRST_PROBE_INTERVAL}, which reads first and so learns whether data comes
     * sooner now. The wait is the one an empty read would lead to, one read fewer: the poller's read interest is
     * armed, so data that came meanwhile makes the channel ready at the next poll. Clears {@link #lastReadShort}
     * when it answers true, so that the read after the wait, which found data because the poller said so, teaches
     * nothing. Under the read lock.
     */
    private boolean predictsNothingToRead() {
        if (!lastReadShort || emptyRefillsAfterShortRead < EMPTY_REFILLS_BEFORE_WAITING_FIRST || endOfStream
                || socket.inputShutdownFlag() || !IoWait.waitsByPolling()) {
            return false;
        }
        if (++refillsThatCouldWaitFirst % WAIT_FIRST_PROBE_INTERVAL == 0) {
            return false;
        }
        lastReadShort = false;
        refillsThatWaitedFirst++;
        return true;
    }

    /** How many refills of this stream waited for the poller before reading; for tests. */
    int refillsThatWaitedFirst() {
        readLock.lock();
        try {
            return refillsThatWaitedFirst;
        } finally {
            readLock.unlock();
        }
    }

    /** After a wait: a SocketException when the socket was closed meanwhile. */
    private void ensureNotClosed() throws SocketException {
        if (socket.isClosed()) {
            throw new SocketException("Socket closed");
        }
    }

    /**
     * One non-blocking read into the empty buffer, made at the first and grown after a refill that filled it: the
     * count read, 0 when nothing was there, -1 at end of stream.
     */
    private int readChannel() throws IOException {
        if (buffered == null) {
            buffer = new byte[FIRST_BUFFER_SIZE];
            buffered = ByteBuffer.wrap(buffer);
        } else if (limit == buffer.length && buffer.length < BUFFER_SIZE) {
            // the last refill filled it, so more may have been waiting: read more at once from now on
            buffer = new byte[Math.min(2 * buffer.length, BUFFER_SIZE)];
            buffered = ByteBuffer.wrap(buffer);
        }
        buffered.clear();
        int count = readNow(buffered);
        position = 0;
        if (count < 0) {
            limit = 0;
            return -1;
        }
        limit = count;
        return count;
    }

    /**
     * One non-blocking read of the channel into {@code target}: the count read, 0 when nothing was there, -1 at end of
     * stream (which it records); a transfer's error as java.net reports it.
     */
    private int readNow(ByteBuffer target) throws IOException {
        int requested = target.remaining();
        int count;
        try {
            count = BlockingChannels.readNow(socket.channel, target);
        } catch (IOException e) {
            throw SocketErrors.ofTransfer(e);
        }
        if (count < 0) {
            endOfStream = true;
        } else if (lastReadShort) {
            emptyRefillsAfterShortRead = count == 0
                    ? Math.min(emptyRefillsAfterShortRead + 1, EMPTY_REFILLS_BEFORE_WAITING_FIRST) : 0;
        }
        lastReadShort = count > 0 && count < requested;
        return count;
    }

    /** Closes the socket, as closing a java.net socket's input stream does. */
    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Not for programs: the runtime's monitor of this stream (see {@link MonitorHome}). */
    @Override
    public Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
