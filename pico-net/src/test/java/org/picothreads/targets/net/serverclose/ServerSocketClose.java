package org.picothreads.targets.net.serverclose;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * What a program sees after {@code ServerSocket.close()}: a connect to the port right after close returns is
 * refused, an accept blocked in another thread fails with "Socket closed", and the same port can be bound again at
 * once. The server is closed by the main thread (a platform thread in the transformed run) and by a started thread
 * (a PicoThread there), after it accepted a connection in another thread and while another thread accepts. With a
 * blocked accept, java.net's close races with the accepting thread's wake-up (a connect or bind meanwhile may still
 * find the port listening, and the connection be accepted), so those cases connect and bind again only once the
 * accepting thread has failed.
 */
public class ServerSocketClose {
    private static volatile boolean accepting;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        List<String> outcomes = new ArrayList<>();
        outcomes.add("main closes after a thread served a connection:");
        closeAfterAThreadServedAConnection(loopback, outcomes);
        outcomes.add("a thread closes after it served a connection:");
        inAThread(() -> closeAfterAThreadServedAConnection(loopback, outcomes), outcomes);
        outcomes.add("main closes while a thread accepts:");
        closeWhileAnotherThreadAccepts(loopback, outcomes);
        outcomes.add("a thread closes while main accepts:");
        closeByAThreadWhileMainAccepts(loopback, outcomes);
        return String.join("\n", outcomes);
    }

    /** A scenario that may fail with an exception. */
    interface Scenario {
        void run() throws Exception;
    }

    private static void inAThread(Scenario scenario, List<String> outcomes) throws InterruptedException {
        Thread thread = new Thread(() -> {
            try {
                scenario.run();
            } catch (Exception e) {
                outcomes.add("failed: " + e);
            }
        });
        thread.start();
        thread.join();
    }

    /** Another thread accepts one connection (waiting for it) and ends; then the caller closes and connects. */
    private static void closeAfterAThreadServedAConnection(InetAddress loopback, List<String> outcomes)
            throws Exception {
        ServerSocket server = new ServerSocket(0, 50, loopback);
        int port = server.getLocalPort();
        List<String> served = new ArrayList<>();
        accepting = false;
        Thread acceptor = new Thread(() -> {
            try {
                accepting = true;
                try (Socket accepted = server.accept()) {
                    served.add("read " + accepted.getInputStream().read());
                }
            } catch (IOException e) {
                served.add(describe(e));
            }
        });
        acceptor.start();
        awaitAccepting();
        try (Socket client = new Socket(loopback, port)) {
            client.getOutputStream().write(42);
        }
        acceptor.join();
        outcomes.add("  served: " + served);
        server.close();
        outcomes.add("  connect right after close: " + connect(loopback, port));
        outcomes.add("  accept after close: " + acceptAfterClose(server));
        outcomes.add("  rebind right after close: " + rebindAndServe(loopback, port));
        server.close();
        outcomes.add("  second close: closed " + server.isClosed());
    }

    private static void closeWhileAnotherThreadAccepts(InetAddress loopback, List<String> outcomes) throws Exception {
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
        awaitAccepting();
        Thread.sleep(200);
        server.close();
        acceptor.join();
        outcomes.add("  blocked accept: " + acceptOutcome);
        outcomes.add("  connect: " + connect(loopback, port));
        outcomes.add("  rebind: " + rebindAndServe(loopback, port));
    }

    private static void closeByAThreadWhileMainAccepts(InetAddress loopback, List<String> outcomes) throws Exception {
        ServerSocket server = new ServerSocket(0, 50, loopback);
        int port = server.getLocalPort();
        List<String> closerOutcome = new ArrayList<>();
        accepting = false;
        Thread closer = new Thread(() -> {
            try {
                awaitAccepting();
                Thread.sleep(200);
                server.close();
                closerOutcome.add("closed " + server.isClosed());
            } catch (Exception e) {
                closerOutcome.add("failed: " + e);
            }
        });
        closer.start();
        String acceptOutcome;
        try {
            accepting = true;
            server.accept().close();
            acceptOutcome = "accepted";
        } catch (IOException e) {
            acceptOutcome = describe(e);
        }
        closer.join();
        outcomes.add("  main's blocked accept: " + acceptOutcome);
        outcomes.add("  closing thread: " + closerOutcome);
        outcomes.add("  connect: " + connect(loopback, port));
        outcomes.add("  rebind: " + rebindAndServe(loopback, port));
    }

    private static void awaitAccepting() throws InterruptedException {
        while (!accepting) {
            Thread.sleep(10);
        }
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

    /** Binds the same port again, serves one connection that reads the byte it sends, and closes. */
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
