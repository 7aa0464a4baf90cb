package org.picothreads.benchmarks.pico;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Item 5, the PicoThread side: loopback echo written as plain thread-per-connection {@code java.net} code that
 * pico-maven-plugin rewrites, so every thread is a PicoThread and every socket a pico-net socket whose blocking
 * calls suspend on the carrier's selector. {@code org.picothreads.benchmarks.jdk.JdkEcho} holds the same code, not
 * rewritten, for virtual and platform threads; keep the two in step.
 */
public final class PicoEcho {

    /** Bytes per message. */
    public static final int MESSAGE_SIZE = 64;

    /** At most this many connects wait to be accepted at once, well under the kernel's accept queue (somaxconn). */
    static final int PENDING_CONNECTS = 1_000;

    private PicoEcho() {
    }

    /**
     * Opens a server socket on 127.0.0.1 whose accept loop starts one thread per connection echoing
     * {@value #MESSAGE_SIZE}-byte messages until end of stream, and {@code connections} client threads that each
     * connect and make {@code rounds} round trips (write a message, read the echo back whole), then close. Returns
     * when every client and server thread has ended; throws what any of them threw.
     */
    public static void run(int connections, int rounds) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread root = start(() -> {
            try {
                echoRun(connections, rounds, failure);
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        });
        root.join();
        Throwable thrown = failure.get();
        if (thrown != null) {
            throw new IllegalStateException("echo run failed", thrown);
        }
    }

    static void echoRun(int connections, int rounds, AtomicReference<Throwable> failure)
            throws IOException, InterruptedException {
        Semaphore pending = new Semaphore(Math.min(connections, PENDING_CONNECTS));
        Thread[] handlers = new Thread[connections];
        try (ServerSocket server = new ServerSocket(0, Math.min(connections, PENDING_CONNECTS) + 16,
                InetAddress.getLoopbackAddress())) {
            int port = server.getLocalPort();
            Thread acceptor = start(() -> {
                try {
                    for (int index = 0; index < connections; index++) {
                        Socket socket = server.accept();
                        pending.release();
                        handlers[index] = start(() -> guard(failure, () -> echo(socket)));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    pending.release(connections);
                }
            });
            Thread[] clients = new Thread[connections];
            for (int index = 0; index < connections; index++) {
                int client = index;
                clients[index] = start(() -> guard(failure, () -> {
                    pending.acquire();
                    exchange(port, client, rounds);
                }));
            }
            for (Thread client : clients) {
                client.join();
            }
            acceptor.join();
        }
        for (Thread handler : handlers) {
            if (handler != null) {
                handler.join();
            }
        }
    }

    /** The server side of one connection: reads whole messages and writes each back until the client closes. */
    static void echo(Socket socket) throws IOException {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] message = new byte[MESSAGE_SIZE];
            while (readFully(in, message)) {
                out.write(message, 0, MESSAGE_SIZE);
            }
        }
    }

    /** The client side: connects, makes {@code rounds} round trips, checks each echo, closes. */
    static void exchange(int port, int client, int rounds) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] message = new byte[MESSAGE_SIZE];
            byte[] echoed = new byte[MESSAGE_SIZE];
            for (int round = 0; round < rounds; round++) {
                message[0] = (byte) round;
                message[MESSAGE_SIZE - 1] = (byte) client;
                out.write(message, 0, MESSAGE_SIZE);
                if (!readFully(in, echoed) || echoed[0] != message[0] || echoed[MESSAGE_SIZE - 1] != message[MESSAGE_SIZE - 1]) {
                    throw new IOException("bad echo on connection " + client + " round " + round);
                }
            }
        }
    }

    /** Fills {@code buffer}; false at end of stream before its first byte, an exception at end of stream inside it. */
    static boolean readFully(InputStream in, byte[] buffer) throws IOException {
        int filled = 0;
        while (filled < buffer.length) {
            int read = in.read(buffer, filled, buffer.length - filled);
            if (read < 0) {
                if (filled == 0) {
                    return false;
                }
                throw new IOException("end of stream inside a message");
            }
            filled += read;
        }
        return true;
    }

    static Thread start(Runnable task) {
        Thread thread = new Thread(task);
        thread.start();
        return thread;
    }

    interface Body {
        void run() throws Exception;
    }

    static void guard(AtomicReference<Throwable> failure, Body body) {
        try {
            body.run();
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }
}
