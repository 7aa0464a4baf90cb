package org.picothreads.targets.net.datagram;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A datagram echo server thread and twenty client threads on 127.0.0.1, and a receive that times out. */
public class DatagramEcho {
    private static final int CLIENTS = 20;
    private static final String STOP = "stop";

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (DatagramSocket server = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            int port = server.getLocalPort();
            Thread echoer = new Thread(() -> echo(server), "echoer");
            echoer.start();
            String[] replies = new String[CLIENTS];
            Thread[] clients = new Thread[CLIENTS];
            for (int index = 0; index < CLIENTS; index++) {
                int number = index;
                clients[index] = new Thread(() -> replies[number] = call(loopback, port, number));
                clients[index].start();
            }
            for (Thread client : clients) {
                client.join();
            }
            try (DatagramSocket stopper = new DatagramSocket(0, loopback)) {
                byte[] stop = STOP.getBytes(StandardCharsets.US_ASCII);
                stopper.send(new DatagramPacket(stop, stop.length, loopback, port));
            }
            echoer.join();
            int correct = 0;
            for (int index = 0; index < CLIENTS; index++) {
                if (replies[index].equals(message(index))) {
                    correct++;
                }
            }
            return CLIENTS + " clients, " + correct + " correct echoes, first " + replies[0] + ", last "
                    + replies[CLIENTS - 1] + ", quiet socket: " + receiveWithTimeout(loopback);
        }
    }

    private static String message(int number) {
        return "datagram from client " + number;
    }

    private static void echo(DatagramSocket server) {
        byte[] buffer = new byte[512];
        try {
            while (true) {
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                server.receive(packet);
                String text = new String(packet.getData(), 0, packet.getLength(), StandardCharsets.US_ASCII);
                if (text.equals(STOP)) {
                    return;
                }
                server.send(new DatagramPacket(packet.getData(), packet.getLength(), packet.getSocketAddress()));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String call(InetAddress address, int port, int number) {
        try (DatagramSocket socket = new DatagramSocket(0, address)) {
            socket.setSoTimeout(10_000);
            byte[] request = message(number).getBytes(StandardCharsets.US_ASCII);
            socket.send(new DatagramPacket(request, request.length, address, port));
            byte[] reply = new byte[512];
            DatagramPacket packet = new DatagramPacket(reply, reply.length);
            socket.receive(packet);
            return new String(reply, 0, packet.getLength(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "failed: " + e;
        }
    }

    private static String receiveWithTimeout(InetAddress address) throws IOException {
        try (DatagramSocket quiet = new DatagramSocket(0, address)) {
            quiet.setSoTimeout(50);
            long start = System.nanoTime();
            try {
                quiet.receive(new DatagramPacket(new byte[16], 16));
                return "received something";
            } catch (SocketTimeoutException e) {
                long waitedMillis = (System.nanoTime() - start) / 1_000_000;
                return e.getClass().getSimpleName() + " " + e.getMessage() + " after at least 50 ms "
                        + (waitedMillis >= 45);
            }
        }
    }
}
