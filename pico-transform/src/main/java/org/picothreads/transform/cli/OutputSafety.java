package org.picothreads.transform.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.io.ClassContainer;
import org.picothreads.transform.io.ContainerEntry;
import org.picothreads.transform.io.ContainerException;
import org.picothreads.transform.io.ContainerKind;
import org.picothreads.transform.io.ContainerPaths;

/**
 * Refuses a run that would lose a file the user had: an OUTPUT that is a file but not a jar, a classpath entry,
 * an existing jar or directory whose files would be replaced although no earlier run of PicoThreads wrote it (the
 * original classes, as when INPUT and OUTPUT are swapped), and a report path that holds something else.
 *
 * <p>An existing OUTPUT counts as an earlier output when it holds a class that PicoThreads rewrote; its files may
 * then be replaced, since running the command again makes them again. A file replaced by the same bytes is never
 * lost.
 */
final class OutputSafety {
    /** How many of the files that would be lost a refusal names. */
    private static final int NAMED_FILES = 3;
    /** How a report that this command wrote begins. */
    private static final String REPORT_START = "{\n  \"classes\": [";

    private OutputSafety() {
    }

    /** Refuses, before anything is read, an OUTPUT that is a file but no jar, or one of the classpath entries. */
    static void checkPaths(Path output, List<Path> classpath) throws RefusedException, ContainerException {
        if (Files.isRegularFile(output) && size(output) > 0 && !ContainerKind.startsLikeZip(output)) {
            throw new RefusedException("output " + output + " is a file but not a jar; it would be replaced by a jar."
                    + " Name another output, or delete it first if it is to be replaced");
        }
        for (Path entry : classpath) {
            if (ContainerPaths.sameFile(entry, output)) {
                throw new RefusedException("output " + output + " is the --classpath entry " + entry
                        + "; it would be replaced by the rewritten input");
            }
        }
    }

    /** Refuses a report path that holds a file other than a report this command wrote. */
    static void checkReport(Path report) throws RefusedException, ContainerException {
        if (!Files.isRegularFile(report) || size(report) == 0) {
            return;
        }
        byte[] start;
        try (InputStream in = Files.newInputStream(report)) {
            start = in.readNBytes(REPORT_START.length());
        } catch (IOException failure) {
            throw ContainerException.of("cannot read", report, failure);
        }
        if (!new String(start, StandardCharsets.UTF_8).equals(REPORT_START)) {
            throw new RefusedException("report file " + report + " already exists and is not a pico-transform report;"
                    + " name another file, or delete it first if it is to be replaced");
        }
    }

    /**
     * Refuses to write {@code written} to an existing OUTPUT when files there would be lost (replaced with other
     * bytes, or for a jar left out of the new one) and OUTPUT is not an earlier output of PicoThreads.
     */
    static void checkContents(ClassContainer written, Path output) throws RefusedException, ContainerException {
        if (Files.isDirectory(output)) {
            checkDirectory(written, output);
        } else if (Files.isRegularFile(output) && size(output) > 0) {
            checkJar(written, output);
        }
    }

    private static void checkDirectory(ClassContainer written, Path output)
            throws RefusedException, ContainerException {
        List<String> lost = new ArrayList<>();
        for (ContainerEntry entry : written.entries()) {
            if (entry.isDirectory()) {
                continue;
            }
            Path existing = output.resolve(entry.name()).normalize();
            if (!existing.startsWith(output.normalize()) || !Files.isRegularFile(existing)) {
                continue;
            }
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(existing);
            } catch (IOException failure) {
                throw ContainerException.of("cannot read", existing, failure);
            }
            if (!Arrays.equals(bytes, entry.bytes())) {
                lost.add(entry.name());
            }
        }
        refuseUnlessEarlierOutput(output, "directory", lost, !lost.isEmpty() && holdsRewrittenClass(output));
    }

    /** True when some class file under the directory is one that PicoThreads rewrote. */
    private static boolean holdsRewrittenClass(Path directory) throws ContainerException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".class") && Files.isRegularFile(file))
                    .anyMatch(file -> isRewrittenClass(readUnchecked(file)));
        } catch (IOException failure) {
            throw ContainerException.of("cannot read", directory, failure);
        } catch (UncheckedIOException failure) {
            throw ContainerException.of("cannot read", directory, failure.getCause());
        }
    }

    private static byte[] readUnchecked(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    private static void checkJar(ClassContainer written, Path output) throws RefusedException, ContainerException {
        ClassContainer existing;
        try {
            existing = ClassContainer.read(output);
        } catch (ContainerException unreadable) {
            throw new RefusedException("output " + output + " is a file but not a readable jar ("
                    + unreadable.getMessage() + "); it would be replaced. Delete it first if it is to be replaced");
        }
        Map<String, byte[]> writtenBytes = new HashMap<>();
        written.entries().forEach(entry -> writtenBytes.put(entry.name(), entry.bytes()));
        List<String> lost = new ArrayList<>();
        boolean earlierOutput = false;
        for (ContainerEntry entry : existing.entries()) {
            earlierOutput |= entry.isClass() && isRewrittenClass(entry.bytes());
            if (!entry.isDirectory() && !Arrays.equals(entry.bytes(), writtenBytes.get(entry.name()))) {
                lost.add(entry.name());
            }
        }
        refuseUnlessEarlierOutput(output, "jar", lost, earlierOutput);
    }

    private static void refuseUnlessEarlierOutput(Path output, String kind, List<String> lost, boolean earlierOutput)
            throws RefusedException {
        if (lost.isEmpty() || earlierOutput) {
            return;
        }
        lost.sort(null);
        String named = String.join(", ", lost.subList(0, Math.min(NAMED_FILES, lost.size())))
                + (lost.size() > NAMED_FILES ? " and " + (lost.size() - NAMED_FILES) + " more" : "");
        throw new RefusedException("output " + output + " is a " + kind + " that PicoThreads did not write, and "
                + lost.size() + (lost.size() == 1 ? " file" : " files") + " in it would be lost (" + named
                + "); are INPUT and OUTPUT swapped? Name another output, or delete it first if it is to be replaced");
    }

    /** True for a class file that PicoThreads rewrote; false for one it did not, and for a file that holds no class. */
    private static boolean isRewrittenClass(byte[] bytes) {
        try {
            return PicoTransformer.isTransformed(bytes);
        } catch (RuntimeException notAClass) {
            return false;
        }
    }

    private static long size(Path file) throws ContainerException {
        try {
            return Files.size(file);
        } catch (IOException failure) {
            throw ContainerException.of("cannot read", file, failure);
        }
    }
}
