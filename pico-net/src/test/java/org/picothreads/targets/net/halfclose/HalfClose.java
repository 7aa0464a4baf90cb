package org.picothreads.targets.net.halfclose;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Half-close: the client sends its request and shuts its output down; the server reads to end of stream, answers,
 * and the client reads the answer to end of stream; then each side shuts its input down and reads again.
 */
public class HalfClose {
    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 50, loopback)) {
            String[] serverSide = new String[1];
            Thread serverThread = new Thread(() -> serverSide[0] = serve(server));
            serverThread.start();
            String clientSide;
            try (Socket socket = new Socket(loopback, server.getLocalPort())) {
                OutputStream out = socket.getOutputStream();
                out.write("a request in two parts, ".getBytes(StandardCharsets.US_ASCII));
                Thread.sleep(30);
                out.write("then end of stream".getBytes(StandardCharsets.US_ASCII));
                socket.shutdownOutput();
                String writeAfterShutdown;
                try {
                    out.write(1);
                    writeAfterShutdown = "written";
                } catch (IOException e) {
                    writeAfterShutdown = e.getClass().getName() + ": " + e.getMessage();
                }
                String answer = readToEnd(socket.getInputStream());
                socket.shutdownInput();
                clientSide = "client got '" + answer + "', output shut down " + socket.isOutputShutdown()
                        + ", input shut down " + socket.isInputShutdown() + ", read after shutdownInput "
                        + socket.getInputStream().read() + ", write after shutdownOutput " + writeAfterShutdown;
            } catch (IOException e) {
                clientSide = "client failed: " + e;
            }
            serverThread.join();
            return serverSide[0] + "\n" + clientSide;
        }
    }

    private static String serve(ServerSocket server) {
        try (Socket socket = server.accept()) {
            String request = readToEnd(socket.getInputStream());
            int again = socket.getInputStream().read();
            Thread.sleep(30);
            socket.getOutputStream().write(("received " + request.length() + " bytes").getBytes(StandardCharsets.US_ASCII));
            return "server got '" + request + "', read at end again " + again;
        } catch (Exception e) {
            return "server failed: " + e;
        }
    }

    private static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[7];
        int count;
        while ((count = in.read(buffer, 0, buffer.length)) >= 0) {
            bytes.write(buffer, 0, count);
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }
}
