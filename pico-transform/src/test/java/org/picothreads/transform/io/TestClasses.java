package org.picothreads.transform.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.ModuleVisitor;
import org.objectweb.asm.Opcodes;

/** Class files made at test time, with ASM or with the system Java compiler, so that no binary fixture is checked in. */
public final class TestClasses {
    private TestClasses() {
    }

    /** A public class with a constructor and {@code int answer()} returning 42, and no use of threads. */
    public static byte[] plainClass(String internalName) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor constructor = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        constructor.visitCode();
        constructor.visitVarInsn(Opcodes.ALOAD, 0);
        constructor.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        constructor.visitInsn(Opcodes.RETURN);
        constructor.visitMaxs(0, 0);
        constructor.visitEnd();
        MethodVisitor answer = writer.visitMethod(Opcodes.ACC_PUBLIC, "answer", "()I", null, null);
        answer.visitCode();
        answer.visitIntInsn(Opcodes.BIPUSH, 42);
        answer.visitInsn(Opcodes.IRETURN);
        answer.visitMaxs(0, 0);
        answer.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** A module descriptor for a module that requires only java.base. */
    public static byte[] moduleInfo(String moduleName) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_MODULE, "module-info", null, null, null);
        ModuleVisitor module = writer.visitModule(moduleName, 0, null);
        module.visitRequire("java.base", Opcodes.ACC_MANDATED, null);
        module.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /**
     * Compiles Java sources, given as fully qualified class name to source text, and returns the class files by
     * their path relative to the output directory, for example {@code com/example/Starter.class}.
     */
    public static Map<String, byte[]> compile(Path workDirectory, Map<String, String> sources) {
        try {
            Path sourceDirectory = Files.createDirectories(workDirectory.resolve("sources"));
            Path classDirectory = Files.createDirectories(workDirectory.resolve("classes"));
            List<String> arguments = new ArrayList<>(List.of("--release", "17", "-d", classDirectory.toString()));
            for (Map.Entry<String, String> source : sources.entrySet()) {
                Path file = sourceDirectory.resolve(source.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, source.getValue());
                arguments.add(file.toString());
            }
            JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
            int status = compiler.run(null, null, null, arguments.toArray(String[]::new));
            if (status != 0) {
                throw new IllegalStateException("javac failed with status " + status);
            }
            return TestFiles.readTree(classDirectory);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
