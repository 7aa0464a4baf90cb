package org.picothreads.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Set;
import org.picothreads.net.internal.BlockingChannels;
import org.picothreads.net.internal.SocketErrors;
import org.picothreads.net.internal.ChannelWaits;
import org.picothreads.net.internal.IoWait;
import org.picothreads.net.internal.PacketCapacities;

/** The DatagramSocket that rewritten code creates: its send and receive suspend only the calling PicoThread. */
public class PicoDatagramSocket extends DatagramSocket {
    private final DatagramChannel channel;
    private final ChannelWaits waits;
    /**
     * Serializes the receives, as the JDK's datagram read lock does: the socket's waits name one receiving thread,
     * so a second one waits here.
     */
    private final TransferLock receiveLock = new TransferLock();
    /** Serializes the sends, as the JDK's datagram write lock does, for the one sending thread the waits name. */
    private final TransferLock sendLock = new TransferLock();
    private volatile int timeout;
    private volatile boolean closed;
    /**
     * The local and remote addresses the channel had when the socket closed (null when it was not bound or not
     * connected): as the JDK's, a closed socket answers {@code isBound}, {@code isConnected} and its remote address
     * as they were.
     */
    private volatile InetSocketAddress localWhenClosed;
    private volatile InetSocketAddress remoteWhenClosed;

    /** A socket bound to an ephemeral port of the wildcard address. */
    public PicoDatagramSocket() throws SocketException {
        this(new InetSocketAddress(0));
    }

    /** A socket bound to {@code port} of the wildcard address. */
    public PicoDatagramSocket(int port) throws SocketException {
        this(port, null);
    }

    /** A socket bound to {@code port} of {@code localAddress} (the wildcard address when null). */
    public PicoDatagramSocket(int port, InetAddress localAddress) throws SocketException {
        this(new InetSocketAddress(localAddress, port));
    }

    /** A socket bound to {@code bindAddress}, or unbound when it is null. */
    public PicoDatagramSocket(SocketAddress bindAddress) throws SocketException {
        super((SocketAddress) null);
        try {
            channel = DatagramChannel.open();
            waits = new ChannelWaits(channel);
        } catch (IOException e) {
            super.close();
            throw SocketErrors.asSocketException(e);
        }
        if (bindAddress != null) {
            try {
                channel.bind(bindAddress);
            } catch (IOException e) {
                close();
                throw SocketErrors.asSocketException(e);
            }
        }
    }

    private void ensureOpen() throws SocketException {
        if (closed) {
            throw new SocketException("Socket is closed");
        }
    }

    /**
     * Throws SocketException "Socket closed", as the JDK's send and receive do, when the socket is closed: before
     * they start, or while the caller waited for the channel or for another thread's send or receive.
     */
    private void ensureOpenAfterBlocking() throws SocketException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
    }

    @Override
    public synchronized void bind(SocketAddress address) throws SocketException {
        ensureOpen();
        if (isBound()) {
            throw new SocketException("Already bound");
        }
        try {
            channel.bind(address == null ? new InetSocketAddress(0) : address);
        } catch (IOException e) {
            throw SocketErrors.asSocketException(e);
        }
    }

    @Override
    public void connect(InetAddress address, int port) {
        if (address == null) {
            throw new IllegalArgumentException("Address can't be null");
        }
        try {
            connect(new InetSocketAddress(address, port));
        } catch (SocketException e) {
            throw new UncheckedIOException("connect failed", e);
        }
    }

    @Override
    public synchronized void connect(SocketAddress address) throws SocketException {
        if (address == null) {
            throw new IllegalArgumentException("Address can't be null");
        }
        if (closed) {
            return; // as the JDK's: connecting a closed socket does nothing
        }
        try {
            channel.connect(address);
        } catch (IOException e) {
            throw SocketErrors.asSocketException(e);
        }
    }

    @Override
    public synchronized void disconnect() {
        try {
            if (!closed) {
                channel.disconnect();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean isBound() {
        return (closed ? localWhenClosed : localSocketAddress()) != null;
    }

    @Override
    public boolean isConnected() {
        return remoteSocketAddress() != null;
    }

    @Override
    public InetAddress getInetAddress() {
        InetSocketAddress remote = remoteSocketAddress();
        return remote == null ? null : remote.getAddress();
    }

    @Override
    public int getPort() {
        InetSocketAddress remote = remoteSocketAddress();
        return remote == null ? -1 : remote.getPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return remoteSocketAddress();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return closed ? null : localSocketAddress();
    }

    /** The local address; the wildcard address while unbound, as the JDK's answers. */
    @Override
    public InetAddress getLocalAddress() {
        if (closed) {
            return null;
        }
        InetSocketAddress local = localSocketAddress();
        return (local == null ? new InetSocketAddress(0) : local).getAddress();
    }

    @Override
    public int getLocalPort() {
        if (closed) {
            return -1;
        }
        InetSocketAddress local = localSocketAddress();
        return local == null ? 0 : local.getPort();
    }

    private InetSocketAddress localSocketAddress() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** The peer's address, or null when not connected; once closed, the one it had then. */
    private InetSocketAddress remoteSocketAddress() {
        if (closed) {
            return remoteWhenClosed;
        }
        try {
            return (InetSocketAddress) channel.getRemoteAddress();
        } catch (IOException e) {
            return closed ? remoteWhenClosed : null;
        }
    }

    /** Sends the packet; waits (suspending a PicoThread) while the send buffer is full. */
    @Override
    public void send(DatagramPacket packet) throws IOException {
        ensureOpenAfterBlocking();
        SocketAddress target = packet.getAddress() == null ? null : packet.getSocketAddress();
        InetSocketAddress remote = remoteSocketAddress();
        if (remote != null) {
            if (target != null && !target.equals(remote)) {
                throw new IllegalArgumentException("Connected and packet address differ");
            }
            if (target == null) {
                // as the JDK's send does: the packet is addressed to the peer
                packet.setAddress(remote.getAddress());
                packet.setPort(remote.getPort());
            }
            target = remote;
        } else if (target == null) {
            throw new IllegalArgumentException("Address not set");
        }
        ByteBuffer buffer = ByteBuffer.wrap(packet.getData(), packet.getOffset(), packet.getLength());
        sendLock.lock();
        try {
            ensureOpenAfterBlocking();
            // a non-blocking send answers 0 both when the datagram does not fit now and for an empty datagram, sent
            while (BlockingChannels.sendNow(channel, buffer, target) == 0 && buffer.hasRemaining()) {
                IoWait.awaitWritable(waits, IoWait.NO_DEADLINE);
                ensureOpenAfterBlocking();
            }
        } catch (ClosedChannelException e) {
            throw new SocketException("Socket closed");
        } finally {
            sendLock.unlock();
        }
    }

    /**
     * Receives one datagram into the packet; waits (suspending a PicoThread) until one arrives or the
     * {@link #setSoTimeout} timeout passes, which throws SocketTimeoutException.
     */
    @Override
    public void receive(DatagramPacket packet) throws IOException {
        ensureOpenAfterBlocking();
        receiveLock.lock();
        try {
            receiveLocked(packet);
        } finally {
            receiveLock.unlock();
        }
    }

    private void receiveLocked(DatagramPacket packet) throws IOException {
        ensureOpenAfterBlocking();
        long deadline = IoWait.deadlineAfter(timeout);
        // the packet's whole buffer, as the JDK's receive fills it, not the length an earlier receive left
        int capacity = PacketCapacities.of(packet);
        ByteBuffer buffer = ByteBuffer.wrap(packet.getData(), packet.getOffset(), capacity);
        try {
            while (true) {
                SocketAddress sender = BlockingChannels.receiveNow(channel, buffer);
                if (sender != null) {
                    PacketCapacities.received(packet, capacity, buffer.position() - packet.getOffset());
                    packet.setSocketAddress(sender);
                    return;
                }
                if (IoWait.passed(deadline)) {
                    throw new SocketTimeoutException("Receive timed out");
                }
                IoWait.awaitReadable(waits, deadline);
                ensureOpenAfterBlocking();
            }
        } catch (ClosedChannelException e) {
            throw new SocketException("Socket closed");
        }
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        ensureOpen();
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout < 0");
        }
        this.timeout = timeout;
    }

    @Override
    public int getSoTimeout() throws SocketException {
        ensureOpen();
        return timeout;
    }

    @Override
    public void setSendBufferSize(int size) throws SocketException {
        if (size <= 0) {
            throw new IllegalArgumentException("Invalid send size");
        }
        setSocketOption(StandardSocketOptions.SO_SNDBUF, size);
    }

    @Override
    public int getSendBufferSize() throws SocketException {
        return socketOption(StandardSocketOptions.SO_SNDBUF);
    }

    @Override
    public void setReceiveBufferSize(int size) throws SocketException {
        if (size <= 0) {
            throw new IllegalArgumentException("Invalid receive size");
        }
        setSocketOption(StandardSocketOptions.SO_RCVBUF, size);
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return socketOption(StandardSocketOptions.SO_RCVBUF);
    }

    @Override
    public void setReuseAddress(boolean on) throws SocketException {
        setSocketOption(StandardSocketOptions.SO_REUSEADDR, on);
    }

    @Override
    public boolean getReuseAddress() throws SocketException {
        return socketOption(StandardSocketOptions.SO_REUSEADDR);
    }

    @Override
    public void setBroadcast(boolean on) throws SocketException {
        setSocketOption(StandardSocketOptions.SO_BROADCAST, on);
    }

    @Override
    public boolean getBroadcast() throws SocketException {
        return socketOption(StandardSocketOptions.SO_BROADCAST);
    }

    @Override
    public void setTrafficClass(int trafficClass) throws SocketException {
        setSocketOption(StandardSocketOptions.IP_TOS, trafficClass);
    }

    @Override
    public int getTrafficClass() throws SocketException {
        return socketOption(StandardSocketOptions.IP_TOS);
    }

    @Override
    public <T> DatagramSocket setOption(SocketOption<T> name, T value) throws IOException {
        setSocketOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        return socketOption(name);
    }

    private <T> void setSocketOption(SocketOption<T> name, T value) throws SocketException {
        ensureOpen();
        SocketErrors.setOption(channel, name, value);
    }

    private <T> T socketOption(SocketOption<T> name) throws SocketException {
        ensureOpen();
        return SocketErrors.getOption(channel, name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return channel.supportedOptions();
    }

    /** Closes the socket; a thread blocked sending or receiving on it gets SocketException "Socket closed". */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            localWhenClosed = localSocketAddress();
            remoteWhenClosed = remoteSocketAddress();
            closed = true;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // the socket is closed either way
        } finally {
            waits.wakeAllAfterClose();
            super.close();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** Null, as for a java.net datagram socket not made from a channel. */
    @Override
    public DatagramChannel getChannel() {
        return null;
    }
}
