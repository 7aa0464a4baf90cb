package org.picothreads.targets.net.serverclose;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * What a program sees after {@code ServerSocket.close()} returns: a connect to the port is refused, an accept
 * blocked in another thread fails with "Socket closed", and the same port can be bound again at once; closed by
 * the main thread (a platform thread in the transformed run) and by a started thread (a PicoThread there).
 */
public class ServerSocketClose {
    private static volatile boolean accepting;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        List<String> outcomes = new ArrayList<>();
        closeByMainWhileAThreadAccepts(loopback, outcomes);
        Thread closer = new Thread(() -> {
            try {
                closeByAThreadAfterServingOneConnection(loopback, outcomes);
            } catch (Exception e) {
                outcomes.add("closing thread failed: " + e);
            }
        });
        closer.start();
        closer.join();
        return String.join("\n", outcomes);
    }

    private static void closeByMainWhileAThreadAccepts(InetAddress loopback, List<String> outcomes) throws Exception {
        ServerSocket server = new ServerSocket(0, 50, loopback);
        int port = server.getLocalPort();
        List<String> acceptOutcome = new ArrayList<>();
        accepting = false;
        Thread acceptor = new Thread(() -> {
            try {
                accepting = true;
                server.accept().close();
                acceptOutcome.add("accepted");
            } catch (IOException e) {
                acceptOutcome.add(describe(e));
            }
        });
        acceptor.start();
        while (!accepting) {
            Thread.sleep(10);
        }
        Thread.sleep(200);
        server.close();
        outcomes.add("main closed the server: closed " + server.isClosed());
        outcomes.add("connect after close: " + connect(loopback, port));
        acceptor.join();
        outcomes.add("blocked accept: " + acceptOutcome);
        outcomes.add("rebind after close: " + rebindAndServe(loopback, port));
    }

    private static void closeByAThreadAfterServingOneConnection(InetAddress loopback, List<String> outcomes)
            throws Exception {
        ServerSocket server = new ServerSocket(0, 50, loopback);
        int port = server.getLocalPort();
        Thread client = new Thread(() -> {
            try (Socket socket = new Socket(loopback, port)) {
                socket.getOutputStream().write(42);
            } catch (IOException e) {
                outcomes.add("client failed: " + describe(e));
            }
        });
        client.start();
        try (Socket accepted = server.accept()) {
            outcomes.add("thread served one connection, read " + accepted.getInputStream().read());
        }
        client.join();
        server.close();
        outcomes.add("thread closed the server: closed " + server.isClosed());
        outcomes.add("connect after close: " + connect(loopback, port));
        outcomes.add("accept after close: " + acceptAfterClose(server));
        outcomes.add("rebind after close: " + rebindAndServe(loopback, port));
        server.close();
        outcomes.add("second close: closed " + server.isClosed());
    }

    private static String connect(InetAddress loopback, int port) {
        try (Socket socket = new Socket(loopback, port)) {
            return "connected";
        } catch (IOException e) {
            return describe(e);
        }
    }

    private static String acceptAfterClose(ServerSocket server) {
        try {
            server.accept().close();
            return "accepted";
        } catch (IOException e) {
            return describe(e);
        }
    }

    /** Binds the same port again, then connects to it and reads a byte the new server sends. */
    private static String rebindAndServe(InetAddress loopback, int port) {
        try (ServerSocket again = new ServerSocket(port, 50, loopback)) {
            Thread server = new Thread(() -> {
                try (Socket accepted = again.accept()) {
                    accepted.getOutputStream().write(7);
                } catch (IOException e) {
                    System.err.println("rebound server failed: " + e);
                }
            });
            server.start();
            int read;
            try (Socket socket = new Socket(loopback, port)) {
                read = socket.getInputStream().read();
            }
            server.join();
            return "bound, same port " + (again.getLocalPort() == port) + ", read " + read;
        } catch (IOException | InterruptedException e) {
            return describe(e);
        }
    }

    private static String describe(Exception e) {
        return e.getClass().getName() + ": " + e.getMessage();
    }
}
