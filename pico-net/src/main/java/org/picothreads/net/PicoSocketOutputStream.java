package org.picothreads.net;

import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.picothreads.net.internal.IoWait;
import org.picothreads.net.internal.SocketErrors;

/**
 * A {@link PicoSocket}'s output stream, unbuffered like java.net's: each write hands all its bytes to the channel
 * before it returns, and the writing PicoThread suspends whenever the channel's send buffer is full. Writes are
 * serialized, as java.net's are: a write that waits partway keeps other writers out until all its bytes are out.
 */
public final class PicoSocketOutputStream extends OutputStream {
    /** Bytes copied to the channel in one step. */
    private static final int CHUNK_SIZE = 8192;

    private final PicoSocket socket;
    /** The bytes of the step being written; reused, so a write allocates nothing. */
    private final byte[] chunk = new byte[CHUNK_SIZE];
    private final ByteBuffer pending = ByteBuffer.wrap(chunk);
    /** Held for a whole write. */
    private final TransferLock writeLock = new TransferLock();

    PicoSocketOutputStream(PicoSocket socket) {
        this.socket = socket;
        pending.limit(0);
    }

    @Override
    public void write(int value) throws IOException {
        writeLock.lock();
        try {
            chunk[0] = (byte) value;
            pending.clear().limit(1);
            drain();
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        writeLock.lock();
        try {
            int written = 0;
            while (written < length) {
                int step = Math.min(CHUNK_SIZE, length - written);
                System.arraycopy(bytes, offset + written, chunk, 0, step);
                pending.clear().limit(step);
                drain();
                written += step;
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Writes the pending bytes, suspending while the channel cannot take them. */
    private void drain() throws IOException {
        socket.ensureOpenAndConnected();
        if (socket.outputShutdownFlag()) {
            throw new SocketException("Socket output is shutdown");
        }
        while (pending.hasRemaining()) {
            int count;
            try {
                count = socket.channel.write(pending);
            } catch (IOException e) {
                pending.limit(0);
                throw SocketErrors.ofTransfer(e);
            }
            if (count == 0) {
                IoWait.awaitWritable(socket.waits, IoWait.NO_DEADLINE);
                if (socket.isClosed()) {
                    pending.limit(0);
                    throw new SocketException("Socket closed");
                }
            }
        }
    }

    /** Closes the socket, as closing a java.net socket's output stream does. */
    @Override
    public void close() throws IOException {
        socket.close();
    }
}
