package org.picothreads.targets.net.channels;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.zip.CRC32;

/**
 * Scattering reads and gathering writes over blocking socket channels, one thread per connection: each client
 * sends a 4-byte length and a body with one gathering write, the server reads both with scattering reads and sends
 * them back the same way. The last client's body is 6 MB, more than the socket buffers hold, so its gathering
 * write and the server's have to wait for the other side to read.
 */
public class ScatterGatherEcho {
    private static final int CONNECTIONS = 20;
    private static final int LARGEST = 6 << 20;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(loopback, 0), CONNECTIONS);
            InetSocketAddress address = (InetSocketAddress) server.getLocalAddress();
            Thread acceptor = new Thread(() -> acceptAll(server));
            acceptor.start();
            String[] replies = new String[CONNECTIONS];
            Thread[] clients = new Thread[CONNECTIONS];
            for (int index = 0; index < CONNECTIONS; index++) {
                int number = index;
                clients[index] = new Thread(() -> replies[number] = call(address, number));
                clients[index].start();
            }
            for (Thread client : clients) {
                client.join();
            }
            acceptor.join();
            return String.join("\n", replies);
        }
    }

    private static int sizeOf(int number) {
        return number == CONNECTIONS - 1 ? LARGEST : 1 + number * 997;
    }

    private static void acceptAll(ServerSocketChannel server) {
        try {
            for (int index = 0; index < CONNECTIONS; index++) {
                SocketChannel connection = server.accept();
                new Thread(() -> serve(connection)).start();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads the length with the first bytes of the body in one scattering read, the rest likewise, and echoes. */
    private static void serve(SocketChannel connection) {
        try (SocketChannel channel = connection) {
            ByteBuffer header = ByteBuffer.allocate(4);
            ByteBuffer[] first = {header, ByteBuffer.allocate(0)};
            while (header.hasRemaining()) {
                if (channel.read(first) < 0) {
                    return;
                }
            }
            header.flip();
            ByteBuffer body = ByteBuffer.allocate(header.getInt(0));
            ByteBuffer[] both = {header, body};
            while (body.hasRemaining()) {
                if (channel.read(both, 1, 1) < 0) {
                    throw new IOException("end of stream inside a body");
                }
            }
            body.flip();
            channel.write(both);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String call(InetSocketAddress address, int number) {
        try (SocketChannel channel = SocketChannel.open(address)) {
            int size = sizeOf(number);
            ByteBuffer body = ByteBuffer.allocate(size);
            for (int index = 0; index < size; index++) {
                body.put((byte) (index * 31 + number));
            }
            body.flip();
            CRC32 sent = new CRC32();
            sent.update(body.duplicate());
            ByteBuffer header = ByteBuffer.allocate(4).putInt(0, size);
            long written = channel.write(new ByteBuffer[] {header, body});
            ByteBuffer echoedHeader = ByteBuffer.allocate(4);
            ByteBuffer echoedBody = ByteBuffer.allocate(size);
            ByteBuffer[] echoed = {echoedHeader, echoedBody};
            long read = 0;
            while (echoedBody.hasRemaining()) {
                long count = channel.read(echoed, 0, 2);
                if (count < 0) {
                    break;
                }
                read += count;
            }
            echoedBody.flip();
            CRC32 received = new CRC32();
            received.update(echoedBody);
            return "client " + number + ": wrote " + written + ", read " + read + ", length echoed "
                    + echoedHeader.getInt(0) + ", checksums equal " + (sent.getValue() == received.getValue());
        } catch (IOException e) {
            return "client " + number + " failed: " + e;
        }
    }
}
