package org.picothreads.targets.net.states;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * What a thread sees of stream sockets on 127.0.0.1 as they are created, connected, shut down and closed: their
 * state and addresses (a closed socket or server socket keeps answering that it was bound, its local port and its
 * peer; a stream that read the end of stream keeps answering -1 once the socket is closed), and what each call on
 * an unconnected, a closed or a connected socket throws.
 */
public class StreamSocketStates {
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
        Socket unconnected = new Socket();
        lines.append("unconnected: ").append(state(unconnected)).append('\n');
        attempt(lines, "unconnected getInputStream", unconnected::getInputStream);
        attempt(lines, "unconnected getOutputStream", unconnected::getOutputStream);
        attempt(lines, "unconnected shutdownInput", () -> {
            unconnected.shutdownInput();
            return "returned";
        });
        attempt(lines, "unconnected getSoTimeout", unconnected::getSoTimeout);
        unconnected.close();
        lines.append("unconnected, closed: ").append(state(unconnected)).append('\n');
        attempt(lines, "closed connect", () -> {
            unconnected.connect(new InetSocketAddress(loopback, 9));
            return "returned";
        });
        attempt(lines, "closed bind", () -> {
            unconnected.bind(null);
            return "returned";
        });
        ServerSocket unboundServer = new ServerSocket();
        lines.append("server, unbound: ").append(state(unboundServer)).append('\n');
        attempt(lines, "unbound accept", unboundServer::accept);
        unboundServer.close();
        attempt(lines, "closed accept", unboundServer::accept);
        ServerSocket closedServer = new ServerSocket(0, 1, loopback);
        closedServer.close();
        lines.append("server, closed: ").append(state(closedServer)).append('\n');
        try (ServerSocket server = new ServerSocket(0, 5, loopback)) {
            lines.append("server: ").append(state(server)).append('\n');
            Socket client = new Socket(loopback, server.getLocalPort());
            Socket accepted = server.accept();
            lines.append("client: ").append(state(client)).append('\n');
            lines.append("accepted: ").append(state(accepted)).append('\n');
            client.shutdownOutput();
            lines.append("client, output shut down: ").append(state(client)).append('\n');
            attempt(lines, "write after shutdownOutput", () -> {
                client.getOutputStream().write(1);
                return "returned";
            });
            attempt(lines, "shutdownOutput twice", () -> {
                client.shutdownOutput();
                return "returned";
            });
            InputStream acceptedInput = accepted.getInputStream();
            attempt(lines, "read at the end of stream", acceptedInput::read);
            client.shutdownInput();
            attempt(lines, "read after shutdownInput", () -> client.getInputStream().read());
            attempt(lines, "shutdownInput twice", () -> {
                client.shutdownInput();
                return "returned";
            });
            lines.append("client, both shut down: ").append(state(client)).append('\n');
            accepted.close();
            lines.append("accepted, closed: ").append(state(accepted)).append('\n');
            attempt(lines, "closed getInputStream", accepted::getInputStream);
            attempt(lines, "read after the end of stream and close", acceptedInput::read);
            attempt(lines, "closed setTcpNoDelay", () -> {
                accepted.setTcpNoDelay(true);
                return "returned";
            });
            attempt(lines, "connect twice", () -> {
                client.connect(new InetSocketAddress(loopback, server.getLocalPort()));
                return "returned";
            });
            attempt(lines, "bind a connected socket", () -> {
                client.bind(null);
                return "returned";
            });
            client.close();
            try (Socket writer = new Socket(loopback, server.getLocalPort()); Socket reader = server.accept()) {
                writer.getOutputStream().write(new byte[] {1, 2});
                InputStream input = reader.getInputStream();
                attempt(lines, "read one of two bytes", input::read);
                attempt(lines, "read the other", input::read);
                Thread late = new Thread(() -> {
                    try {
                        Thread.sleep(20);
                        writer.getOutputStream().write(new byte[] {3, 4});
                    } catch (Exception e) {
                        lines.append("late writer failed: ").append(e).append('\n');
                    }
                });
                late.start();
                attempt(lines, "read one of two more, written later", input::read);
                late.join();
                reader.close();
                attempt(lines, "read after close with a byte left", input::read);
            }
            attempt(lines, "connect with a negative timeout", () -> {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(loopback, 9), -1);
                }
                return "returned";
            });
            attempt(lines, "connect to an unresolved address", () -> {
                try (Socket socket = new Socket()) {
                    socket.connect(InetSocketAddress.createUnresolved("nowhere.invalid", 80));
                }
                return "returned";
            });
            attempt(lines, "setSoTimeout(-1)", () -> {
                try (Socket socket = new Socket()) {
                    socket.setSoTimeout(-1);
                }
                return "returned";
            });
        }
    }

    private static String state(Socket socket) {
        return "bound " + socket.isBound() + ", connected " + socket.isConnected() + ", closed " + socket.isClosed()
                + ", input shut down " + socket.isInputShutdown() + ", output shut down "
                + socket.isOutputShutdown() + ", local address " + socket.getLocalAddress() + ", local port "
                + port(socket.getLocalPort()) + ", has local socket address "
                + (socket.getLocalSocketAddress() != null) + ", remote " + socket.getInetAddress() + ", remote port "
                + port(socket.getPort()) + ", has remote socket address " + (socket.getRemoteSocketAddress() != null);
    }

    private static String state(ServerSocket server) {
        return "bound " + server.isBound() + ", closed " + server.isClosed() + ", address " + server.getInetAddress()
                + ", port " + port(server.getLocalPort()) + ", has local socket address "
                + (server.getLocalSocketAddress() != null);
    }

    /** An ephemeral port as a word, so that the lines are the same in every run; 0 and -1 as they are. */
    private static String port(int port) {
        return port > 0 ? "ephemeral" : String.valueOf(port);
    }

    private interface Call {
        Object run() throws Exception;
    }

    private static void attempt(StringBuilder lines, String name, Call call) {
        try {
            Object result = call.run();
            boolean stream = result instanceof InputStream || result instanceof OutputStream;
            lines.append(name).append(": ").append(stream ? "a stream" : result).append('\n');
        } catch (Exception e) {
            lines.append(name).append(": ").append(e).append('\n');
        }
    }
}
