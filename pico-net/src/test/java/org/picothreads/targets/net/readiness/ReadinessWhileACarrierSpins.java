package org.picothreads.targets.net.readiness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thread blocked reading a socket is woken by the data a second thread writes after a sleep, while a third thread
 * spins, never blocking, until the reader has its bytes: on PicoThreads the spinner holds one carrier, so the reader
 * and the writer, their sleep's timer and the read's readiness are all handled by the other carriers. The spinner
 * gives up after {@link #LIMIT_NANOS} and says so, so that the program ends either way.
 */
public final class ReadinessWhileACarrierSpins {
    /** How long the spinner spins before it gives up. */
    private static final long LIMIT_NANOS = 20_000_000_000L;

    private ReadinessWhileACarrierSpins() {
    }

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 50, loopback)) {
            AtomicInteger received = new AtomicInteger();
            String[] outcomes = new String[3];
            Thread reader = new Thread(() -> {
                try (Socket connection = server.accept()) {
                    InputStream in = connection.getInputStream();
                    StringBuilder text = new StringBuilder();
                    int next;
                    while ((next = in.read()) != -1) {
                        text.append((char) next);
                    }
                    outcomes[0] = "the reader got '" + text + "'";
                } catch (IOException e) {
                    outcomes[0] = "the reader failed: " + e;
                }
                received.set(1);
            });
            Thread spinner = new Thread(() -> {
                long start = System.nanoTime();
                while (received.get() == 0) {
                    if (System.nanoTime() - start > LIMIT_NANOS) {
                        outcomes[1] = "the spinner gave up";
                        return;
                    }
                }
                outcomes[1] = "the spinner saw the reader finish";
            });
            Thread writer = new Thread(() -> {
                try (Socket socket = new Socket(loopback, server.getLocalPort())) {
                    Thread.sleep(20);
                    OutputStream out = socket.getOutputStream();
                    out.write("ping".getBytes(StandardCharsets.US_ASCII));
                    outcomes[2] = "the writer wrote 4 bytes";
                } catch (IOException | InterruptedException e) {
                    outcomes[2] = "the writer failed: " + e;
                }
            });
            reader.start();
            spinner.start();
            writer.start();
            reader.join();
            spinner.join();
            writer.join();
            return String.join("\n", outcomes);
        }
    }
}
