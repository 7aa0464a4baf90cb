package org.picothreads.targets.net.channels;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;

/**
 * A request-reply server over a blocking DatagramChannel on 127.0.0.1 and client threads with blocking channels of
 * their own: each client sends its requests one at a time and waits for each reply, so the server waits in
 * receive between requests and every client waits in receive for its reply.
 */
public class DatagramChannelEcho {
    private static final int CLIENTS = 20;
    private static final int REQUESTS = 10;

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
            return String.join("\n", results) + "\nserver blocking " + server.isBlocking();
        }
    }

    /** Answers each datagram with its text in upper case, to whoever sent it. */
    private static void serve(DatagramChannel server, int datagrams) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(512);
            for (int index = 0; index < datagrams; index++) {
                buffer.clear();
                SocketAddress sender = server.receive(buffer);
                buffer.flip();
                String request = StandardCharsets.US_ASCII.decode(buffer).toString();
                server.send(ByteBuffer.wrap(request.toUpperCase().getBytes(StandardCharsets.US_ASCII)), sender);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String call(InetAddress loopback, SocketAddress server, int number) {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.bind(new InetSocketAddress(loopback, 0));
            StringBuilder replies = new StringBuilder("client " + number + ":");
            ByteBuffer reply = ByteBuffer.allocate(512);
            for (int request = 0; request < REQUESTS; request++) {
                String text = "request " + request + " of client " + number;
                int sent = channel.send(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), server);
                reply.clear();
                SocketAddress from = channel.receive(reply);
                reply.flip();
                String answer = StandardCharsets.US_ASCII.decode(reply).toString();
                replies.append(answer.equals(text.toUpperCase()) && from.equals(server) && sent == text.length()
                        ? " ok" : " wrong(" + answer + ")");
            }
            return replies.append(", blocking ").append(channel.isBlocking()).toString();
        } catch (IOException e) {
            return "client " + number + " failed: " + e;
        }
    }
}
