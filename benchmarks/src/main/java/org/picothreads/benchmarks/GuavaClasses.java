package org.picothreads.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.picothreads.transform.ClassInput;

/**
 * The class files of Guava, the large real jar the transformer throughput is measured on. They are read from
 * wherever Guava's classes come from: its own jar from Maven Central under Maven, or benchmarks.jar, into which
 * it is shaded, when the suite runs from there (only entries under {@code com/google/common/} and
 * {@code com/google/thirdparty/} are taken, so both give the same set).
 */
public final class GuavaClasses {

    private GuavaClasses() {
    }

    /** The jar holding Guava's classes. */
    public static Path jar() {
        try {
            return Path.of(com.google.common.base.Preconditions.class.getProtectionDomain().getCodeSource()
                    .getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every Guava class file, in entry order. */
    public static List<ClassInput> read() {
        List<ClassInput> classes = new ArrayList<>();
        try (JarFile jar = new JarFile(jar().toFile())) {
            for (JarEntry entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.contains("module-info")
                        && (name.startsWith("com/google/common/") || name.startsWith("com/google/thirdparty/"))) {
                    classes.add(new ClassInput(name, jar.getInputStream(entry).readAllBytes()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (classes.isEmpty()) {
            throw new IllegalStateException("no Guava classes in " + jar());
        }
        return classes;
    }
}
