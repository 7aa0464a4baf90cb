package org.picothreads.targets.net.lookup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Thirty threads connect with {@code new Socket("localhost", port)}, whose name is looked up, and exchange a line
 * with a thread-per-connection server on 127.0.0.1; one more names a host that does not exist.
 */
public class ConnectByHostName {
    private static final int CLIENTS = 30;

    public static String run() throws Exception {
        try (ServerSocket server = new ServerSocket(0, CLIENTS, InetAddress.getByName("127.0.0.1"))) {
            int port = server.getLocalPort();
            Thread acceptor = new Thread(() -> serve(server), "acceptor");
            acceptor.start();
            String[] answers = new String[CLIENTS];
            Thread[] clients = new Thread[CLIENTS];
            for (int index = 0; index < CLIENTS; index++) {
                int number = index;
                clients[index] = new Thread(() -> answers[number] = exchange(port, number), "client-" + index);
                clients[index].start();
            }
            for (Thread client : clients) {
                client.join();
            }
            acceptor.join();
            Map<String, Integer> counts = new TreeMap<>();
            int correct = 0;
            for (int index = 0; index < CLIENTS; index++) {
                if (answers[index].equals("HELLO " + index + " FROM " + port)) {
                    correct++;
                } else {
                    counts.merge(answers[index], 1, Integer::sum);
                }
            }
            return correct + " correct answers " + counts + "; " + unknownHost(port);
        }
    }

    private static String exchange(int port, int number) {
        try (Socket socket = new Socket("localhost", port);
                PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
                BufferedReader in = new BufferedReader(
                        new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
            out.println("hello " + number + " from " + socket.getPort());
            return in.readLine();
        } catch (IOException e) {
            return "failed: " + e;
        }
    }

    private static void serve(ServerSocket server) {
        Thread[] handlers = new Thread[CLIENTS];
        try {
            for (int index = 0; index < CLIENTS; index++) {
                Socket connection = server.accept();
                handlers[index] = new Thread(() -> answer(connection), "handler-" + index);
                handlers[index].start();
            }
            for (Thread handler : handlers) {
                handler.join();
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void answer(Socket connection) {
        try (connection;
                BufferedReader in = new BufferedReader(
                        new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(connection.getOutputStream(), true, StandardCharsets.UTF_8)) {
            out.println(in.readLine().toUpperCase(java.util.Locale.ROOT));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String unknownHost(int port) {
        String[] answer = new String[1];
        Thread thread = new Thread(() -> {
            try (Socket socket = new Socket("no-such-host.invalid", port)) {
                answer[0] = "connected to " + socket.getInetAddress();
            } catch (UnknownHostException e) {
                answer[0] = "UnknownHostException naming " + (e.getMessage().startsWith("no-such-host.invalid")
                        ? "the host" : e.getMessage());
            } catch (IOException e) {
                answer[0] = "failed: " + e;
            }
        }, "unknown-host-client");
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return answer[0];
    }
}
