package org.picothreads.targets.net.datagram;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * What a thread sees of datagram sockets on 127.0.0.1 as they are bound, connected, disconnected and closed: their
 * state and addresses (a closed socket keeps answering that it was bound and connected, and its peer), and what
 * each call on a closed, an unbound or a bound socket throws.
 */
public class DatagramSocketStates {
    public static String run() throws Exception {
        StringBuilder lines = new StringBuilder();
        Thread thread = new Thread(() -> {
            try {
                observe(lines);
            } catch (Exception e) {
                lines.append("failed: ").append(e);
            }
        });
        thread.start();
        thread.join();
        return lines.toString();
    }

    private static void observe(StringBuilder lines) throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        DatagramSocket unbound = new DatagramSocket((SocketAddress) null);
        lines.append("unbound: ").append(state(unbound)).append('\n');
        unbound.close();
        lines.append("unbound, closed: ").append(state(unbound)).append('\n');
        try (DatagramSocket peer = new DatagramSocket(0, loopback)) {
            int peerPort = peer.getLocalPort();
            DatagramSocket socket = new DatagramSocket(0, loopback);
            lines.append("bound: ").append(state(socket)).append('\n');
            socket.connect(loopback, peerPort);
            lines.append("connected: ").append(state(socket)).append('\n');
            socket.close();
            lines.append("connected, closed: ").append(state(socket)).append('\n');
            attempt(lines, "receive", () -> socket.receive(new DatagramPacket(new byte[1], 1)));
            attempt(lines, "send", () -> socket.send(new DatagramPacket(new byte[1], 1, loopback, peerPort)));
            attempt(lines, "getSoTimeout", socket::getSoTimeout);
            attempt(lines, "bind", () -> socket.bind(null));
            attempt(lines, "connect", () -> socket.connect(loopback, peerPort));
            attempt(lines, "disconnect", socket::disconnect);
            lines.append("connected, closed, disconnected: ").append(state(socket)).append('\n');
            try (DatagramSocket other = new DatagramSocket(0, loopback)) {
                other.connect(new InetSocketAddress(loopback, peerPort));
                other.disconnect();
                lines.append("disconnected: ").append(state(other)).append('\n');
                attempt(lines, "bind again", () -> other.bind(new InetSocketAddress(loopback, 0)));
                attempt(lines, "send without an address", () -> other.send(new DatagramPacket(new byte[1], 1)));
                attempt(lines, "connect to null", () -> other.connect(null, peerPort));
                other.setSoTimeout(20);
                attempt(lines, "receive with a timeout", () -> other.receive(new DatagramPacket(new byte[1], 1)));
            }
        }
    }

    private static String state(DatagramSocket socket) {
        InetAddress remote = socket.getInetAddress();
        return "bound " + socket.isBound() + ", connected " + socket.isConnected() + ", closed " + socket.isClosed()
                + ", local address " + socket.getLocalAddress() + ", local port "
                + (socket.getLocalPort() > 0 ? "ephemeral" : String.valueOf(socket.getLocalPort()))
                + ", has local socket address " + (socket.getLocalSocketAddress() != null) + ", remote " + remote
                + ", remote port " + (socket.getPort() > 0 ? "the peer's" : String.valueOf(socket.getPort()))
                + ", has remote socket address " + (socket.getRemoteSocketAddress() != null);
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void attempt(StringBuilder lines, String name, Call call) {
        try {
            call.run();
            lines.append(name).append(": returned\n");
        } catch (Exception e) {
            lines.append(name).append(": ").append(e).append('\n');
        }
    }
}
