package org.picothreads.transform.io;

import java.util.Locale;
import java.util.Objects;
import java.util.zip.ZipEntry;

/**
 * One file of an input, a class or a resource, with the jar entry it was read from so that it can be written
 * back with the same name, comment, timestamps and compression method.
 *
 * @param name         the path inside the input with {@code /} separators, for example {@code com/x/Foo.class};
 *                     a jar's directory entries end in {@code /}
 * @param bytes        the file's content
 * @param archiveEntry the entry as the input jar holds it, or null when the input is a directory
 */
public record ContainerEntry(String name, byte[] bytes, ZipEntry archiveEntry) {
    private static final String MODULE_INFO = "module-info.class";

    public ContainerEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bytes, "bytes");
    }

    /** True for a jar's directory entry, which has no content. */
    public boolean isDirectory() {
        return name.endsWith("/");
    }

    /** True for a class file that goes to the transformer: any {@code .class} file but a module descriptor. */
    public boolean isClass() {
        return name.endsWith(".class") && !isModuleInfo();
    }

    /** True for {@code module-info.class}, at the top or in a multi-release jar's version directory. */
    public boolean isModuleInfo() {
        return name.equals(MODULE_INFO) || name.endsWith("/" + MODULE_INFO);
    }

    /**
     * True for a file of a jar signature, which rewriting any class invalidates: {@code META-INF/*.SF} and the
     * signature blocks {@code META-INF/*.RSA}, {@code *.DSA}, {@code *.EC} and {@code SIG-*}.
     */
    public boolean isSignatureFile() {
        String upperCase = name.toUpperCase(Locale.ROOT);
        if (!upperCase.startsWith("META-INF/") || upperCase.indexOf('/', "META-INF/".length()) >= 0) {
            return false;
        }
        String fileName = upperCase.substring("META-INF/".length());
        return fileName.endsWith(".SF") || fileName.endsWith(".RSA") || fileName.endsWith(".DSA")
                || fileName.endsWith(".EC") || fileName.startsWith("SIG-");
    }

    /** The same entry with other content. */
    public ContainerEntry withBytes(byte[] replacement) {
        return new ContainerEntry(name, replacement, archiveEntry);
    }
}
