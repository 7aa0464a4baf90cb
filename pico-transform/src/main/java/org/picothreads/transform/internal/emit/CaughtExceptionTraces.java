package org.picothreads.transform.internal.emit;

import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.picothreads.transform.internal.RuntimeNames;

/**
 * Makes each typed exception handler of a continuation hand the exception it caught to the runtime first, so that an
 * exception made since the lazy resume, whose stack trace the JVM filled from the carrier's stack down to the
 * driver, gets the activations still saved below (the runtime's {@code Continuation.caughtAfterResume}):
 *
 * <pre>
 * handler:  (the caught exception on the stack)
 *           DUP
 *           LDC "Owner.method(descriptor)"
 *           INVOKESTATIC Continuation.caughtAfterResume(Throwable, String)V
 *           ... the handler's own code
 * </pre>
 *
 * Only the continuation gets it, which only a lazy resume enters: the method's normal path and its size for the
 * JIT stay as they were. Handlers of the capture signal and catch-all handlers ({@code finally}, the JVM monitor's
 * release) are left as they are; an exception they let through is completed where it is caught or at the driver.
 */
public final class CaughtExceptionTraces {
    private CaughtExceptionTraces() {
    }

    /** Weaves the call into every typed handler of {@code continuation}, a continuation of the method {@code key}. */
    public static void weave(MethodNode continuation, String key) {
        Set<LabelNode> handlers = new HashSet<>();
        for (TryCatchBlockNode block : continuation.tryCatchBlocks) {
            if (block.type != null && !block.type.equals(RuntimeNames.CAPTURE) && handlers.add(block.handler)) {
                continuation.instructions.insert(entryOf(block.handler), call(key));
            }
        }
        if (!handlers.isEmpty()) {
            continuation.maxStack += 2;
        }
    }

    /** The node after which the handler's own code starts: its label, or the line number or frame just after it. */
    private static AbstractInsnNode entryOf(LabelNode handler) {
        AbstractInsnNode entry = handler;
        while (entry.getNext() != null && entry.getNext().getOpcode() < 0
                && !(entry.getNext() instanceof LabelNode)) {
            entry = entry.getNext();
        }
        return entry;
    }

    private static InsnList call(String key) {
        InsnList call = new InsnList();
        call.add(new InsnNode(Opcodes.DUP));
        call.add(new LdcInsnNode(key));
        call.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION, RuntimeNames.CAUGHT_AFTER_RESUME,
                RuntimeNames.CAUGHT_AFTER_RESUME_DESCRIPTOR, false));
        return call;
    }
}
