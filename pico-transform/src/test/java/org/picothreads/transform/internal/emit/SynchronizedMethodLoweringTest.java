package org.picothreads.transform.internal.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.MethodListing.method;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.analysis.SynchronizedRegions;
import org.picothreads.transform.testing.MethodListing;

/** A synchronized method turned into the synchronized block javac would compile for its body. */
class SynchronizedMethodLoweringTest {
    @Test
    void a_synchronized_instance_method_locks_this_in_a_local_and_releases_it_before_its_return_and_on_a_throw() {
        MethodNode method = twice(Opcodes.ACC_SYNCHRONIZED);
        ClassNode owner = MethodListing.owner(method);
        assertTrue(SynchronizedRegions.canLowerMethod(owner, method));
        SynchronizedMethodLowering.lower(owner, method);
        assertEquals(0, method.access & Opcodes.ACC_SYNCHRONIZED);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 null
                    ALOAD 0
                    DUP
                    ASTORE 2
                    MONITORENTER
                   L0
                    ILOAD 1
                    ICONST_2
                    IMUL
                    ALOAD 2
                    MONITOREXIT
                   L1
                    IRETURN
                   L3
                   L4
                   L2
                    ALOAD 2
                    MONITOREXIT
                    ATHROW
                    MAXSTACK = 3
                    MAXLOCALS = 3
                """, MethodListing.of(method));
    }

    @Test
    void a_static_synchronized_method_locks_its_class_loaded_as_a_constant() {
        MethodNode method = method(Opcodes.ACC_STATIC | Opcodes.ACC_SYNCHRONIZED, "nothing", "()V", 0, 0,
                new InsnNode(Opcodes.RETURN));
        SynchronizedMethodLowering.lower(MethodListing.owner(method), method);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 null
                    LDC Lsample/Sample;.class
                    DUP
                    ASTORE 0
                    MONITORENTER
                   L0
                    ALOAD 0
                    MONITOREXIT
                   L1
                    RETURN
                   L3
                   L4
                   L2
                    ALOAD 0
                    MONITOREXIT
                    ATHROW
                    MAXSTACK = 2
                    MAXLOCALS = 1
                """, MethodListing.of(method));
    }

    @Test
    void a_static_synchronized_method_of_a_class_file_older_than_java_5_cannot_be_lowered() {
        MethodNode method = method(Opcodes.ACC_STATIC | Opcodes.ACC_SYNCHRONIZED, "nothing", "()V", 0, 0,
                new InsnNode(Opcodes.RETURN));
        ClassNode owner = MethodListing.owner(method);
        owner.version = Opcodes.V1_4;
        assertFalse(SynchronizedRegions.canLowerMethod(owner, method));
    }

    /** {@code int twice(int value) { return value * 2; }} with the given extra access. */
    private static MethodNode twice(int access) {
        return method(access, "twice", "(I)I", 2, 2, new VarInsnNode(Opcodes.ILOAD, 1), new InsnNode(Opcodes.ICONST_2),
                new InsnNode(Opcodes.IMUL), new InsnNode(Opcodes.IRETURN));
    }
}
