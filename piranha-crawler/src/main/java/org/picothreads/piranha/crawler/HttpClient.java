package org.picothreads.piranha.crawler;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A plain HTTP/1.1 GET over {@code java.net.Socket}: one connection per request ({@code Connection: close}),
 * Content-Length, chunked and read-to-close bodies, redirects, connect and read timeouts. It blocks its thread, as
 * the paper's crawler did; rewritten with pico-net, the socket calls suspend only the PicoThread.
 */
public final class HttpClient {

    /** The largest body read; a longer one is an error. */
    private static final int MAX_BODY_BYTES = 16 << 20;

    private final int connectTimeoutMillis;
    private final int readTimeoutMillis;
    private final int maxRedirects;
    /** The connections open now, closed by {@link #closeAll()}. */
    private final Set<Socket> openSockets = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public HttpClient(int connectTimeoutMillis, int readTimeoutMillis, int maxRedirects) {
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.readTimeoutMillis = readTimeoutMillis;
        this.maxRedirects = maxRedirects;
    }

    /** GETs the URL, following up to the client's number of redirects; the last response is returned. */
    public HttpResponse get(String url) throws IOException {
        String current = url;
        for (int redirects = 0; ; redirects++) {
            HttpResponse response = getOnce(current, redirects);
            String location = response.headers().get("location");
            if (response.status() / 100 != 3 || location == null || redirects == maxRedirects) {
                return response;
            }
            String next = UrlNormalizer.normalize(URI.create(current).resolve(location).toString());
            if (next == null || !UrlNormalizer.isLoopback(next)) {
                return response;
            }
            current = next;
        }
    }

    /** Closes every connection open now and refuses new ones: the fetches in progress fail at once. */
    public void closeAll() {
        closed = true;
        for (Socket socket : openSockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing is all we wanted
            }
        }
    }

    private HttpResponse getOnce(String url, int redirects) throws IOException {
        URI uri = URI.create(url);
        if (closed) {
            throw new IOException("the crawl was stopped");
        }
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        Socket socket = new Socket();
        openSockets.add(socket);
        try {
            socket.connect(new InetSocketAddress(uri.getHost(), port), connectTimeoutMillis);
            socket.setSoTimeout(readTimeoutMillis);
            String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            String hostHeader = uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
            String request = "GET " + target + " HTTP/1.1\r\nHost: " + hostHeader
                    + "\r\nUser-Agent: Piranha\r\nAccept: text/html\r\nConnection: close\r\n\r\n";
            OutputStream output = socket.getOutputStream();
            output.write(request.getBytes(StandardCharsets.US_ASCII));
            output.flush();
            InputStream input = new BufferedInputStream(socket.getInputStream(), 8192);
            String statusLine = readLine(input);
            String[] statusParts = statusLine.split(" ", 3);
            if (statusParts.length < 2 || !statusParts[0].startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP response: " + statusLine);
            }
            int status = Integer.parseInt(statusParts[1]);
            Map<String, String> headers = readHeaders(input);
            byte[] body = readBody(input, headers);
            return new HttpResponse(status, url, headers, body, redirects);
        } catch (NumberFormatException badStatus) {
            throw new IOException("bad status line from " + url, badStatus);
        } finally {
            openSockets.remove(socket);
            socket.close();
        }
    }

    private static Map<String, String> readHeaders(InputStream input) throws IOException {
        Map<String, String> headers = new HashMap<>();
        for (String line = readLine(input); !line.isEmpty(); line = readLine(input)) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        }
        return headers;
    }

    private static byte[] readBody(InputStream input, Map<String, String> headers) throws IOException {
        String transferEncoding = headers.getOrDefault("transfer-encoding", "");
        if (transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return readChunked(input);
        }
        String contentLength = headers.get("content-length");
        if (contentLength != null) {
            long length = Long.parseLong(contentLength.trim());
            if (length < 0 || length > MAX_BODY_BYTES) {
                throw new IOException("body too large: " + length + " bytes");
            }
            return readExactly(input, (int) length);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int count = input.read(buffer); count >= 0; count = input.read(buffer)) {
            body.write(buffer, 0, count);
            if (body.size() > MAX_BODY_BYTES) {
                throw new IOException("body too large");
            }
        }
        return body.toByteArray();
    }

    private static byte[] readChunked(InputStream input) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(input);
            int extension = sizeLine.indexOf(';');
            int size = Integer.parseInt((extension < 0 ? sizeLine : sizeLine.substring(0, extension)).trim(), 16);
            if (size == 0) {
                while (!readLine(input).isEmpty()) {
                    // trailer fields are read and dropped
                }
                return body.toByteArray();
            }
            if (body.size() + size > MAX_BODY_BYTES) {
                throw new IOException("body too large");
            }
            body.write(readExactly(input, size));
            if (!readLine(input).isEmpty()) {
                throw new IOException("a chunk is not followed by CRLF");
            }
        }
    }

    private static byte[] readExactly(InputStream input, int length) throws IOException {
        byte[] bytes = new byte[length];
        int filled = 0;
        while (filled < length) {
            int count = input.read(bytes, filled, length - filled);
            if (count < 0) {
                throw new EOFException("the connection closed after " + filled + " of " + length + " bytes");
            }
            filled += count;
        }
        return bytes;
    }

    /** Reads one line ending in LF (a CR before it is dropped), as ISO-8859-1. */
    private static String readLine(InputStream input) throws IOException {
        StringBuilder line = new StringBuilder(64);
        while (true) {
            int next = input.read();
            if (next < 0) {
                throw new EOFException("the connection closed in the middle of a header");
            }
            if (next == '\n') {
                int length = line.length();
                if (length > 0 && line.charAt(length - 1) == '\r') {
                    line.setLength(length - 1);
                }
                return line.toString();
            }
            if (line.length() > 8192) {
                throw new IOException("header line too long");
            }
            line.append((char) next);
        }
    }
}
