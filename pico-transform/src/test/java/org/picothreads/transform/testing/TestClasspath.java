package org.picothreads.transform.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.picothreads.transform.ClassInput;

/**
 * Where the running tests' compiled classes are, and the classpath the transformer resolves them against.
 * Nothing here names Maven's {@code target} directory: the build may use another one
 * ({@code -Dpico.targetName=...}), so every path is derived from where the test classes were loaded from.
 */
public final class TestClasspath {
    private TestClasspath() {
    }

    /**
     * The directory holding the compiled test classes, found from the code source of this very class, or, when that
     * is the harness's test-jar (used by another module), the classpath's {@code test-classes} directory.
     */
    public static Path testClassesDirectory() {
        CodeSource codeSource = TestClasspath.class.getProtectionDomain().getCodeSource();
        if (codeSource == null || codeSource.getLocation() == null) {
            throw new IllegalStateException("the test classes were loaded without a code source");
        }
        try {
            Path location = Path.of(codeSource.getLocation().toURI());
            if (Files.isDirectory(location)) {
                return location;
            }
            // Another module uses this harness from the test-jar: its own test classes are the classpath's
            // test-classes directory.
            for (String property : new String[] {"java.class.path", "surefire.test.class.path"}) {
                for (Path entry : parse(System.getProperty(property, ""))) {
                    if (Files.isDirectory(entry) && entry.getFileName().toString().equals("test-classes")) {
                        return entry;
                    }
                }
            }
            throw new IllegalStateException(
                    "the test classes are expected in a directory, but came from " + location);
        } catch (URISyntaxException exception) {
            throw new IllegalStateException(
                    "the test classes' location is not a file: " + codeSource.getLocation(), exception);
        }
    }

    /** The build directory of this module (Maven's {@code target} by default): the parent of the test classes. */
    public static Path buildDirectory() {
        return testClassesDirectory().getParent();
    }

    /**
     * The classpath of the running tests, for the transformer to read the referenced classes from: the
     * {@code java.class.path} property, or, when that does not hold the test classes (Surefire's manifest-only
     * booter jar), the {@code surefire.test.class.path} property.
     */
    public static List<Path> entries() {
        Path testClasses = testClassesDirectory();
        List<Path> entries = parse(System.getProperty("java.class.path", ""));
        if (!containsDirectory(entries, testClasses)) {
            List<Path> surefireEntries = parse(System.getProperty("surefire.test.class.path", ""));
            if (containsDirectory(surefireEntries, testClasses)) {
                entries = surefireEntries;
            }
        }
        return List.copyOf(entries);
    }

    /**
     * Reads every class file of the given packages (and their subpackages) from the test classes directory,
     * sorted by path so that the transformer always sees them in the same order.
     *
     * @param packagePrefixes binary-name prefixes such as {@code "org.picothreads.targets.lambdas."}
     */
    public static List<ClassInput> classFilesOf(List<String> packagePrefixes) {
        Path root = testClassesDirectory();
        List<ClassInput> inputs = new ArrayList<>();
        for (String prefix : packagePrefixes) {
            Path directory = root.resolve(prefix.replace('.', '/'));
            if (!Files.isDirectory(directory)) {
                throw new IllegalArgumentException(
                        "no compiled classes for package prefix " + prefix + " under " + root);
            }
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".class")).sorted().toList()) {
                    inputs.add(new ClassInput(file.toString(), Files.readAllBytes(file)));
                }
            } catch (IOException exception) {
                throw new UncheckedIOException("cannot read the class files under " + directory, exception);
            }
        }
        return List.copyOf(inputs);
    }

    private static List<Path> parse(String classpath) {
        List<Path> entries = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                entries.add(Path.of(entry));
            }
        }
        return entries;
    }

    private static boolean containsDirectory(List<Path> entries, Path directory) {
        Path wanted = directory.toAbsolutePath().normalize();
        return entries.stream().anyMatch(entry -> entry.toAbsolutePath().normalize().equals(wanted));
    }
}
