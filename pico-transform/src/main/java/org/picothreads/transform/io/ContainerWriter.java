package org.picothreads.transform.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes the files of a {@link ClassContainer} as a jar or into a directory.
 *
 * <p>An entry read from a jar is written back with its name, comment, extra field, timestamps and compression
 * method, in the same order, so that a jar written from a jar differs only in the rewritten classes. An entry
 * read from a directory gets {@link #FIXED_TIME}, so that the same directory always gives the same jar, byte
 * for byte.
 */
final class ContainerWriter {
    /** The timestamp of every jar entry written from a directory: 1980-02-01 00:00, early in the zip format's range. */
    static final LocalDateTime FIXED_TIME = LocalDateTime.of(1980, 2, 1, 0, 0);

    private ContainerWriter() {
    }

    /** Writes {@code contents} as the jar {@code jarFile}, which exists and is empty or is overwritten. */
    static void writeJar(ClassContainer contents, Path jarFile) throws ContainerException {
        try (OutputStream file = Files.newOutputStream(jarFile);
                ZipOutputStream zip = new ZipOutputStream(new BufferedOutputStream(file))) {
            for (ContainerEntry entry : contents.entries()) {
                zip.putNextEntry(archiveEntryFor(entry));
                zip.write(entry.bytes());
                zip.closeEntry();
            }
            if (contents.archiveComment() != null) {
                zip.setComment(contents.archiveComment());
            }
        } catch (IOException failure) {
            throw ContainerException.of("cannot write", jarFile, failure);
        }
    }

    private static ZipEntry archiveEntryFor(ContainerEntry entry) {
        if (entry.archiveEntry() == null) {
            ZipEntry fresh = new ZipEntry(entry.name());
            fresh.setTimeLocal(FIXED_TIME);
            return fresh;
        }
        ZipEntry copy = new ZipEntry(entry.archiveEntry());
        if (copy.getMethod() == ZipEntry.STORED) {
            CRC32 checksum = new CRC32();
            checksum.update(entry.bytes());
            copy.setSize(entry.bytes().length);
            copy.setCompressedSize(entry.bytes().length);
            copy.setCrc(checksum.getValue());
        } else {
            copy.setCompressedSize(-1);
        }
        return copy;
    }

    /**
     * Writes {@code contents} as files under {@code directory}, refusing any entry whose name would place it
     * outside (an absolute name, or one with {@code ..}).
     */
    static void writeDirectory(ClassContainer contents, Path directory) throws ContainerException {
        Path root = directory.toAbsolutePath().normalize();
        for (ContainerEntry entry : contents.entries()) {
            Path target = root.resolve(entry.name()).normalize();
            if (!target.startsWith(root)) {
                throw new ContainerException("cannot write entry " + entry.name() + " of " + contents.path()
                        + ": its name leads outside the output directory");
            }
            try {
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.write(target, entry.bytes());
                }
            } catch (IOException failure) {
                throw ContainerException.of("cannot write", target, failure);
            }
        }
    }
}
