package org.picothreads.transform.internal.emit;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Computes the stack map frames and maximums of rewritten methods with ASM's COMPUTE_FRAMES, common superclasses
 * answered by the hierarchy, never by loading. Two ways:
 *
 * <ul>
 * <li>{@link #classWriter} and {@link #writeWithFrames}: in the class's final write, method by method, while the
 * methods that need no change are copied byte for byte. The cheap way, and the usual one: it never fails part way
 * for a method whose {@link #maximumCodeSize} is at most {@link #SAFE_CODE_SIZE}, except when a type a frame needs is
 * missing (MissingClassException, thrown as the method is written).
 * <li>{@link #withFrames}: alone, in a scratch class written and read back with expanded frames, so that a method
 * that no longer fits in 64 KB (ASM's MethodTooLargeException) or needs a missing type is found before the class is
 * written, and can be rewritten another way.
 * </ul>
 */
public final class FrameComputer {
    /**
     * The largest code size for which a method is written in one pass: every jump offset fits in 16 bits, so ASM
     * never rewrites the class a second time with wide jumps (which would move the offsets the marker names).
     */
    public static final int SAFE_CODE_SIZE = Short.MAX_VALUE;

    private FrameComputer() {
    }

    /** The method with its frames and maximums, computed alone in a scratch class. */
    public static MethodNode withFrames(ClassNode owner, MethodNode method, ClassHierarchy hierarchy) {
        boolean hasFrames = hasFrames(owner.version);
        ClassWriter writer = new ClassWriter(hasFrames ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String first, String second) {
                return hierarchy.commonSuperClass(first, second);
            }
        };
        writer.visit(owner.version, owner.access, owner.name, null, owner.superName,
                owner.interfaces.toArray(new String[0]));
        method.accept(writer);
        writer.visitEnd();
        ClassNode scratch = new ClassNode(RuntimeNames.ASM_API);
        new ClassReader(writer.toByteArray()).accept(scratch, hasFrames ? ClassReader.EXPAND_FRAMES : 0);
        return scratch.methods.get(0);
    }

    /**
     * A writer for the class's final write that copies unchanged methods from {@code reader} byte for byte and, for
     * the methods given to {@link #writeWithFrames}, asks the hierarchy for common superclasses.
     */
    public static ClassWriter classWriter(ClassReader reader, ClassHierarchy hierarchy) {
        return new ClassWriter(reader, 0) {
            @Override
            protected String getCommonSuperClass(String first, String second) {
                return hierarchy.commonSuperClass(first, second);
            }
        };
    }

    /**
     * Writes the method into the class's writer, computing its frames (its maximums only, for a class file older
     * than Java 6) as it goes; the writer goes back to copying after it.
     */
    public static void writeWithFrames(ClassWriter writer, int classVersion, MethodNode method) {
        writer.setFlags(hasFrames(classVersion) ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS);
        try {
            method.accept(writer);
        } finally {
            writer.setFlags(0);
        }
    }

    /**
     * An upper bound of the method's code size in bytes, whatever constant pool indices and local variable numbers
     * its instructions get (each counted in its widest form, switches with their largest padding).
     */
    public static int maximumCodeSize(MethodNode method) {
        int size = 0;
        for (AbstractInsnNode instruction : method.instructions) {
            size += switch (instruction.getType()) {
                case AbstractInsnNode.LABEL, AbstractInsnNode.LINE, AbstractInsnNode.FRAME -> 0;
                case AbstractInsnNode.INSN -> 1;
                case AbstractInsnNode.VAR_INSN -> 4;
                case AbstractInsnNode.IINC_INSN -> 6;
                case AbstractInsnNode.TABLESWITCH_INSN -> 16 + 4 * ((TableSwitchInsnNode) instruction).labels.size();
                case AbstractInsnNode.LOOKUPSWITCH_INSN -> 12 + 8 * ((LookupSwitchInsnNode) instruction).labels.size();
                default -> 5;
            };
        }
        return size;
    }

    private static boolean hasFrames(int classVersion) {
        return (classVersion & 0xFFFF) >= Opcodes.V1_6;
    }
}
