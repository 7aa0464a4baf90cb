package org.picothreads.transform.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/** What an input or output of the transformer is: a directory tree of class files, or a jar. */
public enum ContainerKind {
    DIRECTORY,
    JAR;

    /** The first four bytes of a zip file: a local file header, or the end record of an empty zip. */
    private static final byte[][] ZIP_SIGNATURES = {{'P', 'K', 3, 4}, {'P', 'K', 5, 6}};

    /**
     * The kind of an existing input: a directory, or a regular file that is named {@code .jar} or {@code .zip}
     * or starts like a zip file.
     */
    public static ContainerKind ofInput(Path input) throws ContainerException {
        if (Files.isDirectory(input)) {
            return DIRECTORY;
        }
        if (!Files.exists(input)) {
            throw new ContainerException("input does not exist: " + input);
        }
        if (Files.isRegularFile(input) && (hasArchiveName(input) || startsLikeZip(input))) {
            return JAR;
        }
        throw new ContainerException("input is neither a directory nor a jar or zip file: " + input);
    }

    /**
     * The kind of an output: what it already is when it exists (a regular file is a jar), otherwise a jar
     * when its name ends in {@code .jar} or {@code .zip} and a directory when not.
     */
    public static ContainerKind ofOutput(Path output) throws ContainerException {
        if (Files.isDirectory(output)) {
            return DIRECTORY;
        }
        if (Files.isRegularFile(output)) {
            return JAR;
        }
        if (Files.exists(output)) {
            throw new ContainerException("output is neither a directory nor a regular file: " + output);
        }
        return hasArchiveName(output) ? JAR : DIRECTORY;
    }

    private static boolean hasArchiveName(Path path) {
        Path fileName = path.getFileName();
        String name = fileName == null ? "" : fileName.toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".jar") || name.endsWith(".zip");
    }

    /** True when the file's first bytes are those of a zip file (a jar, a war, an empty zip). */
    public static boolean startsLikeZip(Path file) throws ContainerException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] start = in.readNBytes(4);
            return Arrays.stream(ZIP_SIGNATURES).anyMatch(signature -> Arrays.equals(signature, start));
        } catch (IOException failure) {
            throw ContainerException.of("cannot read input", file, failure);
        }
    }
}
