package org.picothreads.benchmarks.thirdparty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The directory the third-party server serves, generated with fixed contents, and what a client must get back for
 * each path it asks for: the file's bytes with 200, or NanoHTTPD's not-found page with 404 for the one missing path.
 */
public final class ServedFiles {
    /** The path asked for that names no file. */
    public static final String MISSING_PATH = "/missing.bin";
    /** The body NanoHTTPD's SimpleWebServer sends with a 404 (checked against the unrewritten server by the test). */
    static final byte[] NOT_FOUND_BODY = "Error 404, file not found.".getBytes(StandardCharsets.UTF_8);

    /** Sizes of the generated binary files: empty, small, around the 8 KB stream buffers, and large. */
    private static final int[] SIZES = {0, 1, 100, 1000, 8191, 8192, 8193, 20_000, 100_000};

    private final Path directory;
    /** Every path a client asks for, in a fixed order, with the body it must get. */
    private final Map<String, byte[]> bodies;

    private ServedFiles(Path directory, Map<String, byte[]> bodies) {
        this.directory = directory;
        this.bodies = bodies;
    }

    /** Writes the files into {@code directory} (created if needed), the same bytes every time. */
    public static ServedFiles generate(Path directory) throws IOException {
        Files.createDirectories(directory);
        Map<String, byte[]> bodies = new LinkedHashMap<>();
        Random random = new Random(4);
        for (int size : SIZES) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            bodies.put(write(directory, "file-" + size + ".bin", content), content);
        }
        StringBuilder page = new StringBuilder("<html><body>\n");
        for (int line = 0; line < 200; line++) {
            page.append("<p>line ").append(line).append(": thread per connection</p>\n");
        }
        byte[] html = page.append("</body></html>\n").toString().getBytes(StandardCharsets.UTF_8);
        bodies.put(write(directory, "page.html", html), html);
        byte[] text = "plain text served by an unmodified NanoHTTPD\n".getBytes(StandardCharsets.UTF_8);
        bodies.put(write(directory, "notes.txt", text), text);
        bodies.put(MISSING_PATH, NOT_FOUND_BODY);
        return new ServedFiles(directory, bodies);
    }

    private static String write(Path directory, String name, byte[] content) throws IOException {
        Files.write(directory.resolve(name), content);
        return "/" + name;
    }

    /** The served directory. */
    public Path directory() {
        return directory;
    }

    /** Every path clients ask for, in a fixed order. */
    public List<String> paths() {
        return List.copyOf(bodies.keySet());
    }

    /** The body a request for {@code path} must get. */
    public byte[] body(String path) {
        return bodies.get(path);
    }

    /** The status code a request for {@code path} must get. */
    public int status(String path) {
        return MISSING_PATH.equals(path) ? 404 : 200;
    }
}
