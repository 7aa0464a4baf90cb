package org.picothreads.targets.net.sharedreader;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

/**
 * Four threads reading one socket's input stream at once, in single bytes and small arrays, while a writer sends a
 * known sequence in bursts: java.net's stream hands each byte to exactly one reader, so the readers' counts of each
 * byte value add up to the counts sent. Then {@code available()}, called while another thread waits in a read.
 */
public class SharedSocketReaders {
    private static final int READERS = 4;
    private static final int BURSTS = 40;
    private static final int BURST_SIZE = 5000;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        long[] sent = new long[256];
        for (int index = 0; index < BURSTS * BURST_SIZE; index++) {
            sent[value(index)]++;
        }
        try (ServerSocket server = new ServerSocket(0, 1, loopback);
                Socket client = new Socket(loopback, server.getLocalPort());
                Socket served = server.accept()) {
            Thread writer = new Thread(() -> writeInBursts(served), "burst-writer");
            writer.start();
            InputStream in = client.getInputStream();
            long[][] counts = new long[READERS][256];
            String[] failures = new String[READERS];
            Thread[] readers = new Thread[READERS];
            for (int index = 0; index < READERS; index++) {
                int reader = index;
                readers[index] = new Thread(() -> failures[reader] = readShared(in, counts[reader], reader));
                readers[index].start();
            }
            for (Thread reader : readers) {
                reader.join();
            }
            writer.join();
            long[] received = new long[256];
            long total = 0;
            for (long[] readerCounts : counts) {
                for (int value = 0; value < 256; value++) {
                    received[value] += readerCounts[value];
                    total += readerCounts[value];
                }
            }
            return total + " bytes read by " + READERS + " readers of one stream, each value as often as sent: "
                    + Arrays.equals(sent, received) + ", failures: " + Arrays.toString(failures) + "; "
                    + availableWhileAReaderWaits(loopback);
        }
    }

    /** {@code available()} answers at once while another thread waits in a read of the same stream. */
    private static String availableWhileAReaderWaits(InetAddress loopback) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, loopback);
                Socket client = new Socket(loopback, server.getLocalPort());
                Socket served = server.accept()) {
            InputStream in = client.getInputStream();
            byte[] bytes = new byte[16];
            int[] read = new int[1];
            Thread reader = new Thread(() -> {
                try {
                    read[0] = in.read(bytes, 0, bytes.length);
                } catch (IOException e) {
                    read[0] = -2;
                }
            });
            reader.start();
            Thread.sleep(100);
            int available = in.available();
            OutputStream out = served.getOutputStream();
            out.write(new byte[] {1, 2, 3, 4, 5});
            out.flush();
            reader.join();
            return "available while a reader waits: " + available + ", then the reader read " + read[0] + " bytes";
        }
    }

    private static int value(int index) {
        return (index * 7 + index / 251) & 0xff;
    }

    private static void writeInBursts(Socket served) {
        try (OutputStream out = served.getOutputStream()) {
            byte[] burst = new byte[BURST_SIZE];
            for (int round = 0; round < BURSTS; round++) {
                for (int index = 0; index < BURST_SIZE; index++) {
                    burst[index] = (byte) value(round * BURST_SIZE + index);
                }
                out.write(burst);
                out.flush();
                Thread.sleep(2);
            }
            served.shutdownOutput();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String readShared(InputStream in, long[] counts, int reader) {
        byte[] bytes = new byte[37];
        try {
            for (int reads = 0; ; reads++) {
                if ((reads + reader) % 2 == 0) {
                    int value = in.read();
                    if (value < 0) {
                        return null;
                    }
                    counts[value]++;
                } else {
                    int count = in.read(bytes, 0, 1 + reads % bytes.length);
                    if (count < 0) {
                        return null;
                    }
                    for (int index = 0; index < count; index++) {
                        counts[bytes[index] & 0xff]++;
                    }
                }
            }
        } catch (IOException e) {
            return e.toString();
        }
    }
}
