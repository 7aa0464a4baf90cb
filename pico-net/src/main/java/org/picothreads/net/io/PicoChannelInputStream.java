package org.picothreads.net.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.Objects;
import org.picothreads.net.ChannelCalls;
import org.picothreads.net.internal.BlockingChannels;
import org.picothreads.net.internal.IoWait;
import org.picothreads.runtime.internal.Parking;

/**
 * What {@code Channels.newInputStream} returns in rewritten code for a SocketChannel or a DatagramChannel
 * ({@link ChannelCalls#newInputStream}), and {@code getInputStream()} for the socket of a SocketChannel
 * ({@link ChannelCalls#socketInputStream}): each read is one read of the channel through {@link ChannelCalls}, which in
 * emulated blocking mode suspends the PicoThread until bytes arrive (for a socket's stream, within its SO_TIMEOUT). As
 * the JDK's streams, it refuses a channel in non-blocking mode (as the program sees it) with
 * IllegalBlockingModeException and closes the channel when closed. Read by a platform thread while the channel's
 * blocking mode is not emulated, it is the JDK's stream, which it also asks what is {@code available}. The loops InputStream writes over {@code read} are written again here ({@link StreamLoops}), so
 * that no JDK frame stands between the caller and a read that suspends. Not for programs.
 */
public final class PicoChannelInputStream extends InputStream {
    private final SelectableChannel channel;
    private final ReadableByteChannel readable;
    /** The socket whose stream this is, or null for a stream of {@code Channels}. */
    private final Socket socket;
    /** The JDK's stream of the same channel or socket. */
    private final InputStream jdkStream;

    /** A stream over {@code channel}, a SocketChannel or a DatagramChannel, whose JDK stream is {@code jdkStream}. */
    public PicoChannelInputStream(SelectableChannel channel, InputStream jdkStream) {
        this.channel = channel;
        this.readable = (ReadableByteChannel) channel;
        this.socket = null;
        this.jdkStream = jdkStream;
    }

    /** The stream of {@code socket}, the socket of {@code channel}, whose own stream is {@code jdkStream}. */
    public PicoChannelInputStream(Socket socket, SocketChannel channel, InputStream jdkStream) {
        this.channel = channel;
        this.readable = channel;
        this.socket = socket;
        this.jdkStream = jdkStream;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int count = read(one, 0, 1);
        return count == 1 ? one[0] & 0xff : -1;
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
        if (!Parking.onPicoThread() && !BlockingChannels.isEmulated(channel)) {
            return jdkStream.read(bytes, offset, length);
        }
        if (!BlockingChannels.isBlocking(channel)) {
            throw new IllegalBlockingModeException();
        }
        if (socket != null) {
            return ChannelCalls.read((SocketChannel) channel, ByteBuffer.wrap(bytes, offset, length),
                    IoWait.deadlineAfter(socket.getSoTimeout()));
        }
        return ChannelCalls.read(readable, ByteBuffer.wrap(bytes, offset, length));
    }

    @Override
    public int available() throws IOException {
        return jdkStream.available();
    }

    @Override
    public int readNBytes(byte[] bytes, int offset, int length) throws IOException {
        return StreamLoops.readNBytes(this, bytes, offset, length);
    }

    @Override
    public byte[] readNBytes(int length) throws IOException {
        return StreamLoops.readNBytes(this, length);
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        return StreamLoops.readAllBytes(this);
    }

    @Override
    public long skip(long count) throws IOException {
        return StreamLoops.skipByReading(this, count);
    }

    @Override
    public void skipNBytes(long count) throws IOException {
        StreamLoops.skipNBytes(this, count);
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
        return StreamLoops.transferTo(this, out);
    }

    @Override
    public void close() throws IOException {
        BlockingChannels.close((AbstractInterruptibleChannel) channel);
    }
}
