package org.picothreads.targets.net.readiness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.picothreads.runtime.internal.Scheduler;

/**
 * {@link ReadinessWhileACarrierSpins}, with the spinner placed where only another carrier can see the data: the
 * reader notes the lane it runs on just before its first read (its socket is registered with that lane's selector at
 * the read's wait), and spinners are started one after the other until one runs on that lane, which spins without
 * blocking until the reader has its bytes. The writer connects at once and writes only once the spinner is in place. On PicoThreads another carrier must poll the
 * spinner's lane's selector for the reader to be woken before the spinner gives up after {@link #LIMIT_NANOS}; on
 * platform threads the lanes are all -1 and the spinner is in place at once.
 */
public final class ReadinessOnASpinnersLane {
    /** How long the spinner spins before it gives up. */
    private static final long LIMIT_NANOS = 20_000_000_000L;
    /** How many spinners are started at most, one after the other, for one to land on the reader's lane. */
    private static final int MOST_SPINNERS = 1000;
    /** No lane noted yet. */
    private static final int NOT_NOTED = Integer.MIN_VALUE;

    private ReadinessOnASpinnersLane() {
    }

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 50, loopback)) {
            AtomicInteger readerLane = new AtomicInteger(NOT_NOTED);
            AtomicInteger spinnerInPlace = new AtomicInteger();
            AtomicInteger received = new AtomicInteger();
            String[] outcomes = new String[3];
            Thread reader = new Thread(() -> {
                try (Socket connection = server.accept()) {
                    InputStream in = connection.getInputStream();
                    readerLane.set(Scheduler.currentLane());
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
            AtomicInteger spinnerLane = new AtomicInteger(NOT_NOTED);
            Runnable spin = () -> {
                int lane = Scheduler.currentLane();
                spinnerLane.set(lane);
                if (lane != readerLane.get()) {
                    return; // not where the reader's socket is registered: another spinner is started
                }
                long start = System.nanoTime();
                while (received.get() == 0) {
                    if (System.nanoTime() - start > LIMIT_NANOS) {
                        outcomes[1] = "the spinner gave up";
                        return;
                    }
                }
                outcomes[1] = "the spinner saw the reader finish";
            };
            Thread writer = new Thread(() -> {
                try (Socket socket = new Socket(loopback, server.getLocalPort())) {
                    while (spinnerInPlace.get() == 0) {
                        Thread.sleep(1);
                    }
                    Thread.sleep(20);
                    OutputStream out = socket.getOutputStream();
                    out.write("ping".getBytes(StandardCharsets.US_ASCII));
                    outcomes[2] = "the writer wrote 4 bytes";
                } catch (IOException | InterruptedException e) {
                    outcomes[2] = "the writer failed: " + e;
                }
            });
            reader.start();
            writer.start();
            while (readerLane.get() == NOT_NOTED) {
                Thread.sleep(1);
            }
            // Threads started here, by a thread that is not a carrier, go to the lanes in turn: one lands on the
            // reader's lane within a few tries (on platform threads, at the first).
            Thread spinner = null;
            for (int attempt = 0; attempt < MOST_SPINNERS && spinnerInPlace.get() == 0; attempt++) {
                spinnerLane.set(NOT_NOTED);
                spinner = new Thread(spin);
                spinner.start();
                while (spinnerLane.get() == NOT_NOTED) {
                    Thread.sleep(1);
                }
                if (spinnerLane.get() == readerLane.get()) {
                    spinnerInPlace.set(1);
                } else {
                    spinner.join();
                }
            }
            if (spinnerInPlace.get() == 0) {
                outcomes[1] = "no spinner landed on the reader's lane";
                spinnerInPlace.set(1);
            }
            reader.join();
            spinner.join();
            writer.join();
            return String.join("\n", outcomes);
        }
    }
}
