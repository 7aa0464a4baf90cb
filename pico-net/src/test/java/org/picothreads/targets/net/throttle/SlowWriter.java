package org.picothreads.targets.net.throttle;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A slow writer throttled to a few KB/s (512 bytes every 40 ms) serving many readers at once; each reader counts
 * and checksums what it received.
 */
public class SlowWriter {
    private static final int READERS = 40;
    private static final int CHUNKS = 6;
    private static final int CHUNK_SIZE = 512;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, READERS, loopback)) {
            Thread writer = new Thread(() -> writeSlowly(server), "slow-writer");
            writer.start();
            String[] received = new String[READERS];
            Thread[] readers = new Thread[READERS];
            for (int index = 0; index < READERS; index++) {
                int number = index;
                readers[index] = new Thread(() -> received[number] = readAll(loopback, server.getLocalPort()));
                readers[index].start();
            }
            for (Thread reader : readers) {
                reader.join();
            }
            writer.join();
            return String.join("\n", received);
        }
    }

    private static void writeSlowly(ServerSocket server) {
        try {
            Socket[] connections = new Socket[READERS];
            for (int index = 0; index < READERS; index++) {
                connections[index] = server.accept();
            }
            byte[] chunk = new byte[CHUNK_SIZE];
            for (int round = 0; round < CHUNKS; round++) {
                for (int index = 0; index < CHUNK_SIZE; index++) {
                    chunk[index] = (byte) (round * 31 + index);
                }
                for (Socket connection : connections) {
                    OutputStream out = connection.getOutputStream();
                    out.write(chunk);
                    out.flush();
                }
                Thread.sleep(40);
            }
            for (Socket connection : connections) {
                connection.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String readAll(InetAddress address, int port) {
        try (Socket socket = new Socket(address, port)) {
            InputStream in = socket.getInputStream();
            long total = 0;
            long checksum = 0;
            int value;
            while ((value = in.read()) >= 0) {
                total++;
                checksum = checksum * 31 + value;
            }
            return total + " bytes, checksum " + checksum;
        } catch (IOException e) {
            return "failed: " + e;
        }
    }
}
