package org.picothreads.transform.internal.emit;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Computes the stack map frames and maximums of one rewritten method, by writing it alone into a scratch
 * class with ASM's COMPUTE_FRAMES (common superclasses answered by the hierarchy, never by loading) and
 * reading it back with expanded frames. The other methods of the class keep their original bytes.
 *
 * <p>Throws ASM's MethodTooLargeException when the rewritten method no longer fits in 64 KB, and
 * MissingClassException when a type needed for a frame cannot be found.
 */
public final class FrameComputer {
    private FrameComputer() {
    }

    public static MethodNode withFrames(ClassNode owner, MethodNode method, ClassHierarchy hierarchy) {
        boolean hasFrames = (owner.version & 0xFFFF) >= Opcodes.V1_6;
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
}
