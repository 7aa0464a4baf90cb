package org.picothreads.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import org.picothreads.net.internal.BlockingChannels;
import org.picothreads.net.internal.ChannelWaits;
import org.picothreads.net.internal.IoWait;
import org.picothreads.net.internal.SocketErrors;

/**
 * A {@link ServerSocket} whose accept suspends only the calling PicoThread: it wraps a non-blocking
 * {@link ServerSocketChannel} and returns {@link PicoSocket}s; rewritten programs get one wherever they create a
 * ServerSocket.
 */
public class PicoServerSocket extends ServerSocket {
    /** The default backlog of java.net's ServerSocket. */
    private static final int DEFAULT_BACKLOG = 50;

    private final ServerSocketChannel channel;
    private final ChannelWaits waits;
    /**
     * Serializes the accepts, as java.net's accept lock does: the socket's waits name one accepting thread, so a
     * second one waits here.
     */
    private final TransferLock acceptLock = new TransferLock();
    private volatile boolean closed;
    /**
     * The channel's local address when the socket closed (null when unbound): as java.net's, a closed server socket
     * keeps answering that it was bound, its address and its port.
     */
    private volatile InetSocketAddress localWhenClosed;
    /** SO_TIMEOUT in milliseconds; 0 waits forever. */
    private int soTimeout;

    /** An unbound server socket. */
    public PicoServerSocket() throws IOException {
        this.channel = ServerSocketChannel.open();
        this.waits = new ChannelWaits(channel);
    }

    /** A server socket bound to {@code port} on every address. */
    public PicoServerSocket(int port) throws IOException {
        this(port, DEFAULT_BACKLOG, null);
    }

    /** A server socket bound to {@code port} on every address, with a backlog. */
    public PicoServerSocket(int port, int backlog) throws IOException {
        this(port, backlog, null);
    }

    /** A server socket bound to {@code bindAddress}:{@code port} (every address when null), with a backlog. */
    public PicoServerSocket(int port, int backlog, InetAddress bindAddress) throws IOException {
        this();
        if (port < 0 || port > 0xFFFF) {
            close();
            throw new IllegalArgumentException("Port value out of range: " + port);
        }
        try {
            bind(new InetSocketAddress(bindAddress, port), backlog);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public void bind(SocketAddress endpoint) throws IOException {
        bind(endpoint, DEFAULT_BACKLOG);
    }

    @Override
    public void bind(SocketAddress endpoint, int backlog) throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (isBound()) {
            throw new SocketException("Already bound");
        }
        if (!channel.isOpen()) {
            throw new SocketException("Socket is closed");
        }
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.bind(endpoint == null ? new InetSocketAddress(0) : endpoint, backlog < 1 ? DEFAULT_BACKLOG : backlog);
    }

    @Override
    public InetAddress getInetAddress() {
        InetSocketAddress local = localAddress();
        return local == null ? null : local.getAddress();
    }

    @Override
    public int getLocalPort() {
        InetSocketAddress local = localAddress();
        return local == null ? -1 : local.getPort();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return localAddress();
    }

    /** The address the socket is bound to, null while unbound; once closed, the one it had then. */
    private InetSocketAddress localAddress() {
        if (closed) {
            return localWhenClosed;
        }
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return closed ? localWhenClosed : null;
        }
    }

    /**
     * Accepts a connection, suspending the calling PicoThread until one arrives, SO_TIMEOUT passes
     * ({@code SocketTimeoutException "Accept timed out"}) or the socket is closed ({@code SocketException "Socket
     * closed"}).
     */
    @Override
    public Socket accept() throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (!isBound()) {
            throw new SocketException("Socket is not bound yet");
        }
        acceptLock.lock();
        try {
            return acceptLocked();
        } finally {
            acceptLock.unlock();
        }
    }

    private Socket acceptLocked() throws IOException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
        long deadline = IoWait.deadlineAfter(soTimeout);
        while (true) {
            SocketChannel accepted;
            try {
                accepted = BlockingChannels.acceptNow(channel);
            } catch (IOException e) {
                throw SocketErrors.ofTransfer(e);
            }
            if (accepted != null) {
                return new PicoSocket(accepted);
            }
            if (IoWait.passed(deadline)) {
                throw new SocketTimeoutException("Accept timed out");
            }
            IoWait.awaitAcceptable(waits, deadline);
            if (closed) {
                throw new SocketException("Socket closed");
            }
        }
    }

    /**
     * Closes the socket; a thread blocked in accept gets SocketException "Socket closed". When it returns, the port
     * refuses connections and can be bound again, as after java.net's close.
     */
    @Override
    public void close() throws IOException {
        synchronized (waits) {
            if (closed) {
                return;
            }
            localWhenClosed = localAddress();
            closed = true;
        }
        try {
            channel.close();
        } finally {
            waits.wakeAllAfterClose();
        }
        waits.awaitSocketClosed();
    }

    /** Null, as for a java.net server socket that was not created from a channel. */
    @Override
    public ServerSocketChannel getChannel() {
        return null;
    }

    @Override
    public boolean isBound() {
        return localAddress() != null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized void setSoTimeout(int timeout) throws SocketException {
        ensureNotClosed();
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout < 0");
        }
        soTimeout = timeout;
    }

    @Override
    public synchronized int getSoTimeout() throws IOException {
        ensureNotClosed();
        return soTimeout;
    }

    @Override
    public void setReuseAddress(boolean on) throws SocketException {
        setChannelOption(StandardSocketOptions.SO_REUSEADDR, on);
    }

    @Override
    public boolean getReuseAddress() throws SocketException {
        return getChannelOption(StandardSocketOptions.SO_REUSEADDR);
    }

    @Override
    public synchronized void setReceiveBufferSize(int size) throws SocketException {
        if (size <= 0) {
            throw new IllegalArgumentException("negative receive size");
        }
        setChannelOption(StandardSocketOptions.SO_RCVBUF, size);
    }

    @Override
    public synchronized int getReceiveBufferSize() throws SocketException {
        return getChannelOption(StandardSocketOptions.SO_RCVBUF);
    }

    @Override
    public <T> ServerSocket setOption(SocketOption<T> name, T value) throws IOException {
        ensureNotClosed();
        channel.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        ensureNotClosed();
        return channel.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return channel.supportedOptions();
    }

    private <T> void setChannelOption(SocketOption<T> name, T value) throws SocketException {
        ensureNotClosed();
        SocketErrors.setOption(channel, name, value);
    }

    private <T> T getChannelOption(SocketOption<T> name) throws SocketException {
        ensureNotClosed();
        return SocketErrors.getOption(channel, name);
    }

    private void ensureNotClosed() throws SocketException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
    }

    @Override
    public String toString() {
        if (!isBound()) {
            return "ServerSocket[unbound]";
        }
        return "ServerSocket[addr=" + getInetAddress() + ",localport=" + getLocalPort() + "]";
    }

    @Override
    public void setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
        // java.net's server sockets ignore the preferences as well.
    }
}
