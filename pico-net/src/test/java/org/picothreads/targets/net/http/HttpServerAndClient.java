package org.picothreads.targets.net.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A thread-per-connection HTTP/1.1 server and keep-alive clients, written plainly with java.net: each client sends
 * several GET and POST requests over one connection and records every response.
 */
public class HttpServerAndClient {
    private static final int CLIENTS = 8;
    private static final int REQUESTS_PER_CLIENT = 5;

    public static String run() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = new ServerSocket(0, 50, loopback)) {
            Thread acceptor = new Thread(() -> acceptConnections(server, CLIENTS), "http-acceptor");
            acceptor.start();
            List<String>[] transcripts = newTranscripts();
            Thread[] clients = new Thread[CLIENTS];
            for (int index = 0; index < CLIENTS; index++) {
                int number = index;
                clients[index] = new Thread(() -> converse(loopback, server.getLocalPort(), number, transcripts[number]));
                clients[index].start();
            }
            for (Thread client : clients) {
                client.join();
            }
            acceptor.join();
            StringBuilder result = new StringBuilder();
            for (List<String> transcript : transcripts) {
                result.append(String.join("\n", transcript)).append('\n');
            }
            return result.toString();
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String>[] newTranscripts() {
        List<String>[] transcripts = new List[CLIENTS];
        for (int index = 0; index < CLIENTS; index++) {
            transcripts[index] = new ArrayList<>();
        }
        return transcripts;
    }

    private static void acceptConnections(ServerSocket server, int count) {
        try {
            for (int index = 0; index < count; index++) {
                Socket connection = server.accept();
                String name = "http-connection-" + index;
                new Thread(() -> handle(connection), name).start();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void handle(Socket connection) {
        try (Socket socket = connection) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                String requestLine = readLine(in);
                if (requestLine == null) {
                    return;
                }
                int contentLength = 0;
                boolean close = false;
                String header;
                while (!(header = readLine(in)).isEmpty()) {
                    String lower = header.toLowerCase(Locale.ROOT);
                    if (lower.startsWith("content-length:")) {
                        contentLength = Integer.parseInt(header.substring(15).trim());
                    } else if (lower.equals("connection: close")) {
                        close = true;
                    }
                }
                byte[] body = in.readNBytes(contentLength);
                String[] parts = requestLine.split(" ");
                String answer = parts[0] + " " + parts[1] + " with " + body.length + " bytes: "
                        + new String(body, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
                byte[] answerBytes = answer.getBytes(StandardCharsets.UTF_8);
                String status = parts[1].startsWith("/missing") ? "404 Not Found" : "200 OK";
                out.write(("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\nContent-Length: " + answerBytes.length
                        + "\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(answerBytes);
                out.flush();
                if (close) {
                    return;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void converse(InetAddress address, int port, int client, List<String> transcript) {
        try (Socket socket = new Socket(address, port)) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            for (int request = 0; request < REQUESTS_PER_CLIENT; request++) {
                boolean last = request == REQUESTS_PER_CLIENT - 1;
                String path = (request == 2 ? "/missing/" : "/items/") + client + "/" + request;
                String body = request % 2 == 1 ? "payload of client " + client + " request " + request : "";
                String method = body.isEmpty() ? "GET" : "POST";
                byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
                out.write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + (bodyBytes.length > 0 ? "Content-Length: " + bodyBytes.length + "\r\n" : "")
                        + (last ? "Connection: close\r\n" : "") + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(bodyBytes);
                out.flush();
                String status = readLine(in);
                int length = 0;
                String header;
                while (!(header = readLine(in)).isEmpty()) {
                    if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(header.substring(15).trim());
                    }
                }
                byte[] answer = in.readNBytes(length);
                transcript.add("client " + client + " request " + request + ": " + status + " | "
                        + new String(answer, StandardCharsets.UTF_8));
            }
            transcript.add("client " + client + " after close: " + in.read());
        } catch (IOException e) {
            transcript.add("client " + client + " failed: " + e);
        }
    }

    /** One CRLF-terminated line, without the CRLF; null at end of stream before any byte. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int value;
        while ((value = in.read()) >= 0) {
            if (value == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.US_ASCII);
            }
            line.write(value);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
    }
}
