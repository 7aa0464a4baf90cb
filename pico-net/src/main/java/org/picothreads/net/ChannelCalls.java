package org.picothreads.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.DatagramChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.util.Objects;
import org.picothreads.net.io.PicoChannelInputStream;
import org.picothreads.net.io.PicoChannelOutputStream;
import org.picothreads.net.io.PicoInputStreamReader;
import org.picothreads.net.io.PicoOutputStreamWriter;
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
 *
 * <p>The same calls made through the channel interfaces ({@code ReadableByteChannel}, {@code WritableByteChannel},
 * the scattering and gathering ones and the interfaces extending them) and {@code Channels}' streams, readers and
 * writers come here too: on a SocketChannel or a DatagramChannel they behave as the calls through its class, and on
 * any other channel they are that channel's own; so do the streams of a SocketChannel's socket. (A close through
 * {@code Channel}, {@code Closeable} or {@code AutoCloseable} goes to the runtime's {@code IoCalls}, which hands a
 * channel to {@link BlockingChannels#close}.)
 */
public final class ChannelCalls {
    private ChannelCalls() {
    }

    /** {@code channel.read(buffer)} through an interface: as through the channel's class for a socket channel. */
    public static int read(ReadableByteChannel channel, ByteBuffer buffer) throws IOException {
        if (channel instanceof SocketChannel socket) {
            return read(socket, buffer);
        }
        if (channel instanceof DatagramChannel datagram) {
            return read(datagram, buffer);
        }
        return channel.read(buffer);
    }

    /** {@code channel.write(buffer)} through an interface: as through the channel's class for a socket channel. */
    public static int write(WritableByteChannel channel, ByteBuffer buffer) throws IOException {
        if (channel instanceof SocketChannel socket) {
            return write(socket, buffer);
        }
        if (channel instanceof DatagramChannel datagram) {
            return write(datagram, buffer);
        }
        return channel.write(buffer);
    }

    /** {@code channel.read(buffers)} through an interface, as {@link #read(ReadableByteChannel, ByteBuffer)}. */
    public static long read(ScatteringByteChannel channel, ByteBuffer[] buffers) throws IOException {
        if (channel instanceof SocketChannel socket) {
            return read(socket, buffers);
        }
        if (channel instanceof DatagramChannel datagram) {
            return read(datagram, buffers);
        }
        return channel.read(buffers);
    }

    /** {@code channel.read(buffers, offset, length)} through an interface, as a read into one buffer. */
    public static long read(ScatteringByteChannel channel, ByteBuffer[] buffers, int offset, int length)
            throws IOException {
        if (channel instanceof SocketChannel socket) {
            return read(socket, buffers, offset, length);
        }
        if (channel instanceof DatagramChannel datagram) {
            return read(datagram, buffers, offset, length);
        }
        return channel.read(buffers, offset, length);
    }

    /** {@code channel.write(buffers)} through an interface, as {@link #write(WritableByteChannel, ByteBuffer)}. */
    public static long write(GatheringByteChannel channel, ByteBuffer[] buffers) throws IOException {
        if (channel instanceof SocketChannel socket) {
            return write(socket, buffers);
        }
        if (channel instanceof DatagramChannel datagram) {
            return write(datagram, buffers);
        }
        return channel.write(buffers);
    }

    /** {@code channel.write(buffers, offset, length)} through an interface, as a write of one buffer. */
    public static long write(GatheringByteChannel channel, ByteBuffer[] buffers, int offset, int length)
            throws IOException {
        if (channel instanceof SocketChannel socket) {
            return write(socket, buffers, offset, length);
        }
        if (channel instanceof DatagramChannel datagram) {
            return write(datagram, buffers, offset, length);
        }
        return channel.write(buffers, offset, length);
    }

    /**
     * {@code Channels.newInputStream(channel)}: over a SocketChannel or a DatagramChannel, a stream whose reads are
     * this class's (a read in emulated blocking mode suspends the PicoThread; the JDK's stream would refuse the
     * channel, which is non-blocking underneath); over any other channel, the JDK's stream.
     */
    public static InputStream newInputStream(ReadableByteChannel channel) {
        if (channel instanceof SocketChannel || channel instanceof DatagramChannel) {
            return new PicoChannelInputStream((SelectableChannel) channel, Channels.newInputStream(channel));
        }
        return Channels.newInputStream(channel);
    }

    /**
     * {@code socket.getInputStream()}: for the socket of a SocketChannel ({@code channel.socket()}), a stream that
     * reads as {@link #read(SocketChannel, ByteBuffer, long)} does, within the socket's SO_TIMEOUT, on a PicoThread or
     * once the channel's blocking mode is emulated, and as the JDK's stream otherwise; for any other socket, its own
     * stream. The JDK's stream is asked for first, so that a closed, unconnected or shut down socket throws as it does.
     */
    public static InputStream socketInputStream(Socket socket) throws IOException {
        InputStream own = socket.getInputStream();
        SocketChannel channel = socket.getChannel();
        return channel == null ? own : new PicoChannelInputStream(socket, channel, own);
    }

    /** {@code socket.getOutputStream()}, as {@link #socketInputStream}: writes as the channel's {@code write} does. */
    public static OutputStream socketOutputStream(Socket socket) throws IOException {
        OutputStream own = socket.getOutputStream();
        SocketChannel channel = socket.getChannel();
        return channel == null ? own : new PicoChannelOutputStream(channel, own);
    }

    /**
     * {@code channel.read(buffer)} within a deadline ({@link IoWait#NO_DEADLINE} for none): in blocking mode, waits
     * until at least one byte or the end of stream arrives, or throws SocketTimeoutException("Read timed out") once
     * the deadline has passed, as the read of a channel's socket's stream does.
     */
    public static int read(SocketChannel channel, ByteBuffer buffer, long deadline) throws IOException {
        return readWaiting(channel, buffer, deadline);
    }

    /** {@code Channels.newOutputStream(channel)}, as {@link #newInputStream}: writes are this class's. */
    public static OutputStream newOutputStream(WritableByteChannel channel) {
        if (channel instanceof SocketChannel || channel instanceof DatagramChannel) {
            return new PicoChannelOutputStream((SelectableChannel) channel, Channels.newOutputStream(channel));
        }
        return Channels.newOutputStream(channel);
    }

    /**
     * {@code Channels.newReader(channel, decoder, minBufferCapacity)}: over a SocketChannel or a DatagramChannel, a
     * reader that decodes with {@code decoder} (reset, its error actions kept, as the JDK's) what the stream of
     * {@link #newInputStream} reads; over any other channel, the JDK's reader.
     */
    public static Reader newReader(ReadableByteChannel channel, CharsetDecoder decoder, int minBufferCapacity) {
        Objects.requireNonNull(channel, "ch");
        if (channel instanceof SocketChannel || channel instanceof DatagramChannel) {
            return new PicoInputStreamReader(newInputStream(channel), decoder.reset());
        }
        return Channels.newReader(channel, decoder, minBufferCapacity);
    }

    /** {@code Channels.newReader(channel, charsetName)}, as the form with a decoder. */
    public static Reader newReader(ReadableByteChannel channel, String charsetName) {
        Objects.requireNonNull(charsetName, "csName");
        return newReader(channel, Charset.forName(charsetName).newDecoder(), -1);
    }

    /** {@code Channels.newReader(channel, charset)}, as the form with a decoder. */
    public static Reader newReader(ReadableByteChannel channel, Charset charset) {
        Objects.requireNonNull(charset, "charset");
        return newReader(channel, charset.newDecoder(), -1);
    }

    /**
     * {@code Channels.newWriter(channel, encoder, minBufferCapacity)}: over a SocketChannel or a DatagramChannel, a
     * writer that encodes with {@code encoder} (reset, its error actions kept, as the JDK's) into the stream of
     * {@link #newOutputStream}; over any other channel, the JDK's writer.
     */
    public static Writer newWriter(WritableByteChannel channel, CharsetEncoder encoder, int minBufferCapacity) {
        Objects.requireNonNull(channel, "ch");
        Objects.requireNonNull(encoder, "enc");
        if (channel instanceof SocketChannel || channel instanceof DatagramChannel) {
            return new PicoOutputStreamWriter(newOutputStream(channel), encoder.reset());
        }
        return Channels.newWriter(channel, encoder, minBufferCapacity);
    }

    /** {@code Channels.newWriter(channel, charsetName)}, as the form with an encoder. */
    public static Writer newWriter(WritableByteChannel channel, String charsetName) {
        Objects.requireNonNull(charsetName, "csName");
        return newWriter(channel, Charset.forName(charsetName).newEncoder(), -1);
    }

    /** {@code Channels.newWriter(channel, charset)}, as the form with an encoder. */
    public static Writer newWriter(WritableByteChannel channel, Charset charset) {
        Objects.requireNonNull(charset, "charset");
        return newWriter(channel, charset.newEncoder(), -1);
    }

    /** {@code channel.read(buffer)}: in blocking mode, waits until at least one byte or the end of stream. */
    public static int read(SocketChannel channel, ByteBuffer buffer) throws IOException {
        return readWaiting(channel, buffer, IoWait.NO_DEADLINE);
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
     * gives something (bytes, the end of stream, or an empty datagram) or the buffer has no room, or throws
     * SocketTimeoutException("Read timed out") once {@code deadline} has passed; otherwise it is one plain read. An
     * unconnected DatagramChannel throws NotYetConnectedException before any wait, as the JDK's.
     */
    private static <C extends SelectableChannel & ReadableByteChannel> int readWaiting(C channel, ByteBuffer buffer,
            long deadline) throws IOException {
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
                if (IoWait.passed(deadline)) {
                    throw new SocketTimeoutException("Read timed out");
                }
                IoWait.awaitReadable(waits, deadline);
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
        return readWaiting(channel, buffer, IoWait.NO_DEADLINE);
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
