package org.picothreads.net.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.Objects;
import org.picothreads.net.ChannelCalls;
import org.picothreads.net.internal.BlockingChannels;
import org.picothreads.runtime.internal.Parking;

/**
 * What {@code Channels.newOutputStream} returns in rewritten code for a SocketChannel or a DatagramChannel
 * ({@link ChannelCalls#newOutputStream}), and {@code getOutputStream()} for the socket of a SocketChannel
 * ({@link ChannelCalls#socketOutputStream}): a write writes every byte through {@link ChannelCalls}, which in emulated
 * blocking mode suspends the PicoThread while the channel cannot take more. As the JDK's streams, it refuses a channel
 * in non-blocking mode (as the program sees it) with IllegalBlockingModeException and closes the channel when closed.
 * Written by a platform thread while the channel's blocking mode is not emulated, it is the JDK's stream. Not for
 * programs.
 */
public final class PicoChannelOutputStream extends OutputStream {
    private final SelectableChannel channel;
    private final WritableByteChannel writable;
    /** The JDK's stream of the same channel or socket. */
    private final OutputStream jdkStream;

    /**
     * A stream over {@code channel}, a SocketChannel or a DatagramChannel (or over the socket of a SocketChannel),
     * whose JDK stream is {@code jdkStream}.
     */
    public PicoChannelOutputStream(SelectableChannel channel, OutputStream jdkStream) {
        this.channel = channel;
        this.writable = (WritableByteChannel) channel;
        this.jdkStream = jdkStream;
    }

    @Override
    public void write(int value) throws IOException {
        write(new byte[] {(byte) value}, 0, 1);
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (length == 0) {
            return;
        }
        if (!Parking.onPicoThread() && !BlockingChannels.isEmulated(channel)) {
            jdkStream.write(bytes, offset, length);
            return;
        }
        if (!BlockingChannels.isBlocking(channel)) {
            throw new IllegalBlockingModeException();
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
        while (buffer.hasRemaining()) {
            if (ChannelCalls.write(writable, buffer) <= 0) {
                throw new IOException("no bytes written");
            }
        }
    }

    @Override
    public void close() throws IOException {
        BlockingChannels.close((AbstractInterruptibleChannel) channel);
    }
}
