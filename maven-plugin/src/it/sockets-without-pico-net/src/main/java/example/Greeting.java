package example;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A thread that connects to a server socket on 127.0.0.1 and sends one line, which the calling thread accepts and
 * reads. Only the calling thread waits on a socket, so the program also works when the JDK's sockets block the
 * carrier thread of its PicoThread.
 */
public final class Greeting {
    private Greeting() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    /** The line the thread sent, naming the class of the thread that sent it. */
    public static String run() throws IOException, InterruptedException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 1, loopback)) {
            server.setSoTimeout(10_000);
            String[] failure = new String[1];
            Thread sender = new Thread(() -> {
                try (Socket socket = new Socket(loopback, server.getLocalPort())) {
                    OutputStream output = socket.getOutputStream();
                    output.write(("hello from " + Thread.currentThread().getClass().getName() + "\n")
                            .getBytes(StandardCharsets.UTF_8));
                    output.flush();
                } catch (IOException exception) {
                    failure[0] = exception.toString();
                }
            });
            sender.start();
            try (Socket accepted = server.accept()) {
                accepted.setSoTimeout(10_000);
                BufferedReader reader = new BufferedReader(new InputStreamReader(accepted.getInputStream(),
                        StandardCharsets.UTF_8));
                String line = reader.readLine();
                sender.join();
                return failure[0] == null ? line : failure[0];
            }
        }
    }
}
