package org.picothreads.runtime.internal;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * Where rewritten calls of Socket's connect, ServerSocket's accept and DatagramSocket's send and receive go (and
 * the completion of a connecting Socket constructor), so that the transformer knows them as
 * calls that can suspend: each method only calls the same method on the socket, which for pico-net's sockets is
 * rewritten code that suspends inside; like {@link StreamCalls}, these frames keep nothing across a suspension.
 */
@Rewritten({
    "connect(Ljava/net/Socket;Ljava/net/SocketAddress;)V",
    "connect(Ljava/net/Socket;Ljava/net/SocketAddress;I)V",
    "accept(Ljava/net/ServerSocket;)Ljava/net/Socket;",
    "finishConnect(Ljava/net/Socket;)V",
    "send(Ljava/net/DatagramSocket;Ljava/net/DatagramPacket;)V",
    "receive(Ljava/net/DatagramSocket;Ljava/net/DatagramPacket;)V"
})
public final class SocketCalls {
    private SocketCalls() {
    }

    /** {@code socket.connect(endpoint)}. */
    public static void connect(Socket socket, SocketAddress endpoint) throws IOException {
        socket.connect(endpoint);
    }

    /** {@code socket.connect(endpoint, timeout)}. */
    public static void connect(Socket socket, SocketAddress endpoint, int timeout) throws IOException {
        socket.connect(endpoint, timeout);
    }

    /**
     * Completes {@code new Socket(host, port)} and the other connecting constructors: rewritten code calls this on
     * the new socket right after its constructor, which only started the connect. A socket that is not a
     * {@link Connecting} one is left alone.
     */
    public static void finishConnect(Socket socket) throws IOException {
        if (socket instanceof Connecting) {
            ((Connecting) socket).finishConnecting();
        }
    }

    /** A socket whose connecting constructors start the connect and leave finishing it to {@link #finishConnect}. */
    public interface Connecting {
        /** Waits until the connect the constructor started has completed; throws as a failed connect does. */
        void finishConnecting() throws IOException;
    }

    /** {@code serverSocket.accept()}. */
    public static Socket accept(ServerSocket serverSocket) throws IOException {
        return serverSocket.accept();
    }

    /** {@code socket.send(packet)}. */
    public static void send(DatagramSocket socket, DatagramPacket packet) throws IOException {
        socket.send(packet);
    }

    /** {@code socket.receive(packet)}. */
    public static void receive(DatagramSocket socket, DatagramPacket packet) throws IOException {
        socket.receive(packet);
    }
}
