package org.picothreads.transform.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/** Writes and reads the jars and directory trees of the io and command line tests. */
public final class TestFiles {
    /** The timestamp of test jar entries unless a test sets its own. */
    public static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2021, 3, 4, 5, 6, 8);

    private TestFiles() {
    }

    /** A jar entry with {@link #ENTRY_TIME}, compressed. */
    public static ZipEntry entry(String name) {
        ZipEntry entry = new ZipEntry(name);
        entry.setTimeLocal(ENTRY_TIME);
        return entry;
    }

    /** A jar entry with {@link #ENTRY_TIME}, stored uncompressed, with the size and checksum that requires. */
    public static ZipEntry storedEntry(String name, byte[] content) {
        ZipEntry entry = entry(name);
        CRC32 checksum = new CRC32();
        checksum.update(content);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(content.length);
        entry.setCompressedSize(content.length);
        entry.setCrc(checksum.getValue());
        return entry;
    }

    /** Writes a jar of the given entries and contents, in map order, and returns its path. */
    public static Path writeJar(Path jar, Map<ZipEntry, byte[]> entries) {
        return writeJar(jar, entries, null);
    }

    /** Writes a jar of the given entries and contents, in map order, with a comment on the whole archive. */
    public static Path writeJar(Path jar, Map<ZipEntry, byte[]> entries, String archiveComment) {
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(file)) {
            for (Map.Entry<ZipEntry, byte[]> entry : entries.entrySet()) {
                zip.putNextEntry(entry.getKey());
                zip.write(entry.getValue());
                zip.closeEntry();
            }
            if (archiveComment != null) {
                zip.setComment(archiveComment);
            }
            return jar;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** Writes a jar of names and contents, in map order, every entry with {@link #ENTRY_TIME}. */
    public static Path writeSimpleJar(Path jar, Map<String, byte[]> contents) {
        Map<ZipEntry, byte[]> entries = new LinkedHashMap<>();
        contents.forEach((name, bytes) -> entries.put(entry(name), bytes));
        return writeJar(jar, entries);
    }

    /** The entries of a jar, in the order its central directory lists them. */
    public static List<ZipEntry> entries(Path jar) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return new ArrayList<>(Collections.list(zip.entries()));
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** The names of a jar's entries, in order. */
    public static List<String> entryNames(Path jar) {
        return entries(jar).stream().map(ZipEntry::getName).collect(Collectors.toList());
    }

    /** The contents of a jar's entries by name, in entry order. */
    public static Map<String, byte[]> contents(Path jar) {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> each = zip.entries(); each.hasMoreElements();) {
                ZipEntry entry = each.nextElement();
                try (InputStream in = zip.getInputStream(entry)) {
                    contents.put(entry.getName(), in.readAllBytes());
                }
            }
            return contents;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** Writes files under a directory, creating the directories on the way, and returns the directory. */
    public static Path writeTree(Path directory, Map<String, byte[]> files) {
        try {
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                Path target = directory.resolve(file.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, file.getValue());
            }
            return directory;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** Every regular file under a directory by its relative path with {@code /} separators, sorted. */
    public static Map<String, byte[]> readTree(Path directory) {
        try (Stream<Path> walk = Files.walk(directory)) {
            Map<String, byte[]> files = new TreeMap<>();
            for (Path file : walk.filter(Files::isRegularFile).collect(Collectors.toList())) {
                files.put(directory.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
            return files;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** The names in a directory, sorted, to check that nothing was left behind. */
    public static List<String> listing(Path directory) {
        try (Stream<Path> list = Files.list(directory)) {
            return list.map(path -> path.getFileName().toString()).sorted().collect(Collectors.toList());
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** UTF-8 bytes of a text. */
    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
