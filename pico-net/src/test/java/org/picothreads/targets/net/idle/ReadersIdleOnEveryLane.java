package org.picothreads.targets.net.idle;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.picothreads.runtime.internal.Scheduler;

/**
 * Readers blocked reading sockets registered with every lane's selector, and nothing else to do: {@link #start(int)}
 * returns once they are started; a test looks at the idle carriers meanwhile;
 * {@link #finish(Object)} sends each reader one byte and closes, and returns what the readers read. Meant for
 * PicoThreads (on platform threads every lane is -1 and the readers read at once).
 */
public final class ReadersIdleOnEveryLane {
    /** How many readers are started at most. */
    private static final int MOST_READERS = 200;
    /** No lane noted yet. */
    private static final int NOT_NOTED = Integer.MIN_VALUE;

    private ReadersIdleOnEveryLane() {
    }

    /** What {@link #start()} leaves for {@link #finish(Object)}. */
    private record Started(ServerSocket server, List<Socket> accepted, List<Thread> readers, String[] outcomes) {
    }

    /**
     * Starts readers until one has noted each of the {@code lanes} lanes as its own: a reader notes the lane it runs on,
     * then connects and reads, so its socket is registered with that lane's selector at its first wait. Threads started
     * by a thread that is not a carrier go to the lanes in turn, so a few readers per lane do; at most
     * {@link #MOST_READERS}. Returns what finish needs.
     */
    public static Object start(int lanes) throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        ServerSocket server = new ServerSocket(0, MOST_READERS, loopback);
        List<Thread> readers = new ArrayList<>();
        List<Socket> accepted = new ArrayList<>();
        String[] outcomes = new String[MOST_READERS];
        boolean[] noted = new boolean[lanes];
        int lanesNoted = 0;
        while (lanesNoted < lanes && readers.size() < MOST_READERS) {
            int index = readers.size();
            AtomicInteger lane = new AtomicInteger(NOT_NOTED);
            Thread reader = new Thread(() -> {
                lane.set(Scheduler.currentLane());
                try (Socket socket = new Socket(loopback, server.getLocalPort())) {
                    InputStream in = socket.getInputStream();
                    int first = in.read();
                    int second = in.read();
                    outcomes[index] = "reader " + index + ": " + first + ", then " + second;
                } catch (IOException e) {
                    outcomes[index] = "reader " + index + " failed: " + e;
                }
            });
            readers.add(reader);
            reader.start();
            accepted.add(server.accept());
            int own = lane.get();
            if (own >= 0 && !noted[own]) {
                noted[own] = true;
                lanesNoted++;
            } else if (own < 0 && lanesNoted == 0) {
                lanesNoted = lanes; // on platform threads: one reader
            }
        }
        return new Started(server, accepted, readers, outcomes);
    }

    /** Sends each reader one byte and closes its connection, waits for the readers, and returns what they read. */
    public static String finish(Object started) throws Exception {
        Started readers = (Started) started;
        for (int index = 0; index < readers.accepted.size(); index++) {
            try (Socket socket = readers.accepted.get(index)) {
                OutputStream out = socket.getOutputStream();
                out.write(index + 1);
            }
        }
        for (Thread reader : readers.readers) {
            reader.join();
        }
        readers.server.close();
        return String.join("\n", Arrays.asList(readers.outcomes).subList(0, readers.readers.size()));
    }
}
