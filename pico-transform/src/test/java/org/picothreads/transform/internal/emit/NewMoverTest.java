package org.picothreads.transform.internal.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.MethodListing.method;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.analysis.MethodFlow;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.testing.MethodListing;

/** Object creations moved after constructor arguments that can suspend. */
class NewMoverTest {
    @Test
    void a_creation_whose_constructor_argument_can_suspend_moves_after_the_argument_kept_in_a_new_local()
            throws Exception {
        MethodInsnNode site = take();
        MethodNode method = method(Opcodes.ACC_STATIC, "builder", "(Ljava/lang/String;)Ljava/lang/Object;", 3, 1,
                new TypeInsnNode(Opcodes.NEW, "java/lang/StringBuilder"), new InsnNode(Opcodes.DUP),
                new VarInsnNode(Opcodes.ALOAD, 0), site,
                new MethodInsnNode(Opcodes.INVOKESPECIAL, "java/lang/StringBuilder", "<init>", "(I)V", false),
                new InsnNode(Opcodes.ARETURN));
        assertTrue(move(method, site));
        assertEquals("""
                    ALOAD 0
                    INVOKESTATIC sample/Blocking.take (Ljava/lang/String;)I
                    ISTORE 1
                    NEW java/lang/StringBuilder
                    DUP
                    ILOAD 1
                    INVOKESPECIAL java/lang/StringBuilder.<init> (I)V
                    ARETURN
                    MAXSTACK = 3
                    MAXLOCALS = 2
                """, MethodListing.of(method));
    }

    @Test
    void a_creation_without_javac_s_new_dup_shape_is_left_alone() throws Exception {
        MethodInsnNode site = take();
        MethodNode method = method(Opcodes.ACC_STATIC, "builder", "(Ljava/lang/String;)V", 3, 1,
                new TypeInsnNode(Opcodes.NEW, "java/lang/StringBuilder"), new VarInsnNode(Opcodes.ALOAD, 0), site,
                new InsnNode(Opcodes.POP), new InsnNode(Opcodes.POP), new InsnNode(Opcodes.RETURN));
        String before = MethodListing.of(method);
        assertFalse(move(method, site));
        assertEquals(before, MethodListing.of(method));
    }

    /** {@code static int take(String)}, the call that can suspend. */
    private static MethodInsnNode take() {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, "sample/Blocking", "take", "(Ljava/lang/String;)I", false);
    }

    private static boolean move(MethodNode method, MethodInsnNode site) throws Exception {
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            MethodFlow flow = MethodFlow.analyze(MethodListing.owner(method), method, hierarchy);
            return NewMover.moveCreations(method, flow, List.of(site));
        }
    }
}
