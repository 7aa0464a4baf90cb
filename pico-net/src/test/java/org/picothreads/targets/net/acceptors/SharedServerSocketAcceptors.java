package org.picothreads.targets.net.acceptors;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Four threads accept on one server socket at once, as a pool of acceptors does, while clients connect in waves;
 * then the socket is closed under the acceptors still blocked in accept. Every accept must be served and every
 * acceptor must end with the close.
 */
public class SharedServerSocketAcceptors {
    private static final int ACCEPTORS = 4;
    private static final int WAVES = 5;
    private static final int CLIENTS_PER_WAVE = 8;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        AtomicInteger served = new AtomicInteger();
        String[] endings = new String[ACCEPTORS];
        try (ServerSocket server = new ServerSocket(0, 64, loopback)) {
            Thread[] acceptors = new Thread[ACCEPTORS];
            for (int index = 0; index < ACCEPTORS; index++) {
                int number = index;
                acceptors[index] = new Thread(() -> endings[number] = acceptUntilClosed(server, served),
                        "acceptor-" + index);
                acceptors[index].start();
            }
            int correct = 0;
            for (int wave = 0; wave < WAVES; wave++) {
                // Let every acceptor block in accept before the wave, so that several wait at once.
                Thread.sleep(20);
                String[] replies = new String[CLIENTS_PER_WAVE];
                Thread[] clients = new Thread[CLIENTS_PER_WAVE];
                for (int index = 0; index < CLIENTS_PER_WAVE; index++) {
                    int number = wave * CLIENTS_PER_WAVE + index;
                    int slot = index;
                    clients[index] = new Thread(() -> replies[slot] = call(loopback, server.getLocalPort(), number));
                    clients[index].start();
                }
                for (int index = 0; index < CLIENTS_PER_WAVE; index++) {
                    clients[index].join();
                    if (("echo client " + (wave * CLIENTS_PER_WAVE + index)).equals(replies[index])) {
                        correct++;
                    }
                }
            }
            Thread.sleep(20);
            server.close();
            for (Thread acceptor : acceptors) {
                acceptor.join();
            }
            StringBuilder result = new StringBuilder();
            result.append(WAVES * CLIENTS_PER_WAVE).append(" clients, ").append(correct).append(" correct replies, ")
                    .append(served.get()).append(" connections served");
            for (int index = 0; index < ACCEPTORS; index++) {
                result.append("\nacceptor ").append(index).append(" ended by ").append(endings[index]);
            }
            return result.toString();
        }
    }

    /** Accepts and serves connections one at a time until the server socket is closed; returns how it ended. */
    private static String acceptUntilClosed(ServerSocket server, AtomicInteger served) {
        while (true) {
            Socket connection;
            try {
                connection = server.accept();
            } catch (SocketException e) {
                return e.getClass().getName() + ": " + e.getMessage();
            } catch (IOException e) {
                return "unexpected " + e;
            }
            try (Socket open = connection) {
                BufferedReader reader = new BufferedReader(
                        new InputStreamReader(open.getInputStream(), StandardCharsets.UTF_8));
                String line = reader.readLine();
                OutputStream output = open.getOutputStream();
                output.write(("echo " + line + "\n").getBytes(StandardCharsets.UTF_8));
                output.flush();
                served.incrementAndGet();
            } catch (IOException e) {
                return "unexpected " + e;
            }
        }
    }

    private static String call(InetAddress loopback, int port, int number) {
        try (Socket socket = new Socket(loopback, port)) {
            socket.getOutputStream().write(("client " + number + "\n").getBytes(StandardCharsets.UTF_8));
            BufferedReader reader = new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            return reader.readLine();
        } catch (IOException e) {
            return "failed: " + e;
        }
    }
}
