package org.picothreads.transform.internal;

import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.LineNumberNode;

/** Where an instruction stands in its method's code: the real instruction before it and its source line. */
public final class Instructions {
    private Instructions() {
    }

    /** The real instruction before {@code node}, past labels, line numbers and frames; null at the start. */
    public static AbstractInsnNode previousInstruction(AbstractInsnNode node) {
        AbstractInsnNode previous = node.getPrevious();
        while (previous != null && previous.getOpcode() < 0) {
            previous = previous.getPrevious();
        }
        return previous;
    }

    /** The source line of the instruction, from the nearest preceding line number entry, or -1. */
    public static int lineOf(AbstractInsnNode instruction) {
        for (AbstractInsnNode node = instruction; node != null; node = node.getPrevious()) {
            if (node instanceof LineNumberNode line) {
                return line.line;
            }
        }
        return -1;
    }
}
