package org.picothreads.piranha.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Serves a {@link SyntheticWeb} over HTTP/1.1 from one selector loop on its own platform thread: one listening
 * socket per virtual host on a 127.0.0.1 ephemeral port, keep-alive, Content-Length or chunked bodies, redirects,
 * 404s. Each response starts after the added latency, and each connection's bytes leave through its own token
 * bucket, refilled at the rate; a connection out of tokens waits in a timer queue, not on a thread, so tens of
 * thousands of slow connections cost one thread.
 *
 * <pre>
 *   request complete --latency--> writing --tokens spent--> waiting (timer) --refilled--> writing ... --> done
 *                                                                                 keep-alive: read the next request
 * </pre>
 */
public final class WebServer implements AutoCloseable {

    /** Bodies are sent in chunks of this size when chunked. */
    private static final int CHUNK_BYTES = 4096;
    /** Webs with more pages than this render each page on request instead of keeping it. */
    private static final int CACHED_PAGES_LIMIT = 50_000;

    private final SyntheticWeb web;
    /** Bytes per second per connection; zero for no limit. */
    private final long rateBytesPerSecond;
    private final long latencyNanos;
    /** The most tokens a connection saves up: a quarter second of its rate. */
    private final long bucketCapacity;
    private final Selector selector;
    private final ServerSocketChannel[] listeners;
    private final int[] ports;
    private final byte[][] cachedBodies;
    /** Connections waiting for their latency to pass or their bucket to refill, earliest first. */
    private final PriorityQueue<Connection> waiting = new PriorityQueue<>(
            (first, second) -> Long.compare(first.wakeAt, second.wakeAt));
    private final Thread loop;
    private volatile boolean running = true;

    private final AtomicInteger openConnections = new AtomicInteger();
    private final AtomicInteger peakConnections = new AtomicInteger();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();

    private WebServer(SyntheticWeb web, long rateBytesPerSecond, long latencyMillis) throws IOException {
        this.web = web;
        this.rateBytesPerSecond = rateBytesPerSecond;
        this.latencyNanos = latencyMillis * 1_000_000L;
        this.bucketCapacity = Math.max(1, rateBytesPerSecond / 4);
        this.selector = Selector.open();
        this.listeners = new ServerSocketChannel[web.hostCount()];
        this.ports = new int[web.hostCount()];
        for (int host = 0; host < listeners.length; host++) {
            ServerSocketChannel listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16_384);
            listener.configureBlocking(false);
            listener.register(selector, SelectionKey.OP_ACCEPT, host);
            listeners[host] = listener;
            ports[host] = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        }
        this.cachedBodies = web.pageCount() <= CACHED_PAGES_LIMIT ? new byte[web.pageCount()][] : null;
        this.loop = new Thread(this::run, "piranha-web-server");
        loop.setDaemon(true);
    }

    /**
     * Starts serving the web on 127.0.0.1.
     *
     * @param rateBytesPerSecond each connection's bandwidth in bytes per second, 0 for no limit (28.8 kbit/s is 3600)
     * @param latencyMillis      the time between a request's arrival and its response's first byte
     */
    public static WebServer start(SyntheticWeb web, long rateBytesPerSecond, long latencyMillis) throws IOException {
        WebServer server = new WebServer(web, rateBytesPerSecond, latencyMillis);
        server.loop.start();
        return server;
    }

    /** The port of each virtual host, host 0 first. */
    public int[] ports() {
        return ports.clone();
    }

    /** The URL of page 0, where a crawl of the whole web starts. */
    public String rootUrl() {
        return web.pageUrl(0, ports);
    }

    public SyntheticWeb web() {
        return web;
    }

    public int openConnections() {
        return openConnections.get();
    }

    public int peakConnections() {
        return peakConnections.get();
    }

    public long requests() {
        return requests.get();
    }

    public long bytesSent() {
        return bytesSent.get();
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            loop.join(5_000);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (running) {
                long now = System.nanoTime();
                while (!waiting.isEmpty() && waiting.peek().wakeAt <= now) {
                    waiting.poll().resumeWriting();
                }
                long timeoutMillis = waiting.isEmpty() ? 0
                        : Math.max(1, (waiting.peek().wakeAt - now + 999_999) / 1_000_000);
                selector.select(timeoutMillis);
                Iterator<SelectionKey> selected = selector.selectedKeys().iterator();
                while (selected.hasNext()) {
                    SelectionKey key = selected.next();
                    selected.remove();
                    handle(key);
                }
            }
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        } finally {
            for (SelectionKey key : selector.keys()) {
                closeQuietly(key);
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // the server is gone either way
            }
        }
    }

    private void handle(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        try {
            if (key.isAcceptable()) {
                accept(key);
                return;
            }
            Connection connection = (Connection) key.attachment();
            if (key.isReadable()) {
                connection.read();
            } else if (key.isWritable()) {
                connection.write();
            }
        } catch (IOException | RuntimeException failure) {
            closeQuietly(key);
        }
    }

    private void accept(SelectionKey key) throws IOException {
        ServerSocketChannel listener = (ServerSocketChannel) key.channel();
        for (SocketChannel channel = listener.accept(); channel != null; channel = listener.accept()) {
            channel.configureBlocking(false);
            channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            Connection connection = new Connection(channel, (Integer) key.attachment());
            connection.key = channel.register(selector, SelectionKey.OP_READ, connection);
            peakConnections.accumulateAndGet(openConnections.incrementAndGet(), Math::max);
        }
    }

    private void closeQuietly(SelectionKey key) {
        key.cancel();
        try {
            key.channel().close();
        } catch (IOException ignored) {
            // a connection that fails to close is closed enough
        }
        if (key.attachment() instanceof Connection connection && !connection.closed) {
            connection.closed = true;
            openConnections.decrementAndGet();
        }
    }

    private byte[] body(int page) {
        if (cachedBodies == null) {
            return web.render(page, ports);
        }
        byte[] body = cachedBodies[page];
        if (body == null) {
            body = web.render(page, ports);
            cachedBodies[page] = body;
        }
        return body;
    }

    /** The response to a request line's target on a host: the buffers to send, in order. */
    private ArrayDeque<ByteBuffer> respond(int host, String target, boolean keepAlive) {
        ArrayDeque<ByteBuffer> response = new ArrayDeque<>();
        String connectionHeader = keepAlive ? "" : "Connection: close\r\n";
        int page = pageNumber(target, "/page/", ".html");
        int moved = pageNumber(target, "/moved/", "");
        if (page >= 0 && web.hostOf(page) == host) {
            byte[] body = body(page);
            if (web.isChunked(page)) {
                response.add(ascii("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                        + "Transfer-Encoding: chunked\r\n" + connectionHeader + "\r\n"));
                for (int offset = 0; offset < body.length; offset += CHUNK_BYTES) {
                    int length = Math.min(CHUNK_BYTES, body.length - offset);
                    response.add(ascii(Integer.toHexString(length) + "\r\n"));
                    response.add(ByteBuffer.wrap(body, offset, length));
                    response.add(ascii("\r\n"));
                }
                response.add(ascii("0\r\n\r\n"));
            } else {
                response.add(ascii("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: "
                        + body.length + "\r\n" + connectionHeader + "\r\n"));
                response.add(ByteBuffer.wrap(body));
            }
        } else if (moved >= 0 && web.hostOf(moved) == host) {
            response.add(ascii("HTTP/1.1 301 Moved Permanently\r\nLocation: /page/" + moved
                    + ".html\r\nContent-Length: 0\r\n" + connectionHeader + "\r\n"));
        } else {
            String body = "<html><body>not found</body></html>\n";
            response.add(ascii("HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: "
                    + body.length() + "\r\n" + connectionHeader + "\r\n" + body));
        }
        return response;
    }

    private int pageNumber(String target, String prefix, String suffix) {
        if (!target.startsWith(prefix) || !target.endsWith(suffix)) {
            return -1;
        }
        String digits = target.substring(prefix.length(), target.length() - suffix.length());
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        int page = Integer.parseInt(digits);
        return page < web.pageCount() ? page : -1;
    }

    private static ByteBuffer ascii(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** One client connection's state in the selector loop. */
    private final class Connection {

        private final SocketChannel channel;
        /** The virtual host whose port accepted it. */
        private final int host;
        private final ByteBuffer request = ByteBuffer.allocate(8192);
        private SelectionKey key;
        private ArrayDeque<ByteBuffer> response;
        private boolean keepAlive;
        private boolean closed;
        /** Bytes the bucket holds, and when it was last refilled. */
        private long tokens;
        private long refilledAt;
        /** When the timer queue should resume this connection. */
        private long wakeAt;

        Connection(SocketChannel channel, int host) {
            this.channel = channel;
            this.host = host;
        }

        void read() throws IOException {
            int count = channel.read(request);
            if (count < 0) {
                closeQuietly(key);
                return;
            }
            handleRequest();
        }

        /** Starts the response to a complete request in the buffer, if there is one. */
        private void handleRequest() throws IOException {
            int end = headerEnd();
            if (end < 0) {
                if (!request.hasRemaining()) {
                    closeQuietly(key);
                }
                return;
            }
            String head = new String(request.array(), 0, end, StandardCharsets.ISO_8859_1);
            request.flip();
            request.position(end + 4);
            request.compact();
            String[] requestLine = head.substring(0, head.indexOf('\r') < 0 ? head.length() : head.indexOf('\r'))
                    .split(" ");
            String lowerHead = head.toLowerCase(Locale.ROOT);
            keepAlive = requestLine.length == 3 && requestLine[2].equals("HTTP/1.1")
                    ? !lowerHead.contains("\nconnection: close") : lowerHead.contains("\nconnection: keep-alive");
            String target = requestLine.length >= 2 ? requestLine[1] : "/";
            int query = target.indexOf('?');
            requests.incrementAndGet();
            response = respond(host, query < 0 ? target : target.substring(0, query), keepAlive);
            key.interestOps(0);
            tokens = bucketCapacity;
            refilledAt = System.nanoTime();
            if (latencyNanos > 0) {
                wakeAt = refilledAt + latencyNanos;
                waiting.add(this);
            } else {
                write();
            }
        }

        private int headerEnd() {
            byte[] bytes = request.array();
            for (int index = 0; index + 3 < request.position(); index++) {
                if (bytes[index] == '\r' && bytes[index + 1] == '\n' && bytes[index + 2] == '\r'
                        && bytes[index + 3] == '\n') {
                    return index;
                }
            }
            return -1;
        }

        void resumeWriting() {
            if (closed) {
                return;
            }
            try {
                write();
            } catch (IOException | RuntimeException failure) {
                closeQuietly(key);
            }
        }

        void write() throws IOException {
            long allowance = Long.MAX_VALUE;
            if (rateBytesPerSecond > 0) {
                long now = System.nanoTime();
                tokens = Math.min(bucketCapacity, tokens + (now - refilledAt) * rateBytesPerSecond / 1_000_000_000L);
                refilledAt = now;
                long wanted = Math.min(bucketCapacity, remaining());
                if (tokens < wanted) {
                    key.interestOps(0);
                    wakeAt = now + (wanted - tokens) * 1_000_000_000L / rateBytesPerSecond + 1;
                    waiting.add(this);
                    return;
                }
                allowance = tokens;
            }
            while (allowance > 0 && !response.isEmpty()) {
                ByteBuffer head = response.peek();
                int oldLimit = head.limit();
                if (head.remaining() > allowance) {
                    head.limit(head.position() + (int) allowance);
                }
                int wanted = head.remaining();
                int written = channel.write(head);
                head.limit(oldLimit);
                allowance -= written;
                tokens -= written;
                bytesSent.addAndGet(written);
                if (!head.hasRemaining()) {
                    response.poll();
                } else if (written < wanted) {
                    key.interestOps(SelectionKey.OP_WRITE);
                    return;
                }
            }
            if (!response.isEmpty()) {
                write();
                return;
            }
            if (!keepAlive) {
                closeQuietly(key);
                return;
            }
            key.interestOps(SelectionKey.OP_READ);
            handleRequest();
        }

        private long remaining() {
            long total = 0;
            for (ByteBuffer buffer : response) {
                total += buffer.remaining();
            }
            return total;
        }
    }
}
