package org.picothreads.targets.net.rewait;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * One thread writes one large message in a single {@code write} to a socket with a small send buffer, while the
 * reader starts late and reads a little at a time: the write fills the buffer and waits again and again, each wait
 * after the first made by the write's own resumed activation in pico-net. The reader reports how many bytes arrived
 * and their sum.
 */
public class RewaitingWriter {
    /** The bytes of the one message. */
    public static final int MESSAGE_SIZE = 400_000;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 1, loopback)) {
            server.setReceiveBufferSize(4096);
            String[] report = new String[1];
            Thread reader = new Thread(() -> report[0] = readAll(server), "reader");
            reader.start();
            try (Socket socket = new Socket()) {
                socket.setSendBufferSize(4096);
                socket.connect(server.getLocalSocketAddress());
                Thread writer = new Thread(() -> writeMessage(socket), "writer");
                writer.start();
                writer.join();
            }
            reader.join();
            return report[0];
        }
    }

    private static void writeMessage(Socket socket) {
        byte[] message = new byte[MESSAGE_SIZE];
        for (int index = 0; index < MESSAGE_SIZE; index++) {
            message[index] = (byte) (index * 31 + 7);
        }
        try {
            OutputStream output = socket.getOutputStream();
            output.write(message);
            socket.shutdownOutput();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String readAll(ServerSocket server) {
        try (Socket connection = server.accept()) {
            Thread.sleep(20);
            InputStream input = connection.getInputStream();
            byte[] buffer = new byte[2048];
            long total = 0;
            long sum = 0;
            int count;
            while ((count = input.read(buffer)) >= 0) {
                for (int index = 0; index < count; index++) {
                    sum += buffer[index];
                }
                total += count;
                Thread.yield();
            }
            return total + " bytes, sum " + sum;
        } catch (IOException | InterruptedException e) {
            return "reader failed: " + e;
        }
    }
}
