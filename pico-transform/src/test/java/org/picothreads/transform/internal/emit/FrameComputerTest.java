package org.picothreads.transform.internal.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.RuntimeNames;

class FrameComputerTest {
    private static ClassNode jdkClass(String internalName) throws Exception {
        try (InputStream in = Object.class.getResourceAsStream("/" + internalName + ".class")) {
            ClassNode node = new ClassNode(RuntimeNames.ASM_API);
            new ClassReader(in.readAllBytes()).accept(node, ClassReader.SKIP_FRAMES);
            return node;
        }
    }

    /** The method's code length as ASM writes it, read from a label placed after its last instruction. */
    private static int writtenCodeLength(ClassNode owner, MethodNode method) {
        LabelNode end = new LabelNode(new Label());
        method.instructions.add(end);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(owner.version, owner.access, owner.name, null, owner.superName, null);
        method.accept(writer);
        method.instructions.remove(end);
        return end.getLabel().getOffset();
    }

    @Test
    void the_maximum_code_size_bounds_every_method_of_large_jdk_classes() throws Exception {
        int methods = 0;
        for (String name : new String[] {"java/lang/String", "java/lang/Character", "java/util/HashMap",
            "java/util/concurrent/ConcurrentHashMap", "java/math/BigDecimal"}) {
            ClassNode owner = jdkClass(name);
            for (MethodNode method : owner.methods) {
                if (method.instructions.size() == 0) {
                    continue;
                }
                int written = writtenCodeLength(owner, method);
                int bound = FrameComputer.maximumCodeSize(method);
                assertTrue(written <= bound, name + "." + method.name + method.desc + ": " + written + " > " + bound);
                methods++;
            }
        }
        assertTrue(methods > 500, "methods checked: " + methods);
    }

    @Test
    void the_maximum_code_size_counts_a_local_beyond_255_in_its_wide_form() {
        MethodNode method = new MethodNode(Opcodes.ACC_STATIC, "m", "()V", null, null);
        method.instructions.add(new InsnNode(Opcodes.ICONST_0));
        method.instructions.add(new VarInsnNode(Opcodes.ISTORE, 300));
        method.instructions.add(new InsnNode(Opcodes.RETURN));
        ClassNode owner = new ClassNode();
        owner.version = Opcodes.V17;
        owner.name = "Owner";
        owner.superName = "java/lang/Object";

        assertEquals(1 + 4 + 1, writtenCodeLength(owner, method));
        assertEquals(1 + 4 + 1, FrameComputer.maximumCodeSize(method));
    }
}
