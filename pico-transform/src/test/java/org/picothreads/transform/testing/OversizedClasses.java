package org.picothreads.transform.testing;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Makes a compiled class one that is a valid class file as it is but would not fit in one once rewritten. */
public final class OversizedClasses {
    /** The constant pool entries of a class {@link #nearlyFullConstantPool} returns. */
    public static final int CONSTANT_POOL_ENTRIES = 64_000;

    private OversizedClasses() {
    }

    /**
     * The class with 1,000 static methods {@code sleepsN()} that sleep, each of which the rewrite makes capturing,
     * and fields enough that its constant pool holds {@link #CONSTANT_POOL_ENTRIES} entries: the rewrite adds more
     * than 1,535.
     */
    public static byte[] nearlyFullConstantPool(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(writer, 0);
        for (int index = 0; index < 1000; index++) {
            MethodVisitor sleeps = writer.visitMethod(Opcodes.ACC_STATIC, "sleeps" + index, "()V", null, null);
            sleeps.visitCode();
            sleeps.visitInsn(Opcodes.LCONST_0);
            sleeps.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Thread", "sleep", "(J)V", false);
            sleeps.visitInsn(Opcodes.RETURN);
            sleeps.visitMaxs(2, 0);
            sleeps.visitEnd();
        }
        // The first field brings its descriptor into the pool; each other adds its name alone.
        writer.visitField(Opcodes.ACC_STATIC, "padding0", "I", null, null).visitEnd();
        int entries = new ClassReader(writer.toByteArray()).getItemCount();
        for (int index = 1; entries + index - 1 < CONSTANT_POOL_ENTRIES; index++) {
            writer.visitField(Opcodes.ACC_STATIC, "padding" + index, "I", null, null).visitEnd();
        }
        byte[] inflated = writer.toByteArray();
        int written = new ClassReader(inflated).getItemCount();
        if (written != CONSTANT_POOL_ENTRIES) {
            throw new IllegalStateException("the padded class has " + written + " constant pool entries, not "
                    + CONSTANT_POOL_ENTRIES);
        }
        return inflated;
    }
}
