package org.picothreads.targets.net.sharedwriter;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Four threads write whole messages to one socket's output stream at once while the reader starts late and reads
 * slowly, so that every write fills the small send buffer and waits partway: java.net's stream is thread-safe, each
 * write's bytes arrive together. The reader reports how many messages arrived whole, per writer.
 */
public class SharedSocketWriters {
    private static final int WRITERS = 4;
    private static final int MESSAGES_PER_WRITER = 5;
    private static final int MESSAGE_SIZE = 60_000;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 1, loopback)) {
            server.setReceiveBufferSize(4096);
            String[] report = new String[1];
            Thread reader = new Thread(() -> report[0] = readMessages(server), "reader");
            reader.start();
            try (Socket socket = new Socket()) {
                socket.setSendBufferSize(4096);
                socket.connect(server.getLocalSocketAddress());
                OutputStream output = socket.getOutputStream();
                Thread[] writers = new Thread[WRITERS];
                for (int index = 0; index < WRITERS; index++) {
                    int writer = index;
                    writers[index] = new Thread(() -> writeMessages(output, writer), "writer-" + index);
                    writers[index].start();
                }
                for (Thread writer : writers) {
                    writer.join();
                }
            }
            reader.join();
            return report[0];
        }
    }

    /** Message {@code number} of {@code writer}: every byte says who wrote it and which message it is. */
    private static byte mark(int writer, int number) {
        return (byte) (1 + writer * MESSAGES_PER_WRITER + number);
    }

    private static void writeMessages(OutputStream output, int writer) {
        try {
            for (int number = 0; number < MESSAGES_PER_WRITER; number++) {
                byte[] message = new byte[MESSAGE_SIZE];
                java.util.Arrays.fill(message, mark(writer, number));
                output.write(message);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String readMessages(ServerSocket server) {
        try (Socket connection = server.accept()) {
            Thread.sleep(100);
            InputStream input = connection.getInputStream();
            int[] whole = new int[WRITERS];
            int broken = 0;
            int runLength = 0;
            int runMark = -1;
            byte[] buffer = new byte[1500];
            int count;
            while ((count = input.read(buffer)) >= 0) {
                for (int index = 0; index < count; index++) {
                    int value = buffer[index];
                    if (value != runMark) {
                        if (runMark != -1) {
                            broken++;
                        }
                        runMark = value;
                        runLength = 0;
                    }
                    if (++runLength == MESSAGE_SIZE) {
                        whole[(runMark - 1) / MESSAGES_PER_WRITER]++;
                        runMark = -1;
                        runLength = 0;
                    }
                }
            }
            StringBuilder result = new StringBuilder("messages arrived whole per writer:");
            for (int writer = 0; writer < WRITERS; writer++) {
                result.append(' ').append(whole[writer]);
            }
            return result.append("; broken runs: ").append(broken + (runMark != -1 ? 1 : 0)).toString();
        } catch (IOException | InterruptedException e) {
            return "failed: " + e;
        }
    }
}
