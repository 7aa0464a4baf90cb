package org.picothreads.transform.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;

/**
 * The files of one transformer input, read from a directory or a jar, in an order that does not change from
 * run to run, and the classes among them that go to the transformer.
 *
 * <p>A jar's entries keep the order the jar stores them in, its manifest included, and are read with
 * {@link ZipFile} rather than {@code JarFile} so that nothing is interpreted. A directory's files are ordered by
 * their relative path, except that {@code META-INF/MANIFEST.MF} comes first, where a jar written from them
 * must hold it.
 */
public final class ClassContainer {
    private static final String MANIFEST = "META-INF/MANIFEST.MF";

    private final Path path;
    private final ContainerKind kind;
    private final List<ContainerEntry> entries;
    /** The comment of the jar as a whole, or null. */
    private final String archiveComment;

    private ClassContainer(Path path, ContainerKind kind, List<ContainerEntry> entries, String archiveComment) {
        this.path = path;
        this.kind = kind;
        this.entries = List.copyOf(entries);
        this.archiveComment = archiveComment;
    }

    /** Reads every file of a directory or every entry of a jar, whichever {@code input} is. */
    public static ClassContainer read(Path input) throws ContainerException {
        return ContainerKind.ofInput(input) == ContainerKind.DIRECTORY ? readDirectory(input) : readJar(input);
    }

    private static ClassContainer readDirectory(Path directory) throws ContainerException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(Files::isRegularFile).collect(Collectors.toList());
        } catch (IOException failure) {
            throw ContainerException.of("cannot read input directory", directory, failure);
        } catch (UncheckedIOException failure) {
            throw ContainerException.of("cannot read input directory", directory, failure.getCause());
        }
        List<ContainerEntry> entries = new ArrayList<>();
        for (Path file : files) {
            try {
                entries.add(new ContainerEntry(entryName(directory.relativize(file)), Files.readAllBytes(file), null));
            } catch (IOException failure) {
                throw ContainerException.of("cannot read", file, failure);
            }
        }
        entries.sort(Comparator.comparing((ContainerEntry entry) -> !entry.name().equals(MANIFEST))
                .thenComparing(ContainerEntry::name));
        return new ClassContainer(directory, ContainerKind.DIRECTORY, entries, null);
    }

    private static String entryName(Path relativePath) {
        return StreamSupport.stream(relativePath.spliterator(), false).map(Path::toString)
                .collect(Collectors.joining("/"));
    }

    private static ClassContainer readJar(Path jar) throws ContainerException {
        List<ContainerEntry> entries = new ArrayList<>();
        Set<String> names = new HashSet<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> each = zip.entries(); each.hasMoreElements();) {
                ZipEntry entry = each.nextElement();
                if (!names.add(entry.getName())) {
                    throw new ContainerException("corrupt jar " + jar + ": duplicate entry " + entry.getName());
                }
                entries.add(new ContainerEntry(entry.getName(), readEntry(jar, zip, entry), entry));
            }
            return new ClassContainer(jar, ContainerKind.JAR, entries, zip.getComment());
        } catch (ZipException | EOFException failure) {
            throw new ContainerException("corrupt jar " + jar + ": " + ContainerException.reason(failure, jar), failure);
        } catch (IOException failure) {
            throw ContainerException.of("cannot read jar", jar, failure);
        }
    }

    private static byte[] readEntry(Path jar, ZipFile zip, ZipEntry entry) throws ContainerException {
        byte[] bytes;
        try (InputStream in = zip.getInputStream(entry)) {
            bytes = in.readAllBytes();
        } catch (IOException failure) {
            throw new ContainerException("corrupt jar " + jar + ": entry " + entry.getName() + ": "
                    + ContainerException.reason(failure, jar), failure);
        }
        CRC32 checksum = new CRC32();
        checksum.update(bytes);
        if (entry.getCrc() != -1 && entry.getCrc() != checksum.getValue()) {
            throw new ContainerException("corrupt jar " + jar + ": entry " + entry.getName()
                    + ": content does not match its checksum");
        }
        return bytes;
    }

    /** The directory or jar the files were read from. */
    public Path path() {
        return path;
    }

    public ContainerKind kind() {
        return kind;
    }

    /** Every file, classes and resources, in the order described above. */
    public List<ContainerEntry> entries() {
        return entries;
    }

    /** The comment of the jar as a whole, or null (always null for a directory). */
    public String archiveComment() {
        return archiveComment;
    }

    /** The class files for the transformer, in entry order; module descriptors are not among them. */
    public List<ClassInput> classInputs() {
        List<ClassInput> inputs = new ArrayList<>();
        for (ContainerEntry entry : entries) {
            if (entry.isClass()) {
                inputs.add(new ClassInput(sourceOf(entry), entry.bytes()));
            }
        }
        return inputs;
    }

    /** Where an entry came from, for messages: the file's path, or {@code input.jar!/com/x/Foo.class}. */
    public String sourceOf(ContainerEntry entry) {
        return kind == ContainerKind.DIRECTORY
                ? path.resolve(entry.name()).toString()
                : path + "!/" + entry.name();
    }

    /** The names of the jar signature files among the entries. */
    public List<String> signatureFiles() {
        return entries.stream().filter(ContainerEntry::isSignatureFile).map(ContainerEntry::name)
                .collect(Collectors.toList());
    }

    /**
     * The same files with the transformer's output in place of the classes. When any class changed, the jar
     * signature files are left out: the signature no longer matches, and a jar with a signature that does not
     * match cannot be loaded at all.
     *
     * @param outputs one output per {@link #classInputs() class input}, in the same order
     */
    public ClassContainer withTransformedClasses(List<ClassOutput> outputs) {
        List<ClassInput> inputs = classInputs();
        if (outputs.size() != inputs.size()) {
            throw new IllegalArgumentException("the transformer returned " + outputs.size() + " classes for "
                    + inputs.size() + " inputs");
        }
        boolean anyChanged = outputs.stream().anyMatch(ClassOutput::changed);
        Iterator<ClassOutput> nextOutput = outputs.iterator();
        List<ContainerEntry> rewritten = new ArrayList<>();
        for (ContainerEntry entry : entries) {
            if (entry.isClass()) {
                ClassOutput output = nextOutput.next();
                if (!output.source().equals(sourceOf(entry))) {
                    throw new IllegalArgumentException("the transformer returned " + output.source()
                            + " where " + sourceOf(entry) + " was expected");
                }
                rewritten.add(output.changed() ? entry.withBytes(output.bytes()) : entry);
            } else if (!(anyChanged && entry.isSignatureFile())) {
                rewritten.add(entry);
            }
        }
        return new ClassContainer(path, kind, rewritten, archiveComment);
    }
}
