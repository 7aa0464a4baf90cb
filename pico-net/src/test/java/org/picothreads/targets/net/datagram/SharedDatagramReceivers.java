package org.picothreads.targets.net.datagram;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Four threads receive on one datagram socket at once, each answering what it receives, while clients send in
 * waves; then the socket is closed under the receivers still blocked in receive. Every datagram must be answered
 * and every receiver must end with the close.
 */
public class SharedDatagramReceivers {
    private static final int RECEIVERS = 4;
    private static final int WAVES = 5;
    private static final int CLIENTS_PER_WAVE = 8;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        AtomicInteger answered = new AtomicInteger();
        String[] endings = new String[RECEIVERS];
        try (DatagramSocket server = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            Thread[] receivers = new Thread[RECEIVERS];
            for (int index = 0; index < RECEIVERS; index++) {
                int number = index;
                receivers[index] = new Thread(() -> endings[number] = answerUntilClosed(server, answered),
                        "receiver-" + index);
                receivers[index].start();
            }
            int correct = 0;
            for (int wave = 0; wave < WAVES; wave++) {
                // Let every receiver block in receive before the wave, so that several wait at once.
                Thread.sleep(20);
                String[] replies = new String[CLIENTS_PER_WAVE];
                Thread[] clients = new Thread[CLIENTS_PER_WAVE];
                for (int index = 0; index < CLIENTS_PER_WAVE; index++) {
                    int number = wave * CLIENTS_PER_WAVE + index;
                    int slot = index;
                    clients[index] = new Thread(
                            () -> replies[slot] = call(loopback, server.getLocalPort(), number));
                    clients[index].start();
                }
                for (int index = 0; index < CLIENTS_PER_WAVE; index++) {
                    clients[index].join();
                    if (("echo client " + (wave * CLIENTS_PER_WAVE + index)).equals(replies[index])) {
                        correct++;
                    }
                }
            }
            Thread.sleep(20);
            server.close();
            for (Thread receiver : receivers) {
                receiver.join();
            }
            StringBuilder result = new StringBuilder();
            result.append(WAVES * CLIENTS_PER_WAVE).append(" clients, ").append(correct).append(" correct replies, ")
                    .append(answered.get()).append(" datagrams answered");
            for (int index = 0; index < RECEIVERS; index++) {
                result.append("\nreceiver ").append(index).append(" ended by ").append(endings[index]);
            }
            return result.toString();
        }
    }

    /** Receives and answers datagrams one at a time until the socket is closed; returns how it ended. */
    private static String answerUntilClosed(DatagramSocket server, AtomicInteger answered) {
        byte[] buffer = new byte[512];
        while (true) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                server.receive(packet);
                byte[] reply = ("echo " + new String(packet.getData(), 0, packet.getLength(),
                        StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII);
                server.send(new DatagramPacket(reply, reply.length, packet.getSocketAddress()));
                answered.incrementAndGet();
            } catch (SocketException e) {
                return e.getClass().getName() + ": " + e.getMessage();
            } catch (IOException e) {
                return "unexpected " + e;
            }
        }
    }

    private static String call(InetAddress loopback, int port, int number) {
        try (DatagramSocket socket = new DatagramSocket(0, loopback)) {
            socket.setSoTimeout(10_000);
            byte[] request = ("client " + number).getBytes(StandardCharsets.US_ASCII);
            socket.send(new DatagramPacket(request, request.length, loopback, port));
            byte[] buffer = new byte[512];
            DatagramPacket reply = new DatagramPacket(buffer, buffer.length);
            socket.receive(reply);
            return new String(reply.getData(), 0, reply.getLength(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "failed: " + e;
        }
    }
}
