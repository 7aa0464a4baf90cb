package org.picothreads.transform.internal.emit;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Turns a synchronized method into the synchronized block javac would compile for its body, so that the
 * monitor rewrite treats both alike:
 *
 * <pre>
 *   synchronized m() { body }
 * becomes
 *   m() { lock = this (or Owner.class); MONITORENTER lock
 *         from: body, with MONITOREXIT lock before every return   to:
 *         any:  MONITOREXIT lock; athrow }      (catch-any for [from, to) but the returns, last in the table)
 * </pre>
 */
public final class SynchronizedMethodLowering {
    private SynchronizedMethodLowering() {
    }

    /**
     * Lowers the method in place; it must be lowerable
     * ({@link org.picothreads.transform.internal.analysis.SynchronizedRegions#canLowerMethod}).
     */
    public static void lower(ClassNode owner, MethodNode method) {
        int lock = method.maxLocals;
        method.maxLocals += 1;
        // The lock is pushed twice at entry, and once above a return value before each return.
        method.maxStack = Math.max(method.maxStack + 1, 2);
        LabelNode from = new LabelNode();
        LabelNode handler = new LabelNode();
        // The entry goes in first: the ranges below start at its last label.
        InsnList entry = new InsnList();
        if ((method.access & Opcodes.ACC_STATIC) != 0) {
            entry.add(new LdcInsnNode(Type.getObjectType(owner.name)));
        } else {
            entry.add(new VarInsnNode(Opcodes.ALOAD, 0));
        }
        // Stack: lock
        entry.add(new InsnNode(Opcodes.DUP));
        entry.add(new VarInsnNode(Opcodes.ASTORE, lock));
        entry.add(new InsnNode(Opcodes.MONITORENTER));
        entry.add(from);
        method.instructions.insert(entry);
        // Like javac, the protected ranges cover each MONITOREXIT before a return but not the return itself.
        List<TryCatchBlockNode> ranges = new ArrayList<>();
        LabelNode rangeStart = from;
        for (AbstractInsnNode instruction : method.instructions.toArray()) {
            int opcode = instruction.getOpcode();
            if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                LabelNode rangeEnd = new LabelNode();
                LabelNode afterReturn = new LabelNode();
                InsnList exit = new InsnList();
                exit.add(new VarInsnNode(Opcodes.ALOAD, lock));
                exit.add(new InsnNode(Opcodes.MONITOREXIT));
                exit.add(rangeEnd);
                method.instructions.insertBefore(instruction, exit);
                method.instructions.insert(instruction, afterReturn);
                if (containsInstructions(rangeStart, rangeEnd)) {
                    ranges.add(new TryCatchBlockNode(rangeStart, rangeEnd, handler, null));
                }
                rangeStart = afterReturn;
            }
        }
        LabelNode to = new LabelNode();
        InsnList release = new InsnList();
        release.add(to);
        release.add(handler);
        // Stack: throwable
        release.add(new VarInsnNode(Opcodes.ALOAD, lock));
        release.add(new InsnNode(Opcodes.MONITOREXIT));
        release.add(new InsnNode(Opcodes.ATHROW));
        method.instructions.add(release);
        if (containsInstructions(rangeStart, to)) {
            ranges.add(new TryCatchBlockNode(rangeStart, to, handler, null));
        }
        method.tryCatchBlocks.addAll(ranges);
        method.access &= ~Opcodes.ACC_SYNCHRONIZED;
    }

    /** True when a real instruction lies between the two labels (the class format forbids empty ranges). */
    private static boolean containsInstructions(LabelNode start, LabelNode end) {
        for (AbstractInsnNode node = start.getNext(); node != null && node != end; node = node.getNext()) {
            if (node.getOpcode() >= 0) {
                return true;
            }
        }
        return false;
    }
}
