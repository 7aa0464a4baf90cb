package org.picothreads.net;

import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.picothreads.net.internal.BlockingChannels;
import org.picothreads.net.internal.IoWait;
import org.picothreads.net.internal.SocketErrors;
import org.picothreads.net.internal.TransferBuffers;
import org.picothreads.runtime.internal.DirectStream;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * A {@link PicoSocket}'s output stream, unbuffered like java.net's: each write hands all its bytes to the channel
 * before it returns, and the writing PicoThread suspends whenever the channel's send buffer is full. Writes are
 * serialized, as java.net's are: a write that waits partway keeps other writers out until all its bytes are out.
 * The bytes go to the channel in steps of up to 64 KB through a direct buffer that the stream does not own
 * ({@link TransferBuffers}): a 16 KB write is one system call when the send buffer has room, as java.net's.
 */
public final class PicoSocketOutputStream extends OutputStream implements DirectStream, MonitorHome {
    /** This stream's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    private final PicoSocket socket;
    /** The byte of {@link #write(int)}; a write of one byte allocates nothing. */
    private final byte[] single = new byte[1];
    /** Held for a whole write. */
    private final TransferLock writeLock = new TransferLock();

    PicoSocketOutputStream(PicoSocket socket) {
        this.socket = socket;
    }

    /** True when its blocking methods run only pico-net's code and the runtime's (see {@link DirectStream}). */
    @Override
    public boolean isDirect() {
        return socket.streamsDirect;
    }

    @Override
    public void write(int value) throws IOException {
        writeLock.lock();
        try {
            single[0] = (byte) value;
            writeSteps(single, 0, 1);
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
            writeSteps(bytes, offset, length);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Writes the bytes, a step at a time through the thread's transfer buffer, suspending while the channel cannot
     * take them; a step is copied again after a wait, since other PicoThreads use the carrier's buffer meanwhile.
     */
    private void writeSteps(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return; // as java.net's: nothing is checked
        }
        socket.ensureOpenAndConnected();
        if (socket.outputShutdownFlag()) {
            throw new SocketException("Socket output is shutdown");
        }
        int written = 0;
        while (written < length) {
            ByteBuffer step = TransferBuffers.forCurrentThread();
            step.put(bytes, offset + written, Math.min(step.capacity(), length - written)).flip();
            int count;
            try {
                count = BlockingChannels.writeNow(socket.channel, step);
            } catch (IOException e) {
                throw SocketErrors.ofTransfer(e);
            }
            written += count;
            if (count == 0) {
                IoWait.awaitWritable(socket.waits, IoWait.NO_DEADLINE);
                if (socket.isClosed()) {
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

    /** Not for programs: the runtime's monitor of this stream (see {@link MonitorHome}). */
    @Override
    public Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
