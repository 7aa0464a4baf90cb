package org.picothreads.benchmarks.thirdparty;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/1.1 response read off a keep-alive connection: the status line, the header lines in the order sent and
 * the body, whose length the Content-Length header gives (NanoHTTPD sends every response of SimpleWebServer with
 * one).
 */
public record HttpResponse(String statusLine, List<String> headers, byte[] body) {

    /** Reads one response from {@code input}; throws EOFException when the connection ends first. */
    public static HttpResponse read(InputStream input) throws IOException {
        String statusLine = readLine(input);
        List<String> headers = new ArrayList<>();
        long length = -1;
        for (String line = readLine(input); !line.isEmpty(); line = readLine(input)) {
            headers.add(line);
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                long value = Long.parseLong(line.substring(colon + 1).trim());
                if (length >= 0 && value != length) {
                    throw new IOException("two different Content-Length headers: " + headers);
                }
                length = value;
            }
        }
        if (length < 0) {
            throw new IOException("response without Content-Length: " + statusLine + " " + headers);
        }
        byte[] body = input.readNBytes((int) length);
        if (body.length != length) {
            throw new EOFException("connection ended after " + body.length + " of " + length + " body bytes");
        }
        return new HttpResponse(statusLine, headers, body);
    }

    /** The status code of the status line. */
    public int status() {
        String[] parts = statusLine.split(" ");
        return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
    }

    /** The headers without {@code Date}, the one header that differs between two identical responses. */
    public List<String> headersWithoutDate() {
        List<String> kept = new ArrayList<>();
        for (String header : headers) {
            if (!header.regionMatches(true, 0, "Date:", 0, 5)) {
                kept.add(header);
            }
        }
        return kept;
    }

    private static String readLine(InputStream input) throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int next = input.read();
            if (next < 0) {
                throw new EOFException("connection ended in the response head after \"" + line + "\"");
            }
            if (next == '\n') {
                int end = line.length();
                if (end > 0 && line.charAt(end - 1) == '\r') {
                    line.setLength(end - 1);
                }
                return line.toString();
            }
            line.append((char) next);
            if (line.length() > 16_384) {
                throw new IOException("response head line longer than 16 KB");
            }
        }
    }

    /** The request for {@code path} on a keep-alive connection to 127.0.0.1. */
    static byte[] request(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: picothreads-check\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }
}
