package org.picothreads.transform.internal.analysis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Finds a method's synchronized regions by javac's shape ({@code DUP; ASTORE lock; MONITORENTER}) and chooses the
 * ones that must check for a suspended holder after entering: every region that takes only the JVM monitor.
 */
public final class SynchronizedRegions {
    private SynchronizedRegions() {
    }

    /**
     * The regions that need the suspended-holder check, as the local holding each one's lock object by
     * MONITORENTER instruction, in code order: the regions of javac's shape not among {@code suspending} (the ones
     * given a runtime monitor, which a suspended holder's own regions respect already).
     */
    public static Map<AbstractInsnNode, Integer> needingHolderCheck(MethodNode method,
            Set<AbstractInsnNode> suspending) {
        Map<AbstractInsnNode, Integer> regions = new LinkedHashMap<>();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction.getOpcode() == Opcodes.MONITORENTER && !suspending.contains(instruction)) {
                Integer lock = lockLocal(instruction);
                if (lock != null) {
                    regions.put(instruction, lock);
                }
            }
        }
        return regions;
    }

    /** True when the method has a MONITORENTER or is synchronized, so that it may need the check. */
    public static boolean mayNeedHolderCheck(MethodNode method) {
        if ((method.access & Opcodes.ACC_SYNCHRONIZED) != 0) {
            return true;
        }
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction.getOpcode() == Opcodes.MONITORENTER) {
                return true;
            }
        }
        return false;
    }

    /** The local javac stored the lock object in just before the MONITORENTER ({@code DUP; ASTORE n}), or null. */
    public static Integer lockLocal(AbstractInsnNode enter) {
        AbstractInsnNode store = previousInstruction(enter);
        AbstractInsnNode duplicate = store == null ? null : previousInstruction(store);
        if (store == null || store.getOpcode() != Opcodes.ASTORE || duplicate == null
                || duplicate.getOpcode() != Opcodes.DUP) {
            return null;
        }
        return ((VarInsnNode) store).var;
    }

    /** The real instruction before {@code node}, past labels, line numbers and frames; null at the start. */
    private static AbstractInsnNode previousInstruction(AbstractInsnNode node) {
        AbstractInsnNode previous = node.getPrevious();
        while (previous != null && previous.getOpcode() < 0) {
            previous = previous.getPrevious();
        }
        return previous;
    }
}
