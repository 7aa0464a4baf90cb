package org.picothreads.targets.net.channels;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;

/**
 * A request-reply server over a blocking DatagramChannel on 127.0.0.1 and client threads whose blocking channels
 * are connected to it: each client writes its requests one at a time (one of them gathered from two buffers) and
 * reads each reply (one of them scattered into two buffers), so every client waits in read for its reply; the
 * reply to the last request is an empty datagram, which the JDK's read reports as -1. (A write of an empty buffer sends nothing on the JDK's channel, so only the server sends one.)
 */
public class ConnectedDatagramChannelEcho {
    private static final int CLIENTS = 15;
    private static final int REQUESTS = 6;
    /** The request the server answers with an empty datagram. */
    private static final String EMPTY_PLEASE = "an empty reply, please";

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (DatagramChannel server = DatagramChannel.open()) {
            server.bind(new InetSocketAddress(loopback, 0));
            SocketAddress address = server.getLocalAddress();
            Thread serverThread = new Thread(() -> serve(server, CLIENTS * REQUESTS));
            serverThread.start();
            String[] results = new String[CLIENTS];
            Thread[] clients = new Thread[CLIENTS];
            for (int index = 0; index < CLIENTS; index++) {
                int number = index;
                clients[index] = new Thread(() -> results[number] = call(loopback, address, number));
                clients[index].start();
            }
            for (Thread client : clients) {
                client.join();
            }
            serverThread.join();
            return String.join("\n", results);
        }
    }

    /** Answers each datagram with its text in upper case (the empty-reply request with nothing), to its sender. */
    private static void serve(DatagramChannel server, int datagrams) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(512);
            for (int index = 0; index < datagrams; index++) {
                buffer.clear();
                SocketAddress sender = server.receive(buffer);
                buffer.flip();
                String request = StandardCharsets.US_ASCII.decode(buffer).toString();
                String answer = request.equals(EMPTY_PLEASE) ? "" : request.toUpperCase();
                server.send(ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)), sender);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String call(InetAddress loopback, SocketAddress server, int number) {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.bind(new InetSocketAddress(loopback, 0));
            channel.connect(server);
            StringBuilder replies = new StringBuilder("client " + number + ":");
            ByteBuffer reply = ByteBuffer.allocate(512);
            for (int request = 0; request < REQUESTS; request++) {
                String text = request == REQUESTS - 1 ? EMPTY_PLEASE : "request " + request + " of client " + number;
                String expected = request == REQUESTS - 1 ? "" : text.toUpperCase();
                byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
                long written;
                if (request == 1) {
                    int half = bytes.length / 2;
                    written = channel.write(new ByteBuffer[] {ByteBuffer.wrap(bytes, 0, half),
                        ByteBuffer.wrap(bytes, half, bytes.length - half)});
                } else {
                    written = channel.write(ByteBuffer.wrap(bytes));
                }
                reply.clear();
                long read;
                if (request == 2) {
                    // A scattering read into a 4-byte buffer and the rest of the reply buffer.
                    ByteBuffer head = ByteBuffer.allocate(4);
                    read = channel.read(new ByteBuffer[] {head, reply});
                    reply.flip();
                    ByteBuffer whole = ByteBuffer.allocate(512).put(head.flip()).put(reply);
                    reply.clear().put(whole.flip());
                } else {
                    read = channel.read(reply);
                }
                reply.flip();
                String answer = StandardCharsets.US_ASCII.decode(reply).toString();
                // The JDK's read of an empty datagram returns -1.
                long expectedRead = expected.isEmpty() ? -1 : expected.length();
                replies.append(answer.equals(expected) && read == expectedRead && written == bytes.length
                        ? " ok" : " wrong(" + answer + ", read " + read + ", written " + written + ")");
            }
            return replies.append(", blocking ").append(channel.isBlocking()).toString();
        } catch (IOException e) {
            return "client " + number + " failed: " + e;
        }
    }
}
