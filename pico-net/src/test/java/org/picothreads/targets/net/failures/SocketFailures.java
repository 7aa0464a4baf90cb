package org.picothreads.targets.net.failures;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The socket failures a program sees, each in its own thread: a read timeout, a refused connect, a peer reset, a
 * close while blocked in read and in accept, an accept timeout.
 */
public class SocketFailures {
    private static final List<String> outcomes = Collections.synchronizedList(new ArrayList<>());

    public static String run() throws Exception {
        outcomes.clear();
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        List<Thread> threads = new ArrayList<>();
        threads.add(start("read timeout", () -> readTimeout(loopback)));
        threads.add(start("refused", () -> refused(loopback)));
        threads.add(start("reset", () -> reset(loopback)));
        threads.add(start("close in read", () -> closeWhileReading(loopback)));
        threads.add(start("close in accept", () -> closeWhileAccepting(loopback)));
        threads.add(start("accept timeout", () -> acceptTimeout(loopback)));
        for (Thread thread : threads) {
            thread.join();
        }
        List<String> sorted = new ArrayList<>(outcomes);
        Collections.sort(sorted);
        return String.join("\n", sorted);
    }

    /** A scenario that may fail with an IOException. */
    interface Scenario {
        void run() throws Exception;
    }

    private static Thread start(String name, Scenario scenario) {
        Thread thread = new Thread(() -> {
            try {
                scenario.run();
            } catch (Exception e) {
                outcomes.add(name + ": " + e.getClass().getName() + ": " + e.getMessage());
            }
        }, name);
        thread.start();
        return thread;
    }

    private static void readTimeout(InetAddress loopback) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, loopback);
                Socket client = new Socket(loopback, server.getLocalPort());
                Socket accepted = server.accept()) {
            client.setSoTimeout(150);
            long start = System.nanoTime();
            try {
                client.getInputStream().read();
            } catch (IOException e) {
                long millis = (System.nanoTime() - start) / 1_000_000;
                outcomes.add("read timeout: " + e.getClass().getName() + ": " + e.getMessage() + " after at least 150 ms: "
                        + (millis >= 140) + ", socket still open: " + !client.isClosed());
            }
            accepted.getOutputStream().write(7);
            outcomes.add("read after timeout: " + client.getInputStream().read());
        }
    }

    private static void refused(InetAddress loopback) throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 50, loopback)) {
            port = closed.getLocalPort();
        }
        try {
            new Socket(loopback, port).close();
            outcomes.add("refused: connected");
        } catch (IOException e) {
            outcomes.add("refused by constructor: " + e.getClass().getName() + ": " + e.getMessage());
        }
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(loopback, port), 1000);
        } catch (IOException e) {
            outcomes.add("refused by connect: " + e.getClass().getName() + ": " + e.getMessage() + ", closed: "
                    + socket.isClosed());
        }
    }

    private static void reset(InetAddress loopback) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, loopback);
                Socket client = new Socket(loopback, server.getLocalPort())) {
            Socket accepted = server.accept();
            client.getOutputStream().write(1);
            outcomes.add("reset: server read " + accepted.getInputStream().read());
            Thread.sleep(20);
            accepted.setSoLinger(true, 0);
            accepted.close();
            client.getInputStream().read();
            outcomes.add("reset: read returned");
        }
    }

    private static void closeWhileReading(InetAddress loopback) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, loopback);
                Socket client = new Socket(loopback, server.getLocalPort());
                Socket accepted = server.accept()) {
            Thread closer = new Thread(() -> {
                try {
                    Thread.sleep(100);
                    client.close();
                } catch (Exception e) {
                    outcomes.add("closer failed: " + e);
                }
            });
            closer.start();
            try {
                client.getInputStream().read();
                outcomes.add("close in read: read returned");
            } finally {
                closer.join();
            }
        }
    }

    private static void closeWhileAccepting(InetAddress loopback) throws Exception {
        ServerSocket server = new ServerSocket(0, 50, loopback);
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(100);
                server.close();
            } catch (Exception e) {
                outcomes.add("closer failed: " + e);
            }
        });
        closer.start();
        try {
            server.accept().close();
            outcomes.add("close in accept: accepted");
        } finally {
            closer.join();
        }
    }

    private static void acceptTimeout(InetAddress loopback) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, loopback)) {
            server.setSoTimeout(100);
            server.accept().close();
            outcomes.add("accept timeout: accepted");
        }
    }
}
