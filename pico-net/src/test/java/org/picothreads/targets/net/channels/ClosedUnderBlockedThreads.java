package org.picothreads.targets.net.channels;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Blocking channels closed by another thread while threads are blocked on them: a reader of a SocketChannel whose
 * peer never writes, with a second reader waiting behind it for the channel; a writer whose peer never reads; an
 * acceptor of a ServerSocketChannel, whose port must be free again once the acceptor has returned. Each blocked call
 * must end as the JDK's does: with AsynchronousCloseException, or a write that wrote some bytes with their count. A
 * thread still blocked after ten seconds is reported.
 */
public class ClosedUnderBlockedThreads {
    private static final long PATIENCE_MILLIS = 10_000;

    public static String run() throws Exception {
        return readers() + "\n" + writer() + "\n" + acceptor();
    }

    private static ServerSocketChannel server() throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 4);
        return server;
    }

    /** Two threads read a channel whose peer never writes, the second behind the first; another thread closes it. */
    private static String readers() throws Exception {
        try (ServerSocketChannel server = server();
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            String[] outcomes = new String[2];
            Thread first = new Thread(() -> outcomes[0] = read(client), "first-reader");
            first.start();
            Thread.sleep(50);
            Thread second = new Thread(() -> outcomes[1] = read(client), "second-reader");
            second.start();
            Thread.sleep(50);
            client.close();
            int stuck = joined(first) + joined(second);
            return "readers: first " + outcomes[0] + ", second " + outcomes[1] + ", " + stuck + " left blocked";
        }
    }

    /** A thread writes 4 MB to a channel with small buffers whose peer never reads; another thread closes it. */
    private static String writer() throws Exception {
        try (ServerSocketChannel server = server(); SocketChannel client = SocketChannel.open()) {
            client.setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            client.connect(server.getLocalAddress());
            try (SocketChannel peer = server.accept()) {
                String[] outcome = new String[1];
                Thread writer = new Thread(() -> outcome[0] = write(client, 4 << 20), "writer");
                writer.start();
                Thread.sleep(100);
                client.close();
                int stuck = joined(writer);
                return "writer: " + outcome[0] + ", " + stuck + " left blocked";
            }
        }
    }

    /**
     * A thread accepts on a server channel nobody connects to; another thread closes it and, once the acceptor has
     * returned, binds its port again.
     */
    private static String acceptor() throws Exception {
        ServerSocketChannel server = server();
        InetSocketAddress address = (InetSocketAddress) server.getLocalAddress();
        String[] outcome = new String[1];
        Thread acceptor = new Thread(() -> outcome[0] = accept(server), "acceptor");
        acceptor.start();
        Thread.sleep(50);
        server.close();
        int stuck = joined(acceptor);
        String port;
        try (ServerSocketChannel again = ServerSocketChannel.open()) {
            again.bind(address);
            port = "free again";
        } catch (BindException e) {
            port = "still taken";
        }
        return "acceptor: " + outcome[0] + ", port " + port + ", " + stuck + " left blocked";
    }

    private static String read(SocketChannel channel) {
        try {
            return "read " + channel.read(ByteBuffer.allocate(16));
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static String write(SocketChannel channel, int size) {
        try {
            // Closed under it, the JDK's blocking write returns the count it wrote when it wrote any.
            int written = channel.write(ByteBuffer.allocate(size));
            return written == size ? "wrote all" : written > 0 ? "wrote a part" : "wrote " + written;
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static String accept(ServerSocketChannel server) {
        try (SocketChannel accepted = server.accept()) {
            return "accepted " + accepted;
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    /** 1 when the thread is still alive after {@link #PATIENCE_MILLIS}, else 0. */
    private static int joined(Thread thread) throws InterruptedException {
        thread.join(PATIENCE_MILLIS);
        return thread.isAlive() ? 1 : 0;
    }
}
