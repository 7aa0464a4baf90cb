package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.picothreads.targets.lambdas.ThreadLambdas;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.testing.ClassListings;
import org.picothreads.transform.testing.ClassVerification;
import org.picothreads.transform.testing.GeneratedClassLoader;
import org.picothreads.transform.testing.TestClasspath;
import org.picothreads.transform.testing.TransformingClassLoader;

/** The validation harness itself: what it reads, what it reports, and how it loads the transformed classes. */
class HarnessTest {
    private static final String GENERATED_CLASS = "org.picothreads.generated.ReturnsValue";

    @Test
    void the_transformer_classpath_holds_the_test_classes_and_the_runtime() {
        List<Path> entries = TestClasspath.entries();
        Path testClasses = TestClasspath.testClassesDirectory();

        assertTrue(entries.contains(testClasses), () -> entries + " does not hold " + testClasses);
        assertTrue(entries.stream().anyMatch(HarnessTest::holdsTheRuntime),
                () -> entries + " does not hold the PicoThreads runtime");
        assertEquals(testClasses.getParent(), TestClasspath.buildDirectory());
    }

    @Test
    void every_class_file_of_a_target_package_and_its_nested_classes_is_read() {
        List<String> sources = TestClasspath.classFilesOf(List.of(ThreadLambdas.class.getPackageName() + ".")).stream()
                .map(ClassInput::source)
                .toList();

        assertTrue(sources.stream().anyMatch(source -> source.endsWith("ThreadLambdas.class")), sources::toString);
        assertTrue(sources.stream().anyMatch(source -> source.endsWith("ThreadLambdas$Step.class")), sources::toString);
        assertTrue(sources.stream().anyMatch(source -> source.endsWith("FunctionalInterfacesCalledDirectly.class")),
                sources::toString);
        assertEquals(3, sources.size(), sources::toString);
    }

    @Test
    void a_class_that_both_verifiers_reject_is_reported_by_each() {
        GeneratedClassLoader loader = new GeneratedClassLoader(Map.of(GENERATED_CLASS, brokenClass()));

        String asmProblems = ClassVerification.asmProblems(brokenClass(), loader);
        String jvmProblems = ClassVerification.jvmProblems(GENERATED_CLASS, loader);

        assertNotNull(asmProblems);
        assertTrue(asmProblems.contains("Expected I, but found Ljava/lang/String;"), asmProblems);
        assertNotNull(jvmProblems);
        assertTrue(jvmProblems.contains("VerifyError"), jvmProblems);
    }

    @Test
    void a_class_that_both_verifiers_accept_is_reported_by_neither() {
        byte[] valid = validClass();
        GeneratedClassLoader loader = new GeneratedClassLoader(Map.of(GENERATED_CLASS, valid));

        assertNull(ClassVerification.asmProblems(valid, loader));
        assertNull(ClassVerification.jvmProblems(GENERATED_CLASS, loader));
    }

    @Test
    void a_failure_listing_holds_the_problem_and_the_textifier_listings_of_both_classes() throws Exception {
        Path listing = ClassListings.writeFailure(
                GENERATED_CLASS, "the verifier's complaint", brokenClass(), validClass());

        assertEquals(TestClasspath.buildDirectory().resolve("verify-failures/" + GENERATED_CLASS + ".txt"), listing);
        String text = Files.readString(listing, StandardCharsets.UTF_8);
        assertTrue(text.contains("the verifier's complaint"), text);
        int rewritten = text.indexOf("==== rewritten class ====");
        int original = text.indexOf("==== original class ====");
        assertTrue(rewritten >= 0 && original > rewritten, text);
        assertTrue(text.substring(rewritten, original).contains("LDC \"text\""), text);
        assertTrue(text.substring(original).contains("ICONST_5"), text);
        Files.delete(listing);
    }

    @Test
    void transformed_classes_are_defined_by_the_transforming_loader_and_share_the_runtime() throws Exception {
        TransformingClassLoader loader =
                TransformingClassLoader.forPackages(ThreadLambdas.class.getPackageName() + ".");
        Class<?> transformed = loader.transformedCopyOf(ThreadLambdas.class);

        assertSame(loader, transformed.getClassLoader());
        assertSame(loader, Class.forName(ThreadLambdas.class.getName() + "$Step", false, loader).getClassLoader());
        String runtimeClass = "org.picothreads.runtime.internal.Capture";
        assertSame(Class.forName(runtimeClass), Class.forName(runtimeClass, false, loader));
        assertSame(String.class, Class.forName("java.lang.String", false, loader));
    }

    private static boolean holdsTheRuntime(Path entry) {
        String capture = "org/picothreads/runtime/internal/Capture.class";
        if (Files.isDirectory(entry)) {
            return Files.isRegularFile(entry.resolve(capture));
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            return jar.getEntry(capture) != null;
        } catch (IOException exception) {
            return false;
        }
    }

    /** {@code static int value()} that returns a string: both verifiers must reject it. */
    private static byte[] brokenClass() {
        return classReturning(method -> method.visitLdcInsn("text"));
    }

    /** {@code static int value()} that returns 5. */
    private static byte[] validClass() {
        return classReturning(method -> method.visitInsn(Opcodes.ICONST_5));
    }

    private static byte[] classReturning(Consumer<MethodVisitor> pushValue) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, GENERATED_CLASS.replace('.', '/'), null,
                "java/lang/Object", null);
        MethodVisitor method = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "value", "()I", null, null);
        method.visitCode();
        pushValue.accept(method);
        method.visitInsn(Opcodes.IRETURN);
        method.visitMaxs(1, 0);
        method.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
