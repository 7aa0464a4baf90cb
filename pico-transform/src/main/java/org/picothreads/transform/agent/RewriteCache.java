package org.picothreads.transform.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * The agent's persistent cache of the classes it rewrote, so that a program started again with the same class path
 * loads its classes from the cache, without rewriting them and without loading the transformer at all.
 *
 * <p>What a class's rewrite depends on besides its own bytes is its <em>context</em>: the agent's own code, the JDK,
 * the agent's options and the content of every class path entry (the analysis reads the classes a class's calls
 * reach, and the class path decides whether pico-net's redirects apply). The context is written out as text, one line
 * each: every file's size and two checksums of its content (CRC-32 and Adler-32, computed natively, so that even a
 * JVM that has compiled nothing yet reads a large jar in milliseconds), a directory's files each by its relative path.
 * Its checksums name the context's directory, which keeps the full text in a file {@code context} and is used only
 * when that text is equal. Any change of content gives another directory: that is the whole of the invalidation. The
 * cache keeps the {@link #KEPT_CONTEXTS} contexts used last (each use touches its {@code context} file) and deletes
 * the others when it makes a new one; a JVM whose context was deleted meanwhile finds no entries and rewrites its
 * classes again ({@code rm -r} of the cache is always safe).
 *
 * <p>One file per class in the context's directory, named by the class and the CRC-32 of its bytes, holds the class's
 * bytes as they loaded, whether the rewrite changed it and how, and whether it uses sockets without pico-net. An entry
 * is used only when its bytes are equal to the loading class's; an entry that cannot be read is ignored. Entries are
 * written to a temporary file and moved into place, so that JVMs sharing the cache never read half an entry.
 */
final class RewriteCache {
    /** The first line of every context: another format of the entries or the context is another context. */
    private static final String FORMAT = "pico-agent rewrite cache 1";
    /** The first int of an entry file. */
    private static final int ENTRY_MAGIC = 0x50494331;

    /** How many contexts the cache keeps: those used last. */
    static final int KEPT_CONTEXTS = 16;

    /** The context's directory. */
    private final Path directory;

    /** A class's cached rewrite: its bytes as rewritten, or null when the rewrite left it unchanged. */
    record Entry(byte[] rewritten, String socketUser) {
    }

    private RewriteCache(Path directory) {
        this.directory = directory;
    }

    /**
     * The cache of the context in the cache directory {@code root}, created when missing, or null when it cannot be
     * used (not writable, or another context has the same checksums).
     */
    static RewriteCache open(Path root, String context) {
        byte[] text = context.getBytes(StandardCharsets.UTF_8);
        Path directory = root.resolve(checksums(text));
        Path contextFile = directory.resolve("context");
        try {
            if (Files.isRegularFile(contextFile)) {
                if (!Arrays.equals(Files.readAllBytes(contextFile), text)) {
                    return null;
                }
                Files.setLastModifiedTime(contextFile, FileTime.fromMillis(System.currentTimeMillis()));
                return new RewriteCache(directory);
            }
            Files.createDirectories(directory);
            writeAtomically(contextFile, text);
            deleteContextsUsedBefore(root, KEPT_CONTEXTS);
            return new RewriteCache(directory);
        } catch (IOException | RuntimeException unusable) {
            return null;
        }
    }

    /**
     * Deletes every context directory of {@code root} but the {@code kept} whose {@code context} file was touched
     * last; a file another JVM is writing or reading meanwhile only costs that JVM its entry.
     */
    private static void deleteContextsUsedBefore(Path root, int kept) {
        List<Path> contexts = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(root)) {
            for (Path child : children) {
                if (Files.isRegularFile(child.resolve("context"))) {
                    contexts.add(child);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return;
        }
        if (contexts.size() <= kept) {
            return;
        }
        contexts.sort(Comparator.comparing(RewriteCache::lastUse).reversed());
        for (Path stale : contexts.subList(kept, contexts.size())) {
            deleteTree(stale);
        }
    }

    /** When the context of the directory was last used, or the epoch when that cannot be read. */
    private static FileTime lastUse(Path contextDirectory) {
        try {
            return Files.getLastModifiedTime(contextDirectory.resolve("context"));
        } catch (IOException unreadable) {
            return FileTime.fromMillis(0);
        }
    }

    /** Deletes a directory and everything under it, as far as it can. */
    private static void deleteTree(Path directory) {
        try {
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path visited, IOException failure) throws IOException {
                    Files.deleteIfExists(visited);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | RuntimeException undeletable) {
            // What is left is deleted by a later run, or never used again.
        }
    }

    /**
     * The context of a rewrite: the agent's code (a jar or a directory of classes), the running JDK, the agent's
     * argument text and the class path entries, each with the checksums of its content.
     *
     * @throws IOException when a file cannot be read
     */
    static String context(Path agentCode, String agentArguments, List<Path> classPath) throws IOException {
        StringBuilder context = new StringBuilder(FORMAT).append('\n');
        context.append("agent ").append(agentCode).append(' ').append(fingerprint(agentCode)).append('\n');
        context.append("jdk ").append(System.getProperty("java.home")).append(' ')
                .append(System.getProperty("java.runtime.version")).append(' ')
                .append(System.getProperty("java.vm.version")).append('\n');
        context.append("options ").append(agentArguments == null ? "" : agentArguments).append('\n');
        for (Path entry : classPath) {
            context.append("entry ").append(entry).append(' ').append(fingerprint(entry)).append('\n');
        }
        return context.toString();
    }

    /**
     * The cached rewrite of the class, or null when there is none for these bytes. An entry is its magic number, then
     * three byte strings, each a big-endian int length (-1 for none) and the bytes: the class as it loaded, the
     * class as rewritten (none when unchanged), the binary name of the socket user (none when not one).
     */
    Entry find(String className, byte[] classFile) {
        Path file = entryFile(className, classFile);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            byte[] entry = Files.readAllBytes(file);
            int[] position = {0};
            if (readInt(entry, position) != ENTRY_MAGIC || !Arrays.equals(readBytes(entry, position), classFile)) {
                return null;
            }
            byte[] rewritten = readBytes(entry, position);
            byte[] socketUser = readBytes(entry, position);
            if (position[0] != entry.length) {
                return null;
            }
            return new Entry(rewritten, socketUser == null ? null : new String(socketUser, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /** Keeps the class's rewrite (null when unchanged); a failure to write only means no entry. */
    void store(String className, byte[] classFile, byte[] rewritten, String socketUser) {
        ByteArrayOutputStream entry = new ByteArrayOutputStream(classFile.length * 3 + 64);
        writeInt(entry, ENTRY_MAGIC);
        writeBytes(entry, classFile);
        writeBytes(entry, rewritten);
        writeBytes(entry, socketUser == null ? null : socketUser.getBytes(StandardCharsets.UTF_8));
        try {
            writeAtomically(entryFile(className, classFile), entry.toByteArray());
        } catch (IOException | RuntimeException unwritable) {
            // The class is rewritten again next time.
        }
    }

    /** The context's directory, for the tests. */
    Path directory() {
        return directory;
    }

    private Path entryFile(String className, byte[] classFile) {
        CRC32 crc = new CRC32();
        crc.update(classFile);
        return directory.resolve(className.replace('/', '.') + "-" + Long.toHexString(crc.getValue()) + ".rewrite");
    }

    /** A file's size and checksums, or a directory's files each with its relative path, size and checksums. */
    private static String fingerprint(Path entry) throws IOException {
        if (!Files.isDirectory(entry)) {
            return Files.exists(entry) ? fileFingerprint(entry) : "missing";
        }
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(entry, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (attributes.isRegularFile()) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        StringBuilder fingerprint = new StringBuilder("directory");
        for (Path file : files) {
            fingerprint.append(' ').append(entry.relativize(file).toString().replace(' ', '?')).append(':')
                    .append(fileFingerprint(file));
        }
        return fingerprint.toString();
    }

    private static String fileFingerprint(Path file) throws IOException {
        CRC32 crc = new CRC32();
        Adler32 adler = new Adler32();
        long size = 0;
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                crc.update(buffer, 0, read);
                adler.update(buffer, 0, read);
                size += read;
            }
        }
        return size + "/" + Long.toHexString(crc.getValue()) + "/" + Long.toHexString(adler.getValue());
    }

    private static String checksums(byte[] text) {
        CRC32 crc = new CRC32();
        crc.update(text);
        Adler32 adler = new Adler32();
        adler.update(text);
        String hex = Long.toHexString(crc.getValue() << 32 | adler.getValue());
        return "0".repeat(16 - hex.length()) + hex;
    }

    private static int readInt(byte[] entry, int[] position) throws IOException {
        int at = position[0];
        if (at + 4 > entry.length) {
            throw new IOException("a truncated entry");
        }
        position[0] = at + 4;
        return (entry[at] & 0xFF) << 24 | (entry[at + 1] & 0xFF) << 16 | (entry[at + 2] & 0xFF) << 8
                | entry[at + 3] & 0xFF;
    }

    private static byte[] readBytes(byte[] entry, int[] position) throws IOException {
        int length = readInt(entry, position);
        if (length == -1) {
            return null;
        }
        int at = position[0];
        if (length < 0 || length > entry.length - at) {
            throw new IOException("a truncated entry");
        }
        position[0] = at + length;
        return Arrays.copyOfRange(entry, at, at + length);
    }

    private static void writeInt(ByteArrayOutputStream entry, int value) {
        entry.write(value >>> 24);
        entry.write(value >>> 16);
        entry.write(value >>> 8);
        entry.write(value);
    }

    private static void writeBytes(ByteArrayOutputStream entry, byte[] bytes) {
        writeInt(entry, bytes == null ? -1 : bytes.length);
        if (bytes != null) {
            entry.write(bytes, 0, bytes.length);
        }
    }

    private static void writeAtomically(Path file, byte[] bytes) throws IOException {
        Path temporary = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        try {
            Files.write(temporary, bytes);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException notAtomic) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
