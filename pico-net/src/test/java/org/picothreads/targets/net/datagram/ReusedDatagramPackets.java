package org.picothreads.targets.net.datagram;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A receiver thread that receives datagrams of different sizes into the same packets on 127.0.0.1, as a loop that
 * calls {@code receive(packet)} again and again does: a packet received into again holds its whole buffer, not the
 * length of the datagram before; a length or an array the program sets between receives bounds the next one; a
 * datagram longer than the buffer is cut. The sender waits for an acknowledgement of each datagram before it sends
 * the next, so the order of the lines is fixed. Then a connected send of a packet without an address, which the
 * send addresses to the peer, and one to another address, which it refuses.
 */
public class ReusedDatagramPackets {
    private static final String[] FIRST_PACKET = {"hi", "a longer message", "mid size", "", "the buffer holds twenty"};
    private static final String[] AFTER_SET_LENGTH = {"cut after four", "ab", "again cut after four"};
    private static final String[] AFTER_SET_DATA = {"cut after six", "xyz", "cut after six again"};
    private static final String[] WITH_OFFSET = {"abcdefgh", "xy", "123456789"};

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (DatagramSocket receiving = new DatagramSocket(new InetSocketAddress(loopback, 0));
                DatagramSocket sending = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            receiving.setSoTimeout(10_000);
            sending.setSoTimeout(10_000);
            StringBuilder lines = new StringBuilder();
            Thread receiver = new Thread(() -> receive(receiving, lines), "receiver");
            receiver.start();
            SocketAddress target = receiving.getLocalSocketAddress();
            for (String[] datagrams : new String[][] {FIRST_PACKET, AFTER_SET_LENGTH, AFTER_SET_DATA, WITH_OFFSET}) {
                for (String text : datagrams) {
                    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
                    sending.send(new DatagramPacket(bytes, bytes.length, target));
                    DatagramPacket acknowledgement = new DatagramPacket(new byte[8], 8);
                    sending.receive(acknowledgement);
                }
            }
            receiver.join();
            sending.connect(target);
            DatagramPacket unaddressed = new DatagramPacket(new byte[] {'!'}, 1);
            sending.send(unaddressed);
            lines.append("a connected send addresses its packet to the peer: ")
                    .append(target.equals(unaddressed.getSocketAddress())).append('\n');
            try {
                sending.send(new DatagramPacket(new byte[1], 1, loopback, 9));
                lines.append("a connected send to another address went\n");
            } catch (IllegalArgumentException e) {
                lines.append("a connected send to another address: ").append(e).append('\n');
            }
            return lines.toString();
        }
    }

    private static void receive(DatagramSocket socket, StringBuilder lines) {
        try {
            byte[] buffer = new byte[20];
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            receiveEach(socket, packet, FIRST_PACKET.length, lines);
            packet.setLength(4);
            receiveEach(socket, packet, AFTER_SET_LENGTH.length, lines);
            packet.setData(new byte[6]);
            receiveEach(socket, packet, AFTER_SET_DATA.length, lines);
            DatagramPacket withOffset = new DatagramPacket(new byte[12], 3, 5);
            receiveEach(socket, withOffset, WITH_OFFSET.length, lines);
        } catch (IOException e) {
            lines.append("receiver failed: ").append(e);
        }
    }

    private static void receiveEach(DatagramSocket socket, DatagramPacket packet, int count, StringBuilder lines)
            throws IOException {
        for (int index = 0; index < count; index++) {
            socket.receive(packet);
            String text = new String(packet.getData(), packet.getOffset(), packet.getLength(),
                    StandardCharsets.US_ASCII);
            lines.append("received ").append(packet.getLength()).append(" bytes at ").append(packet.getOffset())
                    .append(": \"").append(text).append("\"\n");
            byte[] acknowledgement = {'o', 'k'};
            socket.send(new DatagramPacket(acknowledgement, acknowledgement.length, packet.getSocketAddress()));
        }
    }
}
