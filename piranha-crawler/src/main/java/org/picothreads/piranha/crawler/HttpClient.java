package org.picothreads.piranha.crawler;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
            ResponseReader input = new ResponseReader(socket.getInputStream());
            String statusLine = input.readLine();
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

    private static Map<String, String> readHeaders(ResponseReader input) throws IOException {
        Map<String, String> headers = new HashMap<>();
        for (String line = input.readLine(); !line.isEmpty(); line = input.readLine()) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        }
        return headers;
    }

    private static byte[] readBody(ResponseReader input, Map<String, String> headers) throws IOException {
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
            return input.readExactly((int) length);
        }
        return input.readToEnd(MAX_BODY_BYTES);
    }

    private static byte[] readChunked(ResponseReader input) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = input.readLine();
            int extension = sizeLine.indexOf(';');
            int size = Integer.parseInt((extension < 0 ? sizeLine : sizeLine.substring(0, extension)).trim(), 16);
            if (size == 0) {
                while (!input.readLine().isEmpty()) {
                    // trailer fields are read and dropped
                }
                return body.toByteArray();
            }
            if (body.size() + size > MAX_BODY_BYTES) {
                throw new IOException("body too large");
            }
            body.write(input.readExactly(size));
            if (!input.readLine().isEmpty()) {
                throw new IOException("a chunk is not followed by CRLF");
            }
        }
    }
}
