package org.picothreads.targets.net.readsizes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * Readers that take what a writer sends in reads of every size, from single bytes to arrays several times a socket
 * stream's buffer, switching size from one read to the next, while the writer sends in bursts with pauses between
 * them (so that reads find the socket empty and wait); each reader reports its byte count, a checksum in read order
 * and the end of stream. One more connection reads an array into a socket with a read timeout and nothing sent,
 * then, after the timeout, reads what arrives.
 */
public class MixedReadSizes {
    private static final int READERS = 12;
    private static final int BURSTS = 8;
    private static final int BURST_SIZE = 24_000;
    /** The sizes each reader cycles through; 0 stands for {@code read()}. */
    private static final int[] READ_SIZES = {0, 100, 8192, 20_000, 1, 50_000, 8191, 8193, 3000};

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        StringBuilder result = new StringBuilder();
        try (ServerSocket server = new ServerSocket(0, READERS + 1, loopback)) {
            Thread writer = new Thread(() -> writeInBursts(server), "burst-writer");
            writer.start();
            String[] received = new String[READERS];
            Thread[] readers = new Thread[READERS];
            for (int index = 0; index < READERS; index++) {
                int number = index;
                readers[index] = new Thread(() -> received[number] = readAll(loopback, server.getLocalPort(), number));
                readers[index].start();
            }
            for (Thread reader : readers) {
                reader.join();
            }
            writer.join();
            result.append(String.join("\n", received));
        }
        result.append('\n').append(readAfterTimeout(loopback));
        return result.toString();
    }

    private static void writeInBursts(ServerSocket server) {
        try {
            Socket[] connections = new Socket[READERS];
            for (int index = 0; index < READERS; index++) {
                connections[index] = server.accept();
            }
            byte[] burst = new byte[BURST_SIZE];
            for (int round = 0; round < BURSTS; round++) {
                for (int index = 0; index < BURST_SIZE; index++) {
                    burst[index] = (byte) (round * 131 + index * 7);
                }
                for (Socket connection : connections) {
                    OutputStream out = connection.getOutputStream();
                    out.write(burst);
                    out.flush();
                }
                Thread.sleep(15);
            }
            for (Socket connection : connections) {
                connection.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String readAll(InetAddress address, int port, int reader) {
        try (Socket socket = new Socket(address, port)) {
            InputStream in = socket.getInputStream();
            byte[] bytes = new byte[60_000];
            long total = 0;
            long checksum = 0;
            int reads = 0;
            while (true) {
                int size = READ_SIZES[(reader + reads++) % READ_SIZES.length];
                if (size == 0) {
                    int value = in.read();
                    if (value < 0) {
                        break;
                    }
                    total++;
                    checksum = checksum * 31 + value;
                    continue;
                }
                int offset = reads % 7;
                int count = in.read(bytes, offset, size);
                if (count < 0) {
                    break;
                }
                if (count == 0 || count > size) {
                    return "reader " + reader + ": read " + count + " bytes for " + size;
                }
                for (int index = offset; index < offset + count; index++) {
                    checksum = checksum * 31 + (bytes[index] & 0xff);
                }
                total += count;
            }
            return "reader " + reader + ": " + total + " bytes, checksum " + checksum + ", then " + in.read()
                    + " and " + in.read(bytes, 0, 10_000);
        } catch (IOException e) {
            return "reader " + reader + " failed: " + e;
        }
    }

    private static String readAfterTimeout(InetAddress loopback) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, loopback);
                Socket client = new Socket(loopback, server.getLocalPort());
                Socket served = server.accept()) {
            client.setSoTimeout(50);
            InputStream in = client.getInputStream();
            byte[] bytes = new byte[16_384];
            String timedOut;
            try {
                timedOut = "read " + in.read(bytes, 0, bytes.length);
            } catch (SocketTimeoutException e) {
                timedOut = e.getMessage();
            }
            OutputStream out = served.getOutputStream();
            out.write(new byte[] {5, 6, 7});
            out.flush();
            int count = in.read(bytes, 0, bytes.length);
            return "large read with nothing sent: " + timedOut + "; after it: " + count + " bytes, " + bytes[0] + ","
                    + bytes[1] + "," + bytes[2];
        }
    }
}
