package org.picothreads.transform.agent;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The application class path as the system class loader searches it: the entries of {@code java.class.path}
 * that exist, each jar followed by the jars its manifest's {@code Class-Path} names (as {@code java -jar app.jar}
 * finds its libraries), without repeats.
 */
final class ClassPathEntries {
    private ClassPathEntries() {
    }

    /** The existing entries of a class path in the platform's syntax, with the manifest class paths they add. */
    static List<Path> of(String classPath) {
        Set<Path> entries = new LinkedHashSet<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                add(Path.of(entry).toAbsolutePath().normalize(), entries);
            }
        }
        return List.copyOf(entries);
    }

    private static void add(Path entry, Set<Path> entries) {
        if (!Files.exists(entry) || !entries.add(entry) || !Files.isRegularFile(entry)) {
            return;
        }
        for (Path referenced : manifestClassPath(entry)) {
            add(referenced, entries);
        }
    }

    /** The local files a jar's manifest {@code Class-Path} names, resolved against the jar's directory. */
    private static List<Path> manifestClassPath(Path jar) {
        List<Path> referenced = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile(), false)) {
            Manifest manifest = file.getManifest();
            String value = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            if (value == null) {
                return referenced;
            }
            URI base = jar.getParent().toUri();
            for (String relative : value.trim().split("\\s+")) {
                if (relative.isEmpty()) {
                    continue;
                }
                URI resolved = base.resolve(new URI(null, null, relative, null));
                if ("file".equals(resolved.getScheme())) {
                    referenced.add(Path.of(resolved).normalize());
                }
            }
        } catch (IOException | URISyntaxException | IllegalArgumentException unreadable) {
            // The class loader ignores a manifest it cannot read in the same way; the jar itself is still used.
        }
        return referenced;
    }
}
