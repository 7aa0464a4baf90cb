package org.picothreads.targets.net.timers;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sleeper's timers while a spinner holds a carrier, with a reader waiting on a socket the whole time (so that the
 * idle carriers wait in their selectors rather than park). In each round the carriers settle (the sleeper sleeps
 * 5 ms at a time, the reader waits), then a thread that never blocks is started and spins until the sleeper has
 * slept {@link #SLEEPS} times. On PicoThreads the carrier that waited for the timers may be the one woken for the
 * spinner; another carrier must then fire the sleeper's timers before the spinner gives up after
 * {@link #LIMIT_NANOS}.
 */
public final class SleepsBesideASpinner {
    /** How many 5 ms sleeps the sleeper makes in a round. */
    private static final int SLEEPS = 20;
    private static final int ROUNDS = 5;
    /** How long a spinner spins before it gives up. */
    private static final long LIMIT_NANOS = 10_000_000_000L;

    private SleepsBesideASpinner() {
    }

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        StringBuilder outcomes = new StringBuilder();
        try (ServerSocket server = new ServerSocket(0, 50, loopback)) {
            String[] read = new String[1];
            Thread reader = new Thread(() -> {
                try (Socket connection = server.accept()) {
                    InputStream in = connection.getInputStream();
                    int count = 0;
                    while (in.read() != -1) {
                        count++;
                    }
                    read[0] = "the reader read " + count + " bytes";
                } catch (IOException e) {
                    read[0] = "the reader failed: " + e;
                }
            });
            reader.start();
            try (Socket client = new Socket(loopback, server.getLocalPort())) {
                for (int round = 0; round < ROUNDS; round++) {
                    AtomicInteger slept = new AtomicInteger();
                    Thread sleeper = new Thread(() -> {
                        try {
                            for (int sleep = 0; sleep < SLEEPS; sleep++) {
                                Thread.sleep(5);
                                slept.incrementAndGet();
                            }
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    String[] spun = new String[1];
                    Thread spinner = new Thread(() -> {
                        long start = System.nanoTime();
                        while (slept.get() < SLEEPS) {
                            if (System.nanoTime() - start > LIMIT_NANOS) {
                                spun[0] = "the spinner gave up at " + slept.get() + " sleeps";
                                return;
                            }
                        }
                        spun[0] = "the spinner saw " + SLEEPS + " sleeps";
                    });
                    sleeper.start();
                    Thread.sleep(20); // the carriers settle into their idle waits between the sleeper's timers
                    spinner.start();
                    spinner.join();
                    sleeper.join();
                    outcomes.append("round ").append(round).append(": ").append(spun[0]).append('\n');
                }
                client.getOutputStream().write(new byte[] {1, 2, 3});
            }
            reader.join();
            return outcomes.append(read[0]).toString();
        }
    }
}
