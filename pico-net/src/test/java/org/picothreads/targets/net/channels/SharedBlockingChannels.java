package org.picothreads.targets.net.channels;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Four threads blocked at once in the same direction of one blocking channel, which the JDK's channel locks serialize:
 * four accepting on one ServerSocketChannel, four reading one SocketChannel, four writing large buffers to one
 * SocketChannel whose peer reads only later. Every call must return, each reader must get a whole chunk of the bytes
 * that arrived at once, and each write must reach the peer whole, not interleaved with another thread's. A thread
 * still blocked after ten seconds is reported, and the channels are closed under it.
 */
public class SharedBlockingChannels {
    private static final int THREADS = 4;
    private static final int CHUNK = 8;
    private static final int WRITE_SIZE = 256 * 1024;
    private static final long PATIENCE_MILLIS = 10_000;

    public static String run() throws Exception {
        return acceptors() + "\n" + readers() + "\n" + writers();
    }

    /** A blocking server channel on 127.0.0.1 with a small receive buffer, one per part, as a part may close it. */
    private static ServerSocketChannel server() throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 16);
        return server;
    }

    /** Four threads accept on the server at once; four clients connect once they all wait. */
    private static String acceptors() throws Exception {
        try (ServerSocketChannel server = server()) {
            return acceptors(server, (InetSocketAddress) server.getLocalAddress());
        }
    }

    private static String acceptors(ServerSocketChannel server, InetSocketAddress address) throws Exception {
        SocketChannel[] accepted = new SocketChannel[THREADS];
        Thread[] acceptors = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int number = index;
            acceptors[index] = new Thread(() -> accepted[number] = acceptOrNull(server), "acceptor-" + index);
            acceptors[index].start();
        }
        // Let every acceptor block in accept first, so that all four wait at once.
        Thread.sleep(50);
        List<SocketChannel> clients = new ArrayList<>();
        try {
            for (int index = 0; index < THREADS; index++) {
                clients.add(SocketChannel.open(address));
            }
            int stuck = joinAll(acceptors, server);
            int served = 0;
            for (SocketChannel channel : accepted) {
                if (channel != null && channel.isConnected()) {
                    served++;
                    channel.close();
                }
            }
            return "acceptors: " + served + " of " + THREADS + " accepted a connection, " + stuck + " left blocked";
        } finally {
            for (SocketChannel client : clients) {
                client.close();
            }
        }
    }

    /** Four threads read one channel at once into 8-byte buffers; the peer then writes four chunks in one write. */
    private static String readers() throws Exception {
        try (ServerSocketChannel server = server();
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            String[] chunks = new String[THREADS];
            Thread[] readers = new Thread[THREADS];
            for (int index = 0; index < THREADS; index++) {
                int number = index;
                readers[index] = new Thread(() -> chunks[number] = readChunk(client), "reader-" + index);
                readers[index].start();
            }
            Thread.sleep(50);
            peer.write(ByteBuffer.wrap("aaaaaaaabbbbbbbbccccccccdddddddd".getBytes(StandardCharsets.US_ASCII)));
            int stuck = joinAll(readers, client);
            String[] sorted = Arrays.stream(chunks).map(String::valueOf).sorted().toArray(String[]::new);
            return "readers: " + String.join(" ", sorted) + ", " + stuck + " left blocked";
        }
    }

    /**
     * Four threads each write 256 KB of one letter to one channel with a small send buffer, so that each waits
     * partway; the peer reads everything only once they all wait, and counts the runs of one letter it received.
     */
    private static String writers() throws Exception {
        try (ServerSocketChannel server = server(); SocketChannel client = SocketChannel.open()) {
            client.setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            client.connect(server.getLocalAddress());
            try (SocketChannel peer = server.accept()) {
                String[] outcomes = new String[THREADS];
                Thread[] writers = new Thread[THREADS];
                for (int index = 0; index < THREADS; index++) {
                    int number = index;
                    writers[index] = new Thread(() -> outcomes[number] = writeLetter(client, (byte) ('A' + number)),
                            "writer-" + index);
                    writers[index].start();
                }
                Thread.sleep(50);
                // The peer reads without blocking, so that a writer left blocked cannot block it too.
                peer.configureBlocking(false);
                ByteBuffer received = ByteBuffer.allocate(THREADS * WRITE_SIZE);
                long deadline = System.currentTimeMillis() + PATIENCE_MILLIS;
                while (received.hasRemaining() && System.currentTimeMillis() < deadline) {
                    int count = peer.read(received);
                    if (count < 0) {
                        break;
                    }
                    if (count == 0) {
                        Thread.sleep(1);
                    }
                }
                int stuck = joinAll(writers, client);
                return "writers: " + String.join(" ", outcomes) + "; the peer read " + received.position()
                        + " bytes in runs " + runs(received.array(), received.position()) + ", " + stuck
                        + " left blocked";
            }
        }
    }

    /** The lengths of the runs of one byte value in {@code bytes}, each with its letter, sorted by letter. */
    private static String runs(byte[] bytes, int length) {
        List<String> runs = new ArrayList<>();
        int start = 0;
        for (int index = 1; index <= length; index++) {
            if (index == length || bytes[index] != bytes[start]) {
                runs.add((char) bytes[start] + "=" + (index - start));
                start = index;
            }
        }
        runs.sort(null);
        return runs.toString();
    }

    private static SocketChannel acceptOrNull(ServerSocketChannel server) {
        try {
            return server.accept();
        } catch (IOException e) {
            return null;
        }
    }

    private static String readChunk(SocketChannel channel) {
        ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    break;
                }
            }
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII);
    }

    private static String writeLetter(SocketChannel channel, byte letter) {
        byte[] bytes = new byte[WRITE_SIZE];
        Arrays.fill(bytes, letter);
        try {
            int written = channel.write(ByteBuffer.wrap(bytes));
            return (char) letter + "=" + written;
        } catch (IOException e) {
            return (char) letter + " " + e.getClass().getSimpleName();
        }
    }

    /**
     * Joins the threads, waiting at most {@link #PATIENCE_MILLIS} in all; if some are still blocked then, closes
     * {@code channel} to end their calls and joins them again. Returns how many were still blocked.
     */
    private static int joinAll(Thread[] threads, java.nio.channels.Channel channel) throws Exception {
        long deadline = System.currentTimeMillis() + PATIENCE_MILLIS;
        int stuck = 0;
        for (Thread thread : threads) {
            thread.join(Math.max(1, deadline - System.currentTimeMillis()));
            if (thread.isAlive()) {
                stuck++;
            }
        }
        if (stuck > 0) {
            channel.close();
            for (Thread thread : threads) {
                thread.join(1_000);
            }
        }
        return stuck;
    }
}
