package org.picothreads.targets.net.callbacks;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * Socket reads and joins made while JDK code calls a lambda back ({@code List.forEach}), where the thread cannot be
 * captured and must block for real, between reads and joins made directly, where it suspends: the client asks the
 * server for each value inside a {@code forEach} over the values, and then once more outside it; the server takes
 * its time to answer, so that every read waits. A capture that went through the {@code forEach} frame would lose
 * the rest of the iteration or run part of it twice.
 */
public final class ReadsInsideCallbacks {
    private static final int LAST_REQUEST = -1;

    private ReadsInsideCallbacks() {
    }

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 50, loopback)) {
            String[] served = new String[1];
            Thread serverThread = new Thread(() -> served[0] = serve(server));
            serverThread.start();
            String[] asked = new String[1];
            Thread client = new Thread(() -> asked[0] = ask(loopback, server.getLocalPort()));
            client.start();
            client.join();
            serverThread.join();
            return served[0] + "\n" + asked[0];
        }
    }

    /** Answers each request with ten times its value, after a pause, until the last request. */
    private static String serve(ServerSocket server) {
        try (Socket socket = server.accept()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            List<Integer> requests = new ArrayList<>();
            for (int request = in.readInt(); request != LAST_REQUEST; request = in.readInt()) {
                requests.add(request);
                Thread.sleep(15);
                out.writeInt(request * 10);
                out.flush();
            }
            return "server answered " + requests;
        } catch (Exception e) {
            return "server failed: " + e;
        }
    }

    /** Asks for 1, 2 and 3 inside a forEach, each answer read there, then for 4 outside it; joins inside one too. */
    private static String ask(InetAddress loopback, int port) {
        try (Socket socket = new Socket(loopback, port)) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            List<String> answers = new ArrayList<>();
            List.of(1, 2, 3).forEach(value -> answers.add(value + " -> " + exchange(in, out, value)));
            answers.add("4 -> " + exchange(in, out, 4));
            List<Thread> helpers = List.of(new Thread(() -> pause(20)), new Thread(() -> pause(10)));
            helpers.forEach(Thread::start);
            helpers.forEach(ReadsInsideCallbacks::join);
            answers.add("helpers alive after joins: " + (helpers.get(0).isAlive() || helpers.get(1).isAlive()));
            out.writeInt(LAST_REQUEST);
            out.flush();
            return "client got " + answers;
        } catch (IOException e) {
            return "client failed: " + e;
        }
    }

    private static int exchange(DataInputStream in, DataOutputStream out, int value) {
        try {
            out.writeInt(value);
            out.flush();
            return in.readInt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
    }
}
