package org.picothreads.transform.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * The two verifications every rewritten class goes through: ASM's analysis with its SimpleVerifier, then the
 * JVM's own verifier. Each answers null when the class passes, or the complaint in words.
 */
public final class ClassVerification {
    private ClassVerification() {
    }

    /**
     * Checks a class file with ASM's {@link CheckClassAdapter#verify}: the structure, then a data-flow
     * analysis of every method with {@code SimpleVerifier}, which resolves the types it compares through
     * {@code loader}.
     *
     * @return null when ASM reports nothing, otherwise its report
     */
    public static String asmProblems(byte[] classFile, ClassLoader loader) {
        StringWriter report = new StringWriter();
        try (PrintWriter printer = new PrintWriter(report)) {
            CheckClassAdapter.verify(new ClassReader(classFile), loader, false, printer);
        } catch (RuntimeException | LinkageError exception) {
            report.append("ASM's check stopped with ").append(stackTrace(exception));
        }
        String problems = report.toString();
        return problems.isBlank() ? null : problems;
    }

    /**
     * Has the JVM verify a class by linking it: {@link Class#getDeclaredMethods} links the class first, and
     * classes defined by a custom class loader are verified when they are linked. The class is not initialized.
     *
     * @return null when the class links, otherwise the JVM's error with its stack trace
     */
    public static String jvmProblems(String binaryName, ClassLoader loader) {
        try {
            Class.forName(binaryName, false, loader).getDeclaredMethods();
            return null;
        } catch (ClassNotFoundException | LinkageError exception) {
            return "the JVM rejected the class: " + stackTrace(exception);
        }
    }

    private static String stackTrace(Throwable throwable) {
        StringWriter text = new StringWriter();
        try (PrintWriter printer = new PrintWriter(text)) {
            throwable.printStackTrace(printer);
        }
        return text.toString();
    }
}
