package org.picothreads.net;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.picothreads.net.internal.BlockingChannels;
import org.picothreads.net.internal.EmulatedChannelWaits;
import org.picothreads.net.internal.IoWait;

/**
 * Where rewritten calls of SocketChannel's read, write (scattering and gathering too) and connect,
 * ServerSocketChannel's accept and DatagramChannel's receive, send, and a connected one's read and write (scattering
 * and gathering too) go: on a channel in blocking mode used by a PicoThread they suspend only that thread, and
 * otherwise they are the channel's own calls. Such calls in one direction of one channel are serialized, as the JDK's
 * channel locks serialize them: a read, receive or accept holds the channel's read lock until it returns, a write or
 * send its write lock (so a blocking write reaches the peer whole, never interleaved with another thread's), and a
 * connect both; a second thread meanwhile waits for the lock, suspended. A call waiting on a channel that another
 * thread closes (through {@code BlockingChannels.close}) throws AsynchronousCloseException, as the JDK's does, or, a
 * write that wrote some bytes, returns their count.
 */
public final class ChannelCalls {
    private ChannelCalls() {
    }

    /** {@code channel.read(buffer)}: in blocking mode, waits until at least one byte or the end of stream. */
    public static int read(SocketChannel channel, ByteBuffer buffer) throws IOException {
        return readWaiting(channel, buffer);
    }

    /** {@code channel.write(buffer)}: in blocking mode, returns once every remaining byte is written. */
    public static int write(SocketChannel channel, ByteBuffer buffer) throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.writeNow(channel, buffer);
        }
        waits.writeLock.lock();
        try {
            int written = 0;
            while (true) {
                written += BlockingChannels.writeNow(channel, buffer);
                if (!buffer.hasRemaining()) {
                    return written;
                }
                IoWait.awaitWritable(waits, IoWait.NO_DEADLINE);
                if (written > 0 && !channel.isOpen()) {
                    // closed under a write that wrote some bytes: the JDK's returns their count
                    return written;
                }
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.writeLock.unlock();
        }
    }

    /** {@code channel.read(buffers)}: a scattering read, waiting in blocking mode as a read into one buffer does. */
    public static long read(SocketChannel channel, ByteBuffer[] buffers) throws IOException {
        return read(channel, buffers, 0, buffers.length);
    }

    /** {@code channel.read(buffers, offset, length)}: in blocking mode, waits for a byte or the end of stream. */
    public static long read(SocketChannel channel, ByteBuffer[] buffers, int offset, int length) throws IOException {
        return readWaiting(channel, buffers, offset, length);
    }

    /** {@code channel.write(buffers)}: a gathering write; in blocking mode, returns once every byte is written. */
    public static long write(SocketChannel channel, ByteBuffer[] buffers) throws IOException {
        return write(channel, buffers, 0, buffers.length);
    }

    /** {@code channel.write(buffers, offset, length)}: in blocking mode, returns once every byte is written. */
    public static long write(SocketChannel channel, ByteBuffer[] buffers, int offset, int length) throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.writeNow(channel, buffers, offset, length);
        }
        waits.writeLock.lock();
        try {
            long written = 0;
            while (true) {
                written += BlockingChannels.writeNow(channel, buffers, offset, length);
                if (!hasRemaining(buffers, offset, length)) {
                    return written;
                }
                IoWait.awaitWritable(waits, IoWait.NO_DEADLINE);
                if (written > 0 && !channel.isOpen()) {
                    return written;
                }
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.writeLock.unlock();
        }
    }

    /**
     * A read of a SocketChannel or a connected DatagramChannel: in emulated blocking mode it waits until the channel
     * gives something (bytes, the end of stream, or an empty datagram) or the buffer has no room; otherwise it is
     * one plain read. An unconnected DatagramChannel throws NotYetConnectedException before any wait, as the JDK's.
     */
    private static <C extends SelectableChannel & ReadableByteChannel> int readWaiting(C channel, ByteBuffer buffer)
            throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.readNow(channel, buffer);
        }
        waits.readLock.lock();
        try {
            while (true) {
                int count = BlockingChannels.readNow(channel, buffer);
                if (count != 0 || !buffer.hasRemaining()) {
                    return count;
                }
                IoWait.awaitReadable(waits, IoWait.NO_DEADLINE);
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.readLock.unlock();
        }
    }

    /** A scattering read of a SocketChannel or a connected DatagramChannel, waiting as {@link #readWaiting} does. */
    private static <C extends SelectableChannel & ScatteringByteChannel> long readWaiting(C channel,
            ByteBuffer[] buffers, int offset, int length) throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.readNow(channel, buffers, offset, length);
        }
        waits.readLock.lock();
        try {
            while (true) {
                long count = BlockingChannels.readNow(channel, buffers, offset, length);
                if (count != 0 || !hasRemaining(buffers, offset, length)) {
                    return count;
                }
                IoWait.awaitReadable(waits, IoWait.NO_DEADLINE);
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.readLock.unlock();
        }
    }

    private static boolean hasRemaining(ByteBuffer[] buffers, int offset, int length) {
        for (int index = offset; index < offset + length; index++) {
            if (buffers[index].hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    /** {@code channel.receive(buffer)} of a DatagramChannel: in blocking mode, waits for a datagram. */
    public static SocketAddress receive(DatagramChannel channel, ByteBuffer buffer) throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.receiveNow(channel, buffer);
        }
        waits.readLock.lock();
        try {
            while (true) {
                SocketAddress sender = BlockingChannels.receiveNow(channel, buffer);
                if (sender != null) {
                    return sender;
                }
                IoWait.awaitReadable(waits, IoWait.NO_DEADLINE);
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.readLock.unlock();
        }
    }

    /** {@code channel.send(buffer, target)} of a DatagramChannel: in blocking mode, waits until the datagram is sent. */
    public static int send(DatagramChannel channel, ByteBuffer buffer, SocketAddress target) throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.sendNow(channel, buffer, target);
        }
        waits.writeLock.lock();
        try {
            while (true) {
                int sent = BlockingChannels.sendNow(channel, buffer, target);
                if (sent != 0 || !buffer.hasRemaining()) {
                    return sent;
                }
                IoWait.awaitWritable(waits, IoWait.NO_DEADLINE);
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.writeLock.unlock();
        }
    }

    /**
     * {@code channel.read(buffer)} of a connected DatagramChannel: in blocking mode, waits for a datagram from the
     * peer. A non-blocking read tells "nothing yet" (0) from an empty datagram (-1 on the JDK's channel, blocking or
     * not), so the emulation returns what the JDK's blocking read would.
     */
    public static int read(DatagramChannel channel, ByteBuffer buffer) throws IOException {
        return readWaiting(channel, buffer);
    }

    /** {@code channel.read(buffers)} of a connected DatagramChannel: a scattering read, waiting as a read does. */
    public static long read(DatagramChannel channel, ByteBuffer[] buffers) throws IOException {
        return read(channel, buffers, 0, buffers.length);
    }

    /** {@code channel.read(buffers, offset, length)} of a connected DatagramChannel, waiting as a read does. */
    public static long read(DatagramChannel channel, ByteBuffer[] buffers, int offset, int length)
            throws IOException {
        return readWaiting(channel, buffers, offset, length);
    }

    /** {@code channel.write(buffer)} of a connected DatagramChannel: in blocking mode, waits until it is sent. */
    public static int write(DatagramChannel channel, ByteBuffer buffer) throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.writeNow(channel, buffer);
        }
        waits.writeLock.lock();
        try {
            while (true) {
                int sent = BlockingChannels.writeNow(channel, buffer);
                if (sent != 0 || !buffer.hasRemaining()) {
                    return sent;
                }
                IoWait.awaitWritable(waits, IoWait.NO_DEADLINE);
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.writeLock.unlock();
        }
    }

    /** {@code channel.write(buffers)} of a connected DatagramChannel: one datagram, waiting while it cannot go. */
    public static long write(DatagramChannel channel, ByteBuffer[] buffers) throws IOException {
        return write(channel, buffers, 0, buffers.length);
    }

    /**
     * {@code channel.write(buffers, offset, length)} of a connected DatagramChannel, as
     * {@link #write(DatagramChannel, ByteBuffer[])}.
     */
    public static long write(DatagramChannel channel, ByteBuffer[] buffers, int offset, int length)
            throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.writeNow(channel, buffers, offset, length);
        }
        waits.writeLock.lock();
        try {
            while (true) {
                long sent = BlockingChannels.writeNow(channel, buffers, offset, length);
                if (sent != 0 || !hasRemaining(buffers, offset, length)) {
                    return sent;
                }
                IoWait.awaitWritable(waits, IoWait.NO_DEADLINE);
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.writeLock.unlock();
        }
    }

    /** {@code channel.connect(remote)}: in blocking mode, returns true once the connection is established. */
    public static boolean connect(SocketChannel channel, SocketAddress remote) throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.startConnect(channel, remote);
        }
        waits.readLock.lock();
        try {
            waits.writeLock.lock();
            try {
                if (BlockingChannels.startConnect(channel, remote)) {
                    return true;
                }
                while (!BlockingChannels.finishConnectNow(channel)) {
                    IoWait.awaitConnectable(waits, IoWait.NO_DEADLINE);
                    waits.ensureOpenAfterWait();
                }
                return true;
            } finally {
                waits.writeLock.unlock();
            }
        } finally {
            waits.readLock.unlock();
        }
    }

    /** {@code channel.accept()}: in blocking mode, waits for a connection; the accepted channel is blocking. */
    public static SocketChannel accept(ServerSocketChannel channel) throws IOException {
        EmulatedChannelWaits waits = BlockingChannels.waitsOf(channel);
        if (waits == null) {
            return BlockingChannels.acceptNow(channel);
        }
        waits.readLock.lock();
        try {
            while (true) {
                SocketChannel accepted = BlockingChannels.acceptNow(channel);
                if (accepted != null) {
                    return accepted;
                }
                IoWait.awaitAcceptable(waits, IoWait.NO_DEADLINE);
                waits.ensureOpenAfterWait();
            }
        } finally {
            waits.readLock.unlock();
        }
    }
}
