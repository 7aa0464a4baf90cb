package org.picothreads.targets.net.direct;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A client and a server thread that each read and write their socket's streams directly in a loop, one byte a
 * round, so that each blocks in a read every round: {@link #run()} with a client socket of java.net's own class,
 * {@link #runWithSocketSubclass()} with a client socket of a subclass the program wrote. The server echoes each byte
 * plus one; the client sums what comes back.
 */
public final class DirectSocketReads {
    /** Round trips per run. */
    public static final int ROUNDS = 200;

    private DirectSocketReads() {
    }

    public static String run() throws Exception {
        return exchange(false);
    }

    public static String runWithSocketSubclass() throws Exception {
        return exchange(true);
    }

    private static String exchange(boolean subclass) throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 1, loopback)) {
            Thread serving = new Thread(() -> serve(server), "server");
            serving.start();
            long[] sum = new long[1];
            Thread client = new Thread(() -> {
                try (Socket socket = subclass ? new Socket(loopback, server.getLocalPort()) { }
                        : new Socket(loopback, server.getLocalPort())) {
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    for (int round = 0; round < ROUNDS; round++) {
                        out.write(round & 0x7f);
                        sum[0] += in.read();
                    }
                } catch (IOException exception) {
                    throw new UncheckedIOException(exception);
                }
            }, "client");
            client.start();
            client.join();
            serving.join();
            return "rounds " + ROUNDS + ", sum of the replies " + sum[0];
        }
    }

    private static void serve(ServerSocket server) {
        try (Socket connection = server.accept()) {
            InputStream in = connection.getInputStream();
            OutputStream out = connection.getOutputStream();
            int value;
            while ((value = in.read()) >= 0) {
                out.write(value + 1);
            }
        } catch (IOException exception) {
            throw new UncheckedIOException(exception);
        }
    }
}
