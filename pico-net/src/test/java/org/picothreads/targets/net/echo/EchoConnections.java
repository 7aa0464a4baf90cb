package org.picothreads.targets.net.echo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** An echo server with one thread per connection and as many client threads, all through the socket streams. */
public class EchoConnections {
    public static String run() throws Exception {
        return echo(200);
    }

    /** Echoes one line per connection over {@code connections} concurrent connections and summarises the replies. */
    public static String echo(int connections) throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, connections, loopback)) {
            int port = server.getLocalPort();
            Thread acceptor = new Thread(() -> acceptAll(server, connections), "acceptor");
            acceptor.start();
            String[] replies = new String[connections];
            Thread[] clients = new Thread[connections];
            for (int index = 0; index < connections; index++) {
                int number = index;
                clients[index] = new Thread(() -> replies[number] = call(loopback, port, number));
                clients[index].start();
            }
            for (Thread client : clients) {
                client.join();
            }
            acceptor.join();
            int correct = 0;
            long bytes = 0;
            for (int index = 0; index < connections; index++) {
                if (replies[index].equals(message(index))) {
                    correct++;
                }
                bytes += replies[index].length();
            }
            return connections + " connections, " + correct + " correct echoes, " + bytes + " bytes, first "
                    + replies[0].trim() + ", last " + replies[connections - 1].trim();
        }
    }

    private static String message(int number) {
        return "hello from client " + number + "\n";
    }

    private static void acceptAll(ServerSocket server, int connections) {
        try {
            for (int index = 0; index < connections; index++) {
                Socket connection = server.accept();
                new Thread(() -> serve(connection)).start();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void serve(Socket connection) {
        try (Socket socket = connection) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[256];
            int count;
            while ((count = in.read(buffer)) > 0) {
                out.write(buffer, 0, count);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String call(InetAddress address, int port, int number) {
        try (Socket socket = new Socket(address, port)) {
            byte[] request = message(number).getBytes(StandardCharsets.US_ASCII);
            socket.getOutputStream().write(request);
            InputStream in = socket.getInputStream();
            StringBuilder reply = new StringBuilder();
            int character;
            while (reply.length() < request.length && (character = in.read()) >= 0) {
                reply.append((char) character);
            }
            return reply.toString();
        } catch (IOException e) {
            return "failed: " + e;
        }
    }
}
