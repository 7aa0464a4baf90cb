package org.picothreads.targets.net.replies;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Clients that first exchange short requests and replies with a server, so that each read of a reply comes right after
 * a short read and finds nothing yet, and then read what the server sends without being asked: messages already
 * there when the client reads, in single bytes and arrays; a read with a timeout and nothing sent, then three bytes;
 * the last bytes and the end of stream. One more client waits in a read, after such an exchange, until another thread
 * closes its socket, and one shuts its input down after such an exchange and reads. Each client reports what it read.
 * Every read is made by a started thread (a PicoThread once rewritten).
 */
public class RepliesThenBursts {
    private static final int CLIENTS = 6;
    private static final int ROUNDS = 120;
    private static final int REQUEST_SIZE = 16;
    private static final int MESSAGES = 30;
    private static final int MESSAGE_SIZE = 100;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        StringBuilder result = new StringBuilder();
        try (ServerSocket server = new ServerSocket(0, CLIENTS + 2, loopback)) {
            Thread acceptor = new Thread(() -> serveAll(server), "acceptor");
            acceptor.start();
            String[] received = new String[CLIENTS];
            Thread[] clients = new Thread[CLIENTS];
            for (int index = 0; index < CLIENTS; index++) {
                int number = index;
                clients[index] = new Thread(() -> received[number] = client(loopback, server.getLocalPort(), number));
                clients[index].start();
            }
            for (Thread client : clients) {
                client.join();
            }
            acceptor.join();
            result.append(String.join("\n", received));
        }
        result.append('\n').append(inThread(() -> closedWhileWaiting(loopback)));
        result.append('\n').append(inThread(() -> inputShutDown(loopback)));
        return result.toString();
    }

    /** What {@code part} returns, called in a thread of its own; what it throws, wrapped. */
    private static <T> T inThread(Callable<T> part) throws Exception {
        List<T> outcome = new ArrayList<>();
        Exception[] failure = new Exception[1];
        Thread thread = new Thread(() -> {
            try {
                outcome.add(part.call());
            } catch (Exception e) {
                failure[0] = e;
            }
        });
        thread.start();
        thread.join();
        if (failure[0] != null) {
            throw new IllegalStateException("failed in its thread", failure[0]);
        }
        return outcome.get(0);
    }

    /**
     * The input stream of a client thread's socket after {@code rounds} requests and replies with a server thread, the
     * socket closed: for a test that reads the stream's counters.
     */
    public static InputStream afterReplies(int rounds) throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 1, loopback)) {
            return inThread(() -> {
                try (Socket client = new Socket(loopback, server.getLocalPort()); Socket served = server.accept()) {
                    exchangeWithReplier(client, served, 0, rounds);
                    return client.getInputStream();
                }
            });
        }
    }

    private static void serveAll(ServerSocket server) {
        try {
            Thread[] servers = new Thread[CLIENTS];
            for (int index = 0; index < CLIENTS; index++) {
                Socket served = server.accept();
                servers[index] = new Thread(() -> serve(served));
                servers[index].start();
            }
            for (Thread served : servers) {
                served.join();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Answers ROUNDS requests, then sends unasked: messages in pairs with pauses, three bytes late, five and the end. */
    private static void serve(Socket served) {
        try (served) {
            reply(served, ROUNDS);
            OutputStream out = served.getOutputStream();
            byte[] message = new byte[MESSAGE_SIZE];
            for (int index = 0; index < MESSAGES; index++) {
                for (int position = 0; position < MESSAGE_SIZE; position++) {
                    message[position] = (byte) (index * 17 + position);
                }
                out.write(message);
                out.flush();
                if (index % 2 == 1) {
                    Thread.sleep(2);
                }
            }
            InputStream in = served.getInputStream();
            if (in.read() != 'T') { // the client's read with nothing sent has timed out
                throw new IOException("no signal after the timeout");
            }
            out.write(new byte[] {5, 6, 7});
            out.flush();
            if (in.read() != 'E') {
                throw new IOException("no signal before the end");
            }
            out.write(new byte[] {1, 2, 3, 4, 5});
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Makes {@code rounds} requests from {@code client} (numbered {@code number}), answered by a thread of their own
     * serving {@code served}; the sum of the replies' first bytes.
     */
    private static long exchangeWithReplier(Socket client, Socket served, int number, int rounds) throws Exception {
        Thread replier = new Thread(() -> {
            try {
                reply(served, rounds);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        replier.start();
        long replies = exchange(client, number, rounds);
        replier.join();
        return replies;
    }

    /** Reads {@code rounds} requests and writes each back, its first byte incremented. */
    private static void reply(Socket served, int rounds) throws IOException {
        InputStream in = served.getInputStream();
        OutputStream out = served.getOutputStream();
        byte[] request = new byte[REQUEST_SIZE];
        for (int round = 0; round < rounds; round++) {
            readFully(in, request);
            request[0]++;
            out.write(request);
            out.flush();
        }
    }

    /** Sends {@code rounds} requests, each read back before the next; the sum of the replies' first bytes. */
    private static long exchange(Socket socket, int client, int rounds) throws IOException {
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        byte[] request = new byte[REQUEST_SIZE];
        byte[] reply = new byte[REQUEST_SIZE];
        long sum = 0;
        for (int round = 0; round < rounds; round++) {
            request[0] = (byte) round;
            request[REQUEST_SIZE - 1] = (byte) client;
            out.write(request);
            out.flush();
            readFully(in, reply);
            if (reply[0] != (byte) (round + 1) || reply[REQUEST_SIZE - 1] != (byte) client) {
                throw new IOException("bad reply to client " + client + " in round " + round);
            }
            sum += reply[0];
        }
        return sum;
    }

    private static String client(InetAddress address, int port, int client) {
        try (Socket socket = new Socket(address, port)) {
            long replies = exchange(socket, client, ROUNDS);
            InputStream in = socket.getInputStream();
            long checksum = 0;
            int total = 0;
            byte[] bytes = new byte[MESSAGE_SIZE];
            while (total < MESSAGES * MESSAGE_SIZE) {
                Thread.sleep(total % 700 == 0 ? 3 : 0); // let messages arrive before some of the reads
                if ((total / MESSAGE_SIZE + client) % 3 == 0) {
                    int value = in.read();
                    checksum = checksum * 31 + value;
                    total++;
                } else {
                    int count = in.read(bytes, 0, Math.min(bytes.length, MESSAGES * MESSAGE_SIZE - total));
                    for (int index = 0; index < count; index++) {
                        checksum = checksum * 31 + (bytes[index] & 0xff);
                    }
                    total += count;
                }
            }
            socket.setSoTimeout(40);
            String timedOut;
            try {
                timedOut = "read " + in.read(bytes);
            } catch (SocketTimeoutException e) {
                timedOut = e.getMessage();
            }
            OutputStream out = socket.getOutputStream();
            out.write('T');
            out.flush();
            int late = in.read(bytes);
            String lateBytes = late + " bytes " + bytes[0] + "," + bytes[1] + "," + bytes[2];
            socket.setSoTimeout(0);
            out.write('E');
            out.flush();
            int last = in.read(bytes);
            return "client " + client + ": replies " + replies + ", " + total + " bytes unasked, checksum " + checksum
                    + "; nothing sent: " + timedOut + "; then " + lateBytes + "; last " + last + " bytes, then "
                    + in.read() + " and " + in.read(bytes);
        } catch (Exception e) {
            return "client " + client + " failed: " + e;
        }
    }

    /** What a client does after eight requests and replies, told the sum of the replies' first bytes. */
    private interface AfterReplies {
        String then(Socket client, long replies) throws Exception;
    }

    /** A connection of its own whose client, numbered {@code number}, makes eight requests, then does {@code next}. */
    private static String afterEightReplies(InetAddress loopback, int number, AfterReplies next) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, loopback);
                Socket client = new Socket(loopback, server.getLocalPort());
                Socket served = server.accept()) {
            return next.then(client, exchangeWithReplier(client, served, number, 8));
        }
    }

    /** A client waiting for a reply that never comes, after a few that came, is closed by another thread. */
    private static String closedWhileWaiting(InetAddress loopback) throws Exception {
        return afterEightReplies(loopback, 7, (client, replies) -> {
            Thread closer = new Thread(() -> {
                try {
                    Thread.sleep(30);
                    client.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            closer.start();
            String outcome;
            try {
                outcome = "read " + client.getInputStream().read(new byte[REQUEST_SIZE]);
            } catch (SocketException e) {
                outcome = e.getMessage();
            }
            closer.join();
            return "closed while waiting, after replies " + replies + ": " + outcome;
        });
    }

    /** A client shuts its input down after a few replies, and reads. */
    private static String inputShutDown(InetAddress loopback) throws Exception {
        return afterEightReplies(loopback, 8, (client, replies) -> {
            InputStream in = client.getInputStream();
            client.shutdownInput();
            return "input shut down after replies " + replies + ": " + in.read() + ", " + in.read(new byte[4]);
        });
    }

    private static void readFully(InputStream in, byte[] buffer) throws IOException {
        int filled = 0;
        while (filled < buffer.length) {
            int count = in.read(buffer, filled, buffer.length - filled);
            if (count < 0) {
                throw new IOException("end of stream after " + filled + " bytes");
            }
            filled += count;
        }
    }
}
