package org.picothreads.targets.net.channels;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/** An echo server over a blocking ServerSocketChannel with one thread per connection, and as many client threads. */
public class ChannelEcho {
    private static final int CONNECTIONS = 100;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(loopback, 0), CONNECTIONS);
            InetSocketAddress address = (InetSocketAddress) server.getLocalAddress();
            Thread acceptor = new Thread(() -> acceptAll(server), "acceptor");
            acceptor.start();
            String[] replies = new String[CONNECTIONS];
            Thread[] clients = new Thread[CONNECTIONS];
            for (int index = 0; index < CONNECTIONS; index++) {
                int number = index;
                clients[index] = new Thread(() -> replies[number] = call(address, number));
                clients[index].start();
            }
            for (Thread client : clients) {
                client.join();
            }
            acceptor.join();
            int correct = 0;
            long bytes = 0;
            for (int index = 0; index < CONNECTIONS; index++) {
                if (replies[index].equals(message(index))) {
                    correct++;
                }
                bytes += replies[index].length();
            }
            return CONNECTIONS + " connections, " + correct + " correct echoes, " + bytes + " bytes, server blocking "
                    + server.isBlocking() + ", first " + replies[0].trim() + ", last "
                    + replies[CONNECTIONS - 1].trim() + ", register while blocking: " + registerOutcome(server);
        }
    }

    /** What registering the (blocking) server channel with a selector does: the JDK refuses a blocking channel. */
    private static String registerOutcome(ServerSocketChannel server) throws IOException {
        try (Selector selector = Selector.open()) {
            server.register(selector, SelectionKey.OP_ACCEPT);
            return "registered";
        } catch (IllegalBlockingModeException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static String message(int number) {
        return "hello over a channel from client " + number + " " + "x".repeat(number * 40) + "\n";
    }

    private static void acceptAll(ServerSocketChannel server) {
        try {
            for (int index = 0; index < CONNECTIONS; index++) {
                SocketChannel connection = server.accept();
                new Thread(() -> serve(connection)).start();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void serve(SocketChannel connection) {
        try (SocketChannel channel = connection) {
            ByteBuffer buffer = ByteBuffer.allocate(512);
            while (channel.read(buffer) > 0) {
                buffer.flip();
                channel.write(buffer);
                buffer.clear();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String call(InetSocketAddress address, int number) {
        try (SocketChannel channel = SocketChannel.open()) {
            boolean connected = channel.connect(address);
            byte[] request = message(number).getBytes(StandardCharsets.US_ASCII);
            int written = channel.write(ByteBuffer.wrap(request));
            ByteBuffer reply = ByteBuffer.allocate(request.length);
            while (reply.hasRemaining() && channel.read(reply) >= 0) {
                // reads until the whole echo has arrived
            }
            String text = new String(reply.array(), 0, reply.position(), StandardCharsets.US_ASCII);
            if (!connected || written != request.length || !channel.isBlocking()) {
                return "connected " + connected + ", wrote " + written + ", blocking " + channel.isBlocking();
            }
            return text;
        } catch (IOException e) {
            return "failed: " + e;
        }
    }
}
