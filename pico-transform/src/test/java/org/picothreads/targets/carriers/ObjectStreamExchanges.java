package org.picothreads.targets.carriers;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Two request/reply exchanges with {@code ObjectOutputStream} and {@code ObjectInputStream} over in-memory pipes,
 * each a blocking queue of byte chunks read by the program's own stream: a read that waits for bytes runs under
 * {@code ObjectInputStream}'s frames, which cannot be captured. The first client waits for its reply first; the
 * second client waits next, and its server replies only once the first client has its reply. If waits could only
 * return in the order opposite to the one they began in, the second client would wait forever for the first; here
 * every read gives up after {@link #READ_LIMIT_SECONDS} so that the program ends either way, and says so.
 */
public final class ObjectStreamExchanges {
    /** How long a read waits for bytes before it fails. */
    private static final long READ_LIMIT_SECONDS = 10;

    private ObjectStreamExchanges() {
    }

    /** One direction of a connection: chunks written at one end are read, in order, at the other. */
    private static final class Pipe {
        /** The chunks written and not read yet; an empty chunk marks the end. */
        private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();

        InputStream input() {
            return new PipeInput(chunks);
        }

        OutputStream output() {
            return new PipeOutput(chunks);
        }
    }

    /** The reading end of a {@link Pipe}. */
    private static final class PipeInput extends InputStream {
        private final BlockingQueue<byte[]> chunks;
        /** The chunk being read, or null before the first. */
        private byte[] current;
        /** The next byte of {@link #current} to read. */
        private int position;

        PipeInput(BlockingQueue<byte[]> chunks) {
            this.chunks = chunks;
        }

        @Override
        public int read() throws IOException {
            if (!fill()) {
                return -1;
            }
            return current[position++] & 0xff;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int count = Math.min(length, current.length - position);
            System.arraycopy(current, position, bytes, offset, count);
            position += count;
            return count;
        }

        /** Waits for unread bytes; false at the end of the pipe. */
        private boolean fill() throws IOException {
            while (current == null || position == current.length) {
                if (current != null && current.length == 0) {
                    return false;
                }
                byte[] next;
                try {
                    next = chunks.poll(READ_LIMIT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException exception) {
                    throw new InterruptedIOException("interrupted while waiting for bytes");
                }
                if (next == null) {
                    throw new IOException("no bytes within " + READ_LIMIT_SECONDS + " s");
                }
                current = next;
                position = 0;
            }
            return true;
        }
    }

    /** The writing end of a {@link Pipe}. */
    private static final class PipeOutput extends OutputStream {
        private final BlockingQueue<byte[]> chunks;

        PipeOutput(BlockingQueue<byte[]> chunks) {
            this.chunks = chunks;
        }

        @Override
        public void write(int value) {
            chunks.add(new byte[] {(byte) value});
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            if (length > 0) {
                chunks.add(Arrays.copyOfRange(bytes, offset, offset + length));
            }
        }

        @Override
        public void close() {
            chunks.add(new byte[0]);
        }
    }

    public static String run() throws Exception {
        Pipe[] requests = {new Pipe(), new Pipe()};
        Pipe[] replies = {new Pipe(), new Pipe()};
        CountDownLatch firstReplied = new CountDownLatch(1);
        String[] outcomes = new String[4];

        Thread firstClient = new Thread(() -> {
            outcomes[0] = exchange(1, requests[0], replies[0]);
            firstReplied.countDown();
        });
        Thread secondClient = new Thread(() -> {
            Pause.sleep(20);
            outcomes[1] = exchange(2, requests[1], replies[1]);
        });
        Thread firstServer = new Thread(() -> outcomes[2] = serve(1, requests[0], replies[0], null));
        Thread secondServer = new Thread(() -> outcomes[3] = serve(2, requests[1], replies[1], firstReplied));
        Pause.startAndJoin(firstClient, secondClient, firstServer, secondServer);
        return String.join("\n", outcomes);
    }

    /** Sends one request and reads the reply; returns what happened. */
    private static String exchange(int number, Pipe request, Pipe reply) {
        try (ObjectOutputStream out = new ObjectOutputStream(request.output())) {
            out.writeObject("ping " + number);
            out.flush();
            try (ObjectInputStream in = new ObjectInputStream(reply.input())) {
                return "client " + number + " got " + in.readObject();
            }
        } catch (IOException | ClassNotFoundException exception) {
            return "client " + number + " failed: " + exception;
        }
    }

    /**
     * Reads one request, sleeps (so that its client is waiting by then), waits for {@code before} when there is
     * one, and replies; returns what happened.
     */
    private static String serve(int number, Pipe request, Pipe reply, CountDownLatch before) {
        try (ObjectOutputStream out = new ObjectOutputStream(reply.output())) {
            out.flush();
            try (ObjectInputStream in = new ObjectInputStream(request.input())) {
                Object received = in.readObject();
                Pause.sleep(50);
                if (before != null && !before.await(READ_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                    return "server " + number + " gave up waiting for the first exchange";
                }
                out.writeObject("pong " + number + " for " + received);
                out.flush();
                return "server " + number + " answered " + received;
            }
        } catch (IOException | ClassNotFoundException | InterruptedException exception) {
            return "server " + number + " failed: " + exception;
        }
    }
}
