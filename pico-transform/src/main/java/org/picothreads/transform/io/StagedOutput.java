package org.picothreads.transform.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An output written in full to a temporary sibling of its destination, which {@link #commit()} moves into place
 * and {@link #close()} deletes when it was not committed, so that a failed run leaves the destination as it was.
 *
 * <p>A jar or a plain file replaces whatever file was at the destination in one atomic rename. A directory
 * output becomes the destination in one rename when nothing is there; when a directory is already there, the
 * written files are moved into it one by one, each replacing the file of the same name, and the other files in
 * it are kept.
 */
public final class StagedOutput implements AutoCloseable {
    private final Path destination;
    /** The sibling of the destination that holds the output until it is committed. */
    private final Path temporary;
    private final boolean directory;
    private boolean committed;

    private StagedOutput(Path destination, Path temporary, boolean directory) {
        this.destination = destination;
        this.temporary = temporary;
        this.directory = directory;
    }

    /**
     * Writes {@code contents} next to {@code destination}, as a jar or a directory according to
     * {@link ContainerKind#ofOutput(Path)}. Nothing is left behind when this fails.
     */
    public static StagedOutput ofContainer(ClassContainer contents, Path destination) throws ContainerException {
        boolean directory = ContainerKind.ofOutput(destination) == ContainerKind.DIRECTORY;
        StagedOutput staged = create(destination, directory);
        try {
            if (directory) {
                ContainerWriter.writeDirectory(contents, staged.temporary);
            } else {
                ContainerWriter.writeJar(contents, staged.temporary);
            }
            return staged;
        } catch (ContainerException | RuntimeException failure) {
            staged.close();
            throw failure;
        }
    }

    /** Writes {@code content} next to {@code destination}, a file. Nothing is left behind when this fails. */
    public static StagedOutput ofFile(Path destination, byte[] content) throws ContainerException {
        StagedOutput staged = create(destination, false);
        try {
            Files.write(staged.temporary, content);
            return staged;
        } catch (IOException failure) {
            staged.close();
            throw ContainerException.of("cannot write", destination, failure);
        }
    }

    /**
     * Creates the temporary sibling with the default permissions of new files, which a file or directory made
     * by {@link Files#createTempFile} would not have, and the destination's parent directories if missing.
     */
    private static StagedOutput create(Path destination, boolean directory) throws ContainerException {
        Path absolute = destination.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent == null) {
            throw new ContainerException("cannot write " + destination + ": it is a file system root");
        }
        try {
            Files.createDirectories(parent);
            while (true) {
                Path temporary = parent.resolve("." + absolute.getFileName() + "."
                        + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
                try {
                    if (directory) {
                        Files.createDirectory(temporary);
                    } else {
                        Files.createFile(temporary);
                    }
                    return new StagedOutput(absolute, temporary, directory);
                } catch (FileAlreadyExistsException taken) {
                    // Another run picked the same name; the loop draws another.
                }
            }
        } catch (IOException failure) {
            throw ContainerException.of("cannot write", destination, failure);
        }
    }

    /** Moves the output into place. */
    public void commit() throws ContainerException {
        try {
            if (directory && Files.isDirectory(destination)) {
                mergeIntoDestination();
            } else {
                move(temporary, destination);
            }
            committed = true;
        } catch (IOException failure) {
            throw ContainerException.of("cannot write", destination, failure);
        } catch (UncheckedIOException failure) {
            throw ContainerException.of("cannot write", destination, failure.getCause());
        }
    }

    private void mergeIntoDestination() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(temporary)) {
            files = walk.filter(path -> !Files.isDirectory(path)).sorted().collect(Collectors.toList());
        }
        for (Path file : files) {
            Path target = destination.resolve(temporary.relativize(file));
            Files.createDirectories(target.getParent());
            move(file, target);
        }
        try (Stream<Path> walk = Files.walk(temporary)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.createDirectories(destination.resolve(temporary.relativize(path)));
                Files.delete(path);
            }
        }
    }

    private static void move(Path source, Path target) throws IOException {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException notAtomic) {
            Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Deletes the temporary output unless it was committed; a file that cannot be deleted is left as it is. */
    @Override
    public void close() {
        if (committed || !Files.exists(temporary)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(temporary)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException failure) {
            // The run has failed already and reports that failure; a temporary that cannot be deleted stays.
        }
    }
}
