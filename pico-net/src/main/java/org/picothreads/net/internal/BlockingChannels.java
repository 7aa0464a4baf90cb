package org.picothreads.net.internal;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.picothreads.runtime.internal.IoCalls;
import org.picothreads.runtime.internal.Parking;

/**
 * The channels in blocking mode that a PicoThread used and that pico-net therefore switched to non-blocking mode,
 * emulating blocking mode for the program, with the plain channel calls of the emulation and of pico-net's own
 * sockets (this package is not rewritten, so these calls reach the JDK's channel without the emulation's lookup).
 */
public final class BlockingChannels {
    /** The emulated channels, with their waits; a channel leaves when the program switches it to non-blocking. */
    private static final Map<SelectableChannel, EmulatedChannelWaits> EMULATED =
            Collections.synchronizedMap(new WeakHashMap<>());

    static {
        // before any channel is emulated: a close through Channel, Closeable or AutoCloseable then comes here too
        IoCalls.installChannelCloser(BlockingChannels::close);
    }

    private BlockingChannels() {
    }

    /**
     * The waits of {@code channel} when its blocking mode is emulated, after switching a channel in blocking mode
     * to emulation when the caller is a PicoThread; null when the call should go to the channel unchanged (a
     * non-blocking channel, or a blocking one that only platform threads have used).
     */
    public static EmulatedChannelWaits waitsOf(SelectableChannel channel) throws IOException {
        EmulatedChannelWaits waits = EMULATED.get(channel);
        if (waits != null || !Parking.onPicoThread()) {
            return waits;
        }
        synchronized (channel.blockingLock()) {
            waits = EMULATED.get(channel);
            if (waits == null && channel.isBlocking() && channel.isOpen()) {
                waits = new EmulatedChannelWaits(channel);
                EMULATED.put(channel, waits);
            }
            return waits;
        }
    }

    /** True while pico-net emulates {@code channel}'s blocking mode (it is non-blocking underneath). */
    public static boolean isEmulated(SelectableChannel channel) {
        return EMULATED.containsKey(channel);
    }

    /** {@code channel.isBlocking()} as the program sees it: true while its blocking mode is emulated. */
    public static boolean isBlocking(SelectableChannel channel) {
        return EMULATED.containsKey(channel) || channel.isBlocking();
    }

    /** {@code channel.configureBlocking(block)}: switching an emulated channel to non-blocking ends the emulation. */
    public static SelectableChannel configureBlocking(SelectableChannel channel, boolean block) throws IOException {
        synchronized (channel.blockingLock()) {
            if (EMULATED.containsKey(channel)) {
                if (block) {
                    if (!channel.isOpen()) {
                        channel.configureBlocking(true);
                    }
                    return channel;
                }
                EMULATED.remove(channel);
            }
            return channel.configureBlocking(block);
        }
    }

    /**
     * {@code channel.close()}: closes the channel and, when its blocking mode is emulated, wakes the threads waiting
     * on it, which then throw {@code AsynchronousCloseException} as the JDK's blocked calls do, and returns once its
     * socket is really closed (its port free again), as the JDK's close of a blocking channel does. Any other channel
     * is only closed.
     */
    public static void close(AbstractInterruptibleChannel channel) throws IOException {
        channel.close();
        if (channel instanceof SelectableChannel) {
            EmulatedChannelWaits waits = EMULATED.get(channel);
            if (waits != null) {
                waits.wakeAllAfterClose();
                waits.awaitSocketClosed();
            }
        }
    }

    /**
     * {@code channel.register(selector, operations)}: an emulated channel is in blocking mode as the program sees
     * it, so registering it fails as the JDK's does for a blocking channel.
     */
    public static SelectionKey register(SelectableChannel channel, Selector selector, int operations)
            throws ClosedChannelException {
        return register(channel, selector, operations, null);
    }

    /** {@code channel.register(selector, operations, attachment)}, refused on an emulated channel as above. */
    public static SelectionKey register(SelectableChannel channel, Selector selector, int operations,
            Object attachment) throws ClosedChannelException {
        if (EMULATED.containsKey(channel)) {
            if (!channel.isOpen()) {
                throw new ClosedChannelException();
            }
            throw new IllegalBlockingModeException();
        }
        return channel.register(selector, operations, attachment);
    }

    /**
     * One non-blocking read of a SocketChannel or a connected DatagramChannel; 0 when nothing is waiting (on a
     * DatagramChannel, -1 for an empty datagram, as the JDK's blocking read answers too).
     */
    public static int readNow(ReadableByteChannel channel, ByteBuffer buffer) throws IOException {
        return channel.read(buffer);
    }

    /** One non-blocking write of a SocketChannel, or of a connected DatagramChannel (0 when the datagram cannot go now). */
    public static int writeNow(WritableByteChannel channel, ByteBuffer buffer) throws IOException {
        return channel.write(buffer);
    }

    /** One non-blocking scattering read into {@code buffers[offset]} .. {@code buffers[offset + length - 1]}. */
    public static long readNow(ScatteringByteChannel channel, ByteBuffer[] buffers, int offset, int length)
            throws IOException {
        return channel.read(buffers, offset, length);
    }

    /** One non-blocking gathering write from {@code buffers[offset]} .. {@code buffers[offset + length - 1]}. */
    public static long writeNow(GatheringByteChannel channel, ByteBuffer[] buffers, int offset, int length)
            throws IOException {
        return channel.write(buffers, offset, length);
    }

    /** One non-blocking receive; null when no datagram is waiting. */
    public static SocketAddress receiveNow(DatagramChannel channel, ByteBuffer buffer) throws IOException {
        return channel.receive(buffer);
    }

    /** One non-blocking send; 0 when the datagram does not fit in the socket's send buffer now. */
    public static int sendNow(DatagramChannel channel, ByteBuffer buffer, SocketAddress target) throws IOException {
        return channel.send(buffer, target);
    }

    /** One non-blocking accept; null when no connection is pending. */
    public static SocketChannel acceptNow(ServerSocketChannel channel) throws IOException {
        return channel.accept();
    }

    /** Starts a non-blocking connect; true when it completed at once. */
    public static boolean startConnect(SocketChannel channel, SocketAddress remote) throws IOException {
        return channel.connect(remote);
    }

    /** One non-blocking attempt to finish a connect. */
    public static boolean finishConnectNow(SocketChannel channel) throws IOException {
        return channel.finishConnect();
    }
}
