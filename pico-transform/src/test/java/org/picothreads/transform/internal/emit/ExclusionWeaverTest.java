package org.picothreads.transform.internal.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.analysis.SynchronizedRegions;
import org.picothreads.transform.testing.MethodListing;

/** The suspended-holder check woven after the entry of a region that takes only the JVM monitor. */
class ExclusionWeaverTest {
    @Test
    void a_region_of_javac_s_shape_checks_the_suspended_holders_after_its_monitorenter_and_can_back_off_and_retry() {
        MethodNode method = synchronizedIncrement();
        Map<AbstractInsnNode, Integer> regions = SynchronizedRegions.needingHolderCheck(method, Set.of());
        assertEquals(1, regions.size());
        assertEquals(1, regions.values().iterator().next());
        ExclusionWeaver.weave(method, regions);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 null
                    TRYCATCHBLOCK L3 L4 L5 null
                    ALOAD 0
                    DUP
                    ASTORE 1
                    POP
                    GOTO L6
                   L2
                    ALOAD 1
                    MONITOREXIT
                    ATHROW
                   L7
                    ALOAD 1
                    INVOKESTATIC org/picothreads/runtime/internal/Monitors.awaitUnowned (Ljava/lang/Object;)V
                   L6
                    ALOAD 1
                    MONITORENTER
                   L0
                    GETSTATIC org/picothreads/runtime/internal/Monitors.suspendedHolders : I
                    IFEQ L8
                    ALOAD 1
                    INVOKESTATIC org/picothreads/runtime/internal/Monitors.mustBackOff (Ljava/lang/Object;)Z
                   L1
                    IFEQ L8
                    ALOAD 1
                    MONITOREXIT
                    GOTO L7
                   L8
                   L3
                    GETSTATIC sample/Counter.count : I
                    ICONST_1
                    IADD
                    PUTSTATIC sample/Counter.count : I
                    ALOAD 1
                    MONITOREXIT
                   L4
                    RETURN
                   L5
                    ASTORE 2
                    ALOAD 1
                    MONITOREXIT
                    ALOAD 2
                    ATHROW
                    MAXSTACK = 2
                    MAXLOCALS = 3
                """, MethodListing.of(method));
    }

    @Test
    void a_region_given_a_runtime_monitor_gets_no_check() {
        MethodNode method = synchronizedIncrement();
        AbstractInsnNode enter = SynchronizedRegions.needingHolderCheck(method, Set.of()).keySet().iterator().next();
        assertEquals(Map.of(), SynchronizedRegions.needingHolderCheck(method, Set.of(enter)));
    }

    @Test
    void a_region_whose_lock_object_is_not_kept_in_a_local_gets_no_check() {
        MethodNode method = new MethodNode(Opcodes.ACC_STATIC, "enterFromTheStack", "(Ljava/lang/Object;)V", null,
                null);
        method.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
        method.instructions.add(new InsnNode(Opcodes.MONITORENTER));
        method.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
        method.instructions.add(new InsnNode(Opcodes.MONITOREXIT));
        method.instructions.add(new InsnNode(Opcodes.RETURN));
        assertEquals(Map.of(), SynchronizedRegions.needingHolderCheck(method, Set.of()));
    }

    /** {@code static void increment(Object lock) { synchronized (lock) { count++; } }} as javac compiles it. */
    private static MethodNode synchronizedIncrement() {
        MethodNode method = new MethodNode(Opcodes.ACC_STATIC, "increment", "(Ljava/lang/Object;)V", null, null);
        LabelNode from = new LabelNode();
        LabelNode to = new LabelNode();
        LabelNode handler = new LabelNode();
        method.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
        method.instructions.add(new InsnNode(Opcodes.DUP));
        method.instructions.add(new VarInsnNode(Opcodes.ASTORE, 1));
        method.instructions.add(new InsnNode(Opcodes.MONITORENTER));
        method.instructions.add(from);
        method.instructions.add(new FieldInsnNode(Opcodes.GETSTATIC, "sample/Counter", "count", "I"));
        method.instructions.add(new InsnNode(Opcodes.ICONST_1));
        method.instructions.add(new InsnNode(Opcodes.IADD));
        method.instructions.add(new FieldInsnNode(Opcodes.PUTSTATIC, "sample/Counter", "count", "I"));
        method.instructions.add(new VarInsnNode(Opcodes.ALOAD, 1));
        method.instructions.add(new InsnNode(Opcodes.MONITOREXIT));
        method.instructions.add(to);
        method.instructions.add(new InsnNode(Opcodes.RETURN));
        method.instructions.add(handler);
        method.instructions.add(new VarInsnNode(Opcodes.ASTORE, 2));
        method.instructions.add(new VarInsnNode(Opcodes.ALOAD, 1));
        method.instructions.add(new InsnNode(Opcodes.MONITOREXIT));
        method.instructions.add(new VarInsnNode(Opcodes.ALOAD, 2));
        method.instructions.add(new InsnNode(Opcodes.ATHROW));
        method.tryCatchBlocks.add(new TryCatchBlockNode(from, to, handler, null));
        method.maxStack = 2;
        method.maxLocals = 3;
        return method;
    }
}
