package org.picothreads.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.util.Set;
import org.picothreads.net.internal.BlockingChannels;
import org.picothreads.net.internal.ChannelWaits;
import org.picothreads.net.internal.IoWait;
import org.picothreads.net.internal.SocketErrors;
import org.picothreads.runtime.internal.NameLookups;
import org.picothreads.runtime.internal.SocketCalls;

/**
 * A {@link Socket} whose connect, read and write suspend only the calling PicoThread: it wraps a non-blocking
 * {@link SocketChannel} and waits through pico-net's primitives; rewritten programs get one wherever they create a
 * Socket.
 *
 * <p>The connecting constructors cannot suspend (a constructor cannot be captured): they only start a non-blocking
 * connect. The transformer follows each {@code new Socket(host, port)} with a call of {@link #finishConnecting()}
 * on the new socket, which suspends until the connect completes and throws as java.net's constructor would; code
 * that was not rewritten (or a subclass's constructor) leaves the connect to finish at the first read or write.
 */
public class PicoSocket extends Socket implements SocketCalls.Connecting {
    /** The channel, in non-blocking mode. */
    final SocketChannel channel;
    /** Who waits on the channel. */
    final ChannelWaits waits;
    /**
     * True when this socket's streams run no code of the program's: the socket is of this class, not a subclass the
     * program wrote (whose overrides the streams would call), and its channel is the JDK's
     * ({@link org.picothreads.runtime.internal.DirectStream}).
     */
    final boolean streamsDirect;
    /** True while a connect started by a constructor has not finished yet. */
    private boolean connectPending;
    /**
     * The host and port a connecting constructor on a PicoThread was given by name, looked up when the connect is
     * finished (a constructor cannot suspend for the lookup); null otherwise.
     */
    private InetSocketAddress remoteToLookUp;
    /** The local address to bind before connecting to {@link #remoteToLookUp}, or null. */
    private InetSocketAddress localForLookedUpRemote;
    /** True once connect was called or a connecting constructor ran, or the socket was accepted. */
    private boolean connected;
    /**
     * Whether a connect that fails closes the socket, as java.net.Socket does from JDK 24 on (JDK-8343791);
     * before, the socket stays open and unconnected.
     */
    private static final boolean CLOSES_ON_FAILED_CONNECT = Runtime.version().feature() >= 24;
    /**
     * java.net.Socket's message for a connect of a socket already connected: capitalised since its connect was
     * rewritten by the same change (seen on JDK 25), as before it on JDK 17.
     */
    private static final String ALREADY_CONNECTED = CLOSES_ON_FAILED_CONNECT ? "Already connected"
            : "already connected";

    private volatile boolean closed;
    /**
     * The local and remote addresses the channel had when the socket closed (null when it was not bound or not
     * connected): as java.net's, a closed socket keeps answering that it was bound, its local port and address, and
     * its peer.
     */
    private volatile InetSocketAddress localWhenClosed;
    private volatile InetSocketAddress remoteWhenClosed;
    private boolean inputShutdown;
    private boolean outputShutdown;
    /** SO_TIMEOUT in milliseconds; 0 waits forever. */
    private int soTimeout;
    private PicoSocketInputStream input;
    private PicoSocketOutputStream output;

    /** An unconnected socket. */
    public PicoSocket() {
        this.channel = openChannel();
        this.waits = newWaits(channel);
        this.streamsDirect = streamsDirect(this, channel);
    }

    /** An unconnected socket; only a direct connection ({@link Proxy#NO_PROXY}) is supported. */
    public PicoSocket(Proxy proxy) {
        this();
        if (proxy == null) {
            throw new IllegalArgumentException("Invalid Proxy");
        }
        if (proxy.type() != Proxy.Type.DIRECT) {
            closeQuietly();
            throw new IllegalArgumentException("PicoThreads: sockets through a proxy are not supported: " + proxy);
        }
    }

    /**
     * A socket connecting to {@code host}:{@code port}; see the class comment for when the connect completes. On a
     * PicoThread a host name is looked up then too, so that only the calling PicoThread waits for the lookup.
     */
    public PicoSocket(String host, int port) throws UnknownHostException, IOException {
        this(host, port, (InetSocketAddress) null);
    }

    /** A socket connecting to {@code address}:{@code port}. */
    public PicoSocket(InetAddress address, int port) throws IOException {
        this(new InetSocketAddress(address, port), null);
    }

    /** A socket bound to {@code localAddress}:{@code localPort}, connecting to {@code host}:{@code port}. */
    public PicoSocket(String host, int port, InetAddress localAddress, int localPort) throws IOException {
        this(host, port, new InetSocketAddress(localAddress, localPort));
    }

    /** A socket bound to {@code localAddress}:{@code localPort}, connecting to {@code address}:{@code port}. */
    public PicoSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        this(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    /** A stream socket connecting to {@code host}:{@code port}; datagram sockets ({@code stream} false) are refused. */
    @Deprecated
    public PicoSocket(String host, int port, boolean stream) throws IOException {
        this(host, port, streamOnly(stream));
    }

    /** A stream socket connecting to {@code address}:{@code port}; datagram sockets are refused. */
    @Deprecated
    public PicoSocket(InetAddress address, int port, boolean stream) throws IOException {
        this(new InetSocketAddress(address, port), streamOnly(stream));
    }

    /** Connects to a host given by name: looked up now on a platform thread, when the connect finishes otherwise. */
    private PicoSocket(String host, int port, InetSocketAddress local) throws IOException {
        this();
        if (NameLookups.answeredInPlace(host)) {
            lookUpAndStartConnect(host, port, local);
        } else {
            try {
                remoteToLookUp = InetSocketAddress.createUnresolved(host, port);
            } catch (IllegalArgumentException e) {
                closeQuietly();
                throw e;
            }
            localForLookedUpRemote = local;
            connected = true;
            connectPending = true;
        }
    }

    private PicoSocket(InetSocketAddress remote, InetSocketAddress local) throws IOException {
        this();
        startConnect(remote, local);
    }

    /** Looks {@code host} up and starts connecting to it; on failure, an unknown host included, the socket is closed. */
    private void lookUpAndStartConnect(String host, int port, InetSocketAddress local) throws IOException {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            closeQuietly();
            throw e;
        }
        startConnect(new InetSocketAddress(address, port), local);
    }

    /** Binds to {@code local} if given and starts connecting to {@code remote}; on failure the socket is closed. */
    private void startConnect(InetSocketAddress remote, InetSocketAddress local) throws IOException {
        try {
            if (local != null) {
                channel.bind(local);
            }
            connected = true;
            connectPending = !BlockingChannels.startConnect(channel, remote);
        } catch (IOException e) {
            closeQuietly();
            throw SocketErrors.ofConnect(e);
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /** A socket for a connection that a {@link PicoServerSocket} accepted. */
    PicoSocket(SocketChannel accepted) throws IOException {
        this.channel = accepted;
        this.waits = new ChannelWaits(accepted);
        this.streamsDirect = streamsDirect(this, accepted);
        this.connected = true;
    }

    private static InetSocketAddress streamOnly(boolean stream) {
        if (!stream) {
            throw new IllegalArgumentException("PicoThreads: datagram sockets through java.net.Socket are not supported");
        }
        return null;
    }

    private static boolean streamsDirect(PicoSocket socket, SocketChannel channel) {
        return socket.getClass() == PicoSocket.class && channel.getClass().getClassLoader() == null;
    }

    private static SocketChannel openChannel() {
        try {
            return SocketChannel.open();
        } catch (IOException e) {
            throw new IllegalStateException("PicoThreads: cannot open a socket channel", e);
        }
    }

    private static ChannelWaits newWaits(SocketChannel channel) {
        try {
            return new ChannelWaits(channel);
        } catch (IOException e) {
            throw new IllegalStateException("PicoThreads: cannot make a socket channel non-blocking", e);
        }
    }

    @Override
    public void connect(SocketAddress endpoint) throws IOException {
        connect(endpoint, 0);
    }

    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
        if (endpoint == null) {
            throw new IllegalArgumentException("connect: The address can't be null");
        }
        if (timeout < 0) {
            throw new IllegalArgumentException("connect: timeout can't be negative");
        }
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (connected) {
            throw new SocketException(ALREADY_CONNECTED);
        }
        if (!(endpoint instanceof InetSocketAddress)) {
            throw new IllegalArgumentException("Unsupported address type");
        }
        InetSocketAddress address = (InetSocketAddress) endpoint;
        if (address.isUnresolved()) {
            connectFailed();
            throw new UnknownHostException(address.getHostName());
        }
        long deadline = IoWait.deadlineAfter(timeout);
        connected = true;
        try {
            connectPending = !BlockingChannels.startConnect(channel, address);
        } catch (IOException e) {
            connectFailed();
            throw SocketErrors.ofConnect(e);
        }
        finishConnect(deadline, "Connect timed out");
    }

    @Override
    public void finishConnecting() throws IOException {
        finishConnect(IoWait.NO_DEADLINE, "Connect timed out");
    }

    /**
     * Finishes a connect still in progress, waiting until {@code deadline}, after looking up the host a connecting
     * constructor was given by name; on failure the socket is closed.
     */
    void finishConnect(long deadline, String timeoutMessage) throws IOException {
        InetSocketAddress named = remoteToLookUp;
        if (named != null) {
            InetSocketAddress local = localForLookedUpRemote;
            remoteToLookUp = null;
            localForLookedUpRemote = null;
            connectPending = false;
            lookUpAndStartConnect(named.getHostString(), named.getPort(), local);
        }
        while (connectPending) {
            boolean done;
            try {
                done = BlockingChannels.finishConnectNow(channel);
            } catch (IOException e) {
                connectFailed();
                throw SocketErrors.ofConnect(e);
            }
            if (done) {
                connectPending = false;
                return;
            }
            if (IoWait.passed(deadline)) {
                connectFailed();
                throw new SocketTimeoutException(timeoutMessage);
            }
            IoWait.awaitConnectable(waits, deadline);
        }
    }

    @Override
    public void bind(SocketAddress bindpoint) throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (isBound()) {
            throw new SocketException("Already bound");
        }
        channel.bind(bindpoint);
    }

    @Override
    public InetAddress getInetAddress() {
        InetSocketAddress remote = remoteAddress();
        return remote == null ? null : remote.getAddress();
    }

    @Override
    public InetAddress getLocalAddress() {
        InetSocketAddress local = localAddress();
        if (local == null) {
            try {
                return InetAddress.getByAddress("0.0.0.0", new byte[4]);
            } catch (UnknownHostException e) {
                return null;
            }
        }
        return local.getAddress();
    }

    @Override
    public int getPort() {
        InetSocketAddress remote = remoteAddress();
        return remote == null ? 0 : remote.getPort();
    }

    @Override
    public int getLocalPort() {
        InetSocketAddress local = boundAddress();
        return local == null ? -1 : local.getPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return connected ? remoteAddress() : null;
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return boundAddress();
    }

    /**
     * The address the socket is bound to, null while unbound; once closed, the one it had then ({@code isBound}, the
     * local port and socket address keep it, as java.net's; {@code getLocalAddress} answers the wildcard address).
     */
    private InetSocketAddress boundAddress() {
        return closed ? localWhenClosed : localAddress();
    }

    /** The peer's address, null while there is none; once closed, the one it had then. */
    private InetSocketAddress remoteAddress() {
        if (closed) {
            return remoteWhenClosed;
        }
        try {
            return (InetSocketAddress) channel.getRemoteAddress();
        } catch (IOException e) {
            return closed ? remoteWhenClosed : null;
        }
    }

    private InetSocketAddress localAddress() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** Null, as for a java.net socket that was not created from a channel. */
    @Override
    public SocketChannel getChannel() {
        return null;
    }

    @Override
    public InputStream getInputStream() throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (!isConnected()) {
            throw new SocketException("Socket is not connected");
        }
        if (isInputShutdown()) {
            throw new SocketException("Socket input is shutdown");
        }
        if (input == null) {
            input = new PicoSocketInputStream(this);
        }
        return input;
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (!isConnected()) {
            throw new SocketException("Socket is not connected");
        }
        if (isOutputShutdown()) {
            throw new SocketException("Socket output is shutdown");
        }
        if (output == null) {
            output = new PicoSocketOutputStream(this);
        }
        return output;
    }

    /** The deadline of a read that starts now, from SO_TIMEOUT. */
    long readDeadline() {
        return IoWait.deadlineAfter(soTimeout);
    }

    /** Throws as java.net does when the socket is closed; finishes a pending connect. */
    void ensureOpenAndConnected() throws IOException {
        if (closed) {
            throw new SocketException("Socket closed");
        }
        if (connectPending) {
            finishConnect(IoWait.NO_DEADLINE, "Connect timed out");
        }
    }

    boolean inputShutdownFlag() {
        return inputShutdown;
    }

    boolean outputShutdownFlag() {
        return outputShutdown;
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
        setChannelOption(StandardSocketOptions.TCP_NODELAY, on);
    }

    @Override
    public boolean getTcpNoDelay() throws SocketException {
        return getChannelOption(StandardSocketOptions.TCP_NODELAY);
    }

    @Override
    public void setSoLinger(boolean on, int linger) throws SocketException {
        if (on && linger < 0) {
            throw new IllegalArgumentException("invalid value for SO_LINGER");
        }
        setChannelOption(StandardSocketOptions.SO_LINGER, on ? Math.min(linger, 65535) : -1);
    }

    @Override
    public int getSoLinger() throws SocketException {
        return getChannelOption(StandardSocketOptions.SO_LINGER);
    }

    @Override
    public void sendUrgentData(int data) throws IOException {
        throw new SocketException("PicoThreads: urgent data is not supported");
    }

    @Override
    public void setOOBInline(boolean on) throws SocketException {
        if (on) {
            throw new SocketException("PicoThreads: urgent data is not supported");
        }
    }

    @Override
    public boolean getOOBInline() throws SocketException {
        ensureNotClosed();
        return false;
    }

    @Override
    public synchronized void setSoTimeout(int timeout) throws SocketException {
        ensureNotClosed();
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout can't be negative");
        }
        soTimeout = timeout;
    }

    @Override
    public synchronized int getSoTimeout() throws SocketException {
        ensureNotClosed();
        return soTimeout;
    }

    @Override
    public synchronized void setSendBufferSize(int size) throws SocketException {
        if (size <= 0) {
            throw new IllegalArgumentException("negative send size");
        }
        setChannelOption(StandardSocketOptions.SO_SNDBUF, size);
    }

    @Override
    public synchronized int getSendBufferSize() throws SocketException {
        return getChannelOption(StandardSocketOptions.SO_SNDBUF);
    }

    @Override
    public synchronized void setReceiveBufferSize(int size) throws SocketException {
        if (size <= 0) {
            throw new IllegalArgumentException("invalid receive size");
        }
        setChannelOption(StandardSocketOptions.SO_RCVBUF, size);
    }

    @Override
    public synchronized int getReceiveBufferSize() throws SocketException {
        return getChannelOption(StandardSocketOptions.SO_RCVBUF);
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
        setChannelOption(StandardSocketOptions.SO_KEEPALIVE, on);
    }

    @Override
    public boolean getKeepAlive() throws SocketException {
        return getChannelOption(StandardSocketOptions.SO_KEEPALIVE);
    }

    @Override
    public void setTrafficClass(int trafficClass) throws SocketException {
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("tc is not in range 0 -- 255");
        }
        setChannelOption(StandardSocketOptions.IP_TOS, trafficClass);
    }

    @Override
    public int getTrafficClass() throws SocketException {
        return getChannelOption(StandardSocketOptions.IP_TOS);
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
    public <T> Socket setOption(SocketOption<T> name, T value) throws IOException {
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

    /** Closes the socket; a thread blocked reading, writing or connecting on it gets SocketException "Socket closed". */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        localWhenClosed = localAddress();
        remoteWhenClosed = remoteAddress();
        closed = true;
        try {
            channel.close();
        } finally {
            waits.wakeAllAfterClose();
        }
    }

    /**
     * Ends a connect that failed: the socket is closed on JDK 24 and later, as java.net's is; before, it stays open
     * but unconnected, and only its channel, which a failed connect leaves unusable, is released.
     */
    private void connectFailed() {
        connectPending = false;
        if (CLOSES_ON_FAILED_CONNECT) {
            closeQuietly();
            return;
        }
        connected = false;
        try {
            channel.close();
        } catch (IOException e) {
            // the channel is unusable either way
        } finally {
            waits.wakeAllAfterClose();
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            closed = true;
        }
    }

    @Override
    public void shutdownInput() throws IOException {
        ensureNotClosed();
        if (!isConnected()) {
            throw new SocketException("Socket is not connected");
        }
        if (inputShutdown) {
            throw new SocketException("Socket input is already shutdown");
        }
        ensureOpenAndConnected();
        channel.shutdownInput();
        inputShutdown = true;
        waits.wakeAllAfterClose();
    }

    @Override
    public void shutdownOutput() throws IOException {
        ensureNotClosed();
        if (!isConnected()) {
            throw new SocketException("Socket is not connected");
        }
        if (outputShutdown) {
            throw new SocketException("Socket output is already shutdown");
        }
        ensureOpenAndConnected();
        channel.shutdownOutput();
        outputShutdown = true;
    }

    @Override
    public String toString() {
        if (isConnected()) {
            return "Socket[addr=" + getInetAddress() + ",port=" + getPort() + ",localport=" + getLocalPort() + "]";
        }
        return "Socket[unconnected]";
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    @Override
    public boolean isBound() {
        return boundAddress() != null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean isInputShutdown() {
        return inputShutdown;
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown;
    }

    @Override
    public void setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
        // java.net's sockets ignore the preferences as well.
    }
}
