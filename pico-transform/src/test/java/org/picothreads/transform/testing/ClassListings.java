package org.picothreads.transform.testing;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceClassVisitor;

/**
 * Writes what a reader needs to understand a verification failure: the verifier's complaint, then ASM's
 * Textifier listing of the rewritten class and of the original, to
 * {@code <build directory>/verify-failures/<binary class name>.txt}.
 */
public final class ClassListings {
    private ClassListings() {
    }

    /** The directory the failure listings go to. */
    public static Path failureDirectory() {
        return TestClasspath.buildDirectory().resolve("verify-failures");
    }

    /**
     * Writes the failure listing of one class and returns its path.
     *
     * @param binaryName the class name, for example {@code org.picothreads.targets.lambdas.ThreadLambdas}
     * @param problem    what the verifier said
     * @param rewritten  the class file the transformer produced
     * @param original   the class file the transformer was given
     */
    public static Path writeFailure(String binaryName, String problem, byte[] rewritten, byte[] original) {
        StringBuilder text = new StringBuilder();
        text.append("Verification of the rewritten class ").append(binaryName).append(" failed:\n\n");
        text.append(problem.strip()).append("\n\n");
        text.append("==== rewritten class ====\n").append(listing(rewritten)).append('\n');
        text.append("==== original class ====\n").append(listing(original));
        Path file = failureDirectory().resolve(binaryName + ".txt");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException exception) {
            throw new UncheckedIOException("cannot write the verification failure listing " + file, exception);
        }
        return file;
    }

    /** ASM's Textifier listing of a class file, or the reason it cannot be read. */
    public static String listing(byte[] classFile) {
        StringWriter text = new StringWriter();
        try (PrintWriter printer = new PrintWriter(text)) {
            new ClassReader(classFile).accept(new TraceClassVisitor(null, new Textifier(), printer), 0);
        } catch (RuntimeException exception) {
            return text + "\n(ASM could not read the rest of the class: " + exception + ")\n";
        }
        return text.toString();
    }
}
