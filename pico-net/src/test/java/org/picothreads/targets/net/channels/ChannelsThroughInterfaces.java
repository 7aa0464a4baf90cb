package org.picothreads.targets.net.channels;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.Channel;
import java.nio.channels.Channels;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * Blocking socket channels that a program also reaches through the channel interfaces ({@code ReadableByteChannel},
 * {@code WritableByteChannel}, {@code ByteChannel}, the scattering and gathering ones, {@code Channel},
 * {@code Closeable}, {@code AutoCloseable}) and through {@code Channels}' streams, readers and writers, after calls
 * through {@code SocketChannel} itself: a blocking read
 * through an interface waits for bytes and never returns 0, a blocking write through one writes the whole buffer, a
 * stream, reader or writer over the channel reads and writes, and a close through an interface ends a read blocked on
 * the channel. A thread still blocked after five seconds is reported.
 */
public class ChannelsThroughInterfaces {
    private static final long PATIENCE_MILLIS = 5_000;
    private static final int CHUNK = 100;
    private static final int CHUNKS = 3;

    public static String run() throws Exception {
        return reads() + "\n" + writes() + "\n" + streams() + "\n" + readers() + "\n" + socketStreams() + "\n"
                + close();
    }

    private static ServerSocketChannel server() throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 4);
        return server;
    }

    /**
     * A reader greets its peer through SocketChannel, then reads {@value #CHUNKS} chunks that the peer writes apart
     * through a ReadableByteChannel, a ByteChannel and a ScatteringByteChannel, counting the reads that return 0.
     */
    private static String reads() throws Exception {
        try (ServerSocketChannel server = server();
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            String[] outcome = new String[1];
            Thread reader = new Thread(() -> outcome[0] = readChunks(client), "reader");
            reader.start();
            ByteBuffer greeting = ByteBuffer.allocate(1);
            while (greeting.hasRemaining() && peer.read(greeting) >= 0) {
                // the reader's greeting: its channel has been used through SocketChannel
            }
            for (int chunk = 0; chunk < CHUNKS; chunk++) {
                Thread.sleep(100);
                WritableByteChannel out = peer;
                out.write(ByteBuffer.wrap(filled(CHUNK, chunk)));
            }
            return "reads: " + outcome(reader, outcome);
        }
    }

    private static String readChunks(SocketChannel channel) {
        try {
            channel.write(ByteBuffer.wrap(new byte[] {1}));
            ReadableByteChannel readable = channel;
            ByteChannel bytes = channel;
            ScatteringByteChannel scattering = channel;
            int zeros = 0;
            long sum = 0;
            StringBuilder counts = new StringBuilder();
            for (int chunk = 0; chunk < CHUNKS; chunk++) {
                ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
                while (buffer.hasRemaining()) {
                    long count = switch (chunk) {
                        case 0 -> readable.read(buffer);
                        case 1 -> bytes.read(buffer);
                        default -> scattering.read(new ByteBuffer[] {buffer});
                    };
                    if (count == 0) {
                        zeros++;
                    } else if (count < 0) {
                        return "end of stream in chunk " + chunk;
                    }
                }
                for (byte value : buffer.array()) {
                    sum += value;
                }
                counts.append(chunk == 0 ? "" : " ").append(buffer.position());
            }
            return "chunks " + counts + ", sum " + sum + ", reads that returned 0: " + zeros;
        } catch (IOException e) {
            return e.toString();
        }
    }

    /**
     * A writer greets its peer through SocketChannel, then writes 1 MB through a WritableByteChannel and 1 MB through a
     * GatheringByteChannel, each in one call, to a peer that starts reading 200 ms later: a blocking write writes it
     * all. The writer then shuts its output down, and the peer reads to the end.
     */
    private static String writes() throws Exception {
        try (ServerSocketChannel server = server(); SocketChannel client = SocketChannel.open()) {
            client.setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            client.connect(server.getLocalAddress());
            try (SocketChannel peer = server.accept()) {
                String[] outcome = new String[1];
                Thread writer = new Thread(() -> outcome[0] = writeLarge(client), "writer");
                writer.start();
                Thread.sleep(200);
                ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
                long total = 0;
                while (true) {
                    buffer.clear();
                    int count = peer.read(buffer);
                    if (count < 0) {
                        break;
                    }
                    total += count;
                }
                return "writes: " + outcome(writer, outcome) + ", the peer read " + total;
            }
        }
    }

    private static String writeLarge(SocketChannel channel) {
        try {
            channel.write(ByteBuffer.wrap(new byte[] {1}));
            WritableByteChannel writable = channel;
            GatheringByteChannel gathering = channel;
            int plain = writable.write(ByteBuffer.allocate(1 << 20));
            ByteBuffer[] halves = {ByteBuffer.allocate(1 << 19), ByteBuffer.allocate(1 << 19)};
            long gathered = gathering.write(halves);
            channel.shutdownOutput();
            return "one write wrote " + plain + ", one gathering write wrote " + gathered;
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Channels.newInputStream and newOutputStream over channels used through SocketChannel before. */
    private static String streams() throws Exception {
        try (ServerSocketChannel server = server();
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            String[] outcome = new String[1];
            Thread reader = new Thread(() -> outcome[0] = readStream(client), "stream-reader");
            reader.start();
            peer.write(ByteBuffer.wrap(new byte[] {7}));
            Thread.sleep(100);
            try {
                OutputStream out = Channels.newOutputStream(peer);
                out.write(filled(CHUNK, 3));
                out.flush();
            } catch (RuntimeException | IOException e) {
                return "streams: writing " + e;
            }
            return "streams: " + outcome(reader, outcome);
        }
    }

    private static String readStream(SocketChannel channel) {
        try {
            ByteBuffer first = ByteBuffer.allocate(1);
            channel.read(first);
            InputStream in = Channels.newInputStream(channel);
            byte[] head = in.readNBytes(40);
            int available = in.available();
            byte[] tail = in.readNBytes(CHUNK - head.length);
            long sum = 0;
            for (byte value : head) {
                sum += value;
            }
            for (byte value : tail) {
                sum += value;
            }
            return "first byte " + first.get(0) + ", then " + (head.length + tail.length) + " bytes summing to " + sum
                    + ", " + available + " available after the first " + head.length;
        } catch (RuntimeException | IOException e) {
            return e.toString();
        }
    }

    /** Channels.newReader and newWriter over channels used through SocketChannel before: lines written apart. */
    private static String readers() throws Exception {
        try (ServerSocketChannel server = server();
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            String[] outcome = new String[1];
            Thread reader = new Thread(() -> outcome[0] = readLines(client), "line-reader");
            reader.start();
            peer.write(ByteBuffer.wrap(new byte[] {7}));
            try {
                PrintWriter out = new PrintWriter(Channels.newWriter(peer, "UTF-8"));
                for (int line = 0; line < 3; line++) {
                    Thread.sleep(50);
                    out.println("line " + line + " \u00e9\u4e2d");
                    out.flush();
                }
            } catch (RuntimeException e) {
                return "readers: writing " + e;
            }
            return "readers: " + outcome(reader, outcome);
        }
    }

    /** The streams of a SocketChannel's socket, over channels used through SocketChannel before, with SO_TIMEOUT. */
    private static String socketStreams() throws Exception {
        try (ServerSocketChannel server = server();
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            String[] outcome = new String[1];
            Thread reader = new Thread(() -> outcome[0] = readSocketStream(client), "socket-stream-reader");
            reader.start();
            peer.write(ByteBuffer.wrap(new byte[] {7}));
            try {
                OutputStream out = peer.socket().getOutputStream();
                for (int chunk = 0; chunk < 2; chunk++) {
                    Thread.sleep(50);
                    out.write(filled(CHUNK, chunk));
                }
            } catch (RuntimeException | IOException e) {
                return "socket streams: writing " + e;
            }
            return "socket streams: " + outcome(reader, outcome);
        }
    }

    private static String readSocketStream(SocketChannel channel) {
        try {
            channel.read(ByteBuffer.allocate(1));
            Socket socket = channel.socket();
            socket.setSoTimeout(5_000);
            InputStream in = socket.getInputStream();
            byte[] both = in.readNBytes(2 * CHUNK);
            long sum = 0;
            for (byte value : both) {
                sum += value;
            }
            socket.setSoTimeout(200);
            String last;
            try {
                last = "read " + in.read();
            } catch (SocketTimeoutException e) {
                last = e.getMessage();
            }
            return both.length + " bytes summing to " + sum + ", then " + last + ", " + in.available() + " available";
        } catch (RuntimeException | IOException e) {
            return e.toString();
        }
    }

    private static String readLines(SocketChannel channel) {
        try {
            channel.read(ByteBuffer.allocate(1));
            BufferedReader in = new BufferedReader(Channels.newReader(channel, StandardCharsets.UTF_8));
            StringBuilder lines = new StringBuilder();
            for (int line = 0; line < 3; line++) {
                lines.append(line == 0 ? "" : " | ").append(in.readLine());
            }
            return lines.toString();
        } catch (RuntimeException | IOException e) {
            return e.toString();
        }
    }

    /**
     * A thread reads a channel through SocketChannel while its peer is silent; another closes the channel through
     * Channel, then one more through ByteChannel, Closeable and AutoCloseable: each read ends with
     * AsynchronousCloseException.
     */
    private static String close() throws Exception {
        return "close through Channel: " + closeUnderReader(0) + "; through ByteChannel: " + closeUnderReader(1)
                + "; through Closeable: " + closeUnderReader(2) + "; through AutoCloseable: " + closeUnderReader(3);
    }

    private static String closeUnderReader(int through) throws Exception {
        try (ServerSocketChannel server = server();
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            String[] outcome = new String[1];
            Thread reader = new Thread(() -> {
                try {
                    outcome[0] = "read " + client.read(ByteBuffer.allocate(16));
                } catch (IOException e) {
                    outcome[0] = e.getClass().getSimpleName();
                }
            }, "silent-reader");
            reader.start();
            Thread.sleep(100);
            switch (through) {
                case 0 -> {
                    Channel channel = client;
                    channel.close();
                }
                case 1 -> {
                    ByteChannel bytes = client;
                    bytes.close();
                }
                case 2 -> closeQuietly(client);
                default -> {
                    try (AutoCloseable closing = client) {
                        reader.join(10);
                    }
                }
            }
            return outcome(reader, outcome);
        }
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // as a helper of this kind does
        }
    }

    private static byte[] filled(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int index = 0; index < length; index++) {
            bytes[index] = (byte) (seed * 31 + index);
        }
        return bytes;
    }

    /** The thread's outcome once it has ended, or that it is still blocked after {@link #PATIENCE_MILLIS}. */
    private static String outcome(Thread thread, String[] outcome) throws InterruptedException {
        thread.join(PATIENCE_MILLIS);
        return thread.isAlive() ? "still blocked" : outcome[0];
    }
}
