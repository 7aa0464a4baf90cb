package org.picothreads.transform.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds lines in the source of a test program by the marker comments written on them ({@code // frame: nap}), so
 * that a test can expect the line numbers a thread dump prints without repeating them.
 */
public final class SourceLines {
    private SourceLines() {
    }

    /** The 1-based number of the one line of {@code type}'s source file that ends with {@code // marker}. */
    public static int lineOf(Class<?> type, String marker) throws IOException {
        Path source = TestClasspath.buildDirectory().getParent()
                .resolve(Path.of("src", "test", "java"))
                .resolve(type.getName().replace('.', '/') + ".java");
        List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
        int found = -1;
        for (int index = 0; index < lines.size(); index++) {
            if (lines.get(index).trim().endsWith("// " + marker)) {
                if (found != -1) {
                    throw new IllegalArgumentException("the marker '" + marker + "' is on two lines of " + source);
                }
                found = index + 1;
            }
        }
        if (found == -1) {
            throw new IllegalArgumentException("no line of " + source + " ends with the marker '" + marker + "'");
        }
        return found;
    }
}
