package org.picothreads.transform.internal.emit;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.picothreads.transform.internal.RuntimeNames;

/**
 * Surrounds a call that may block but cannot be captured with a pinned region, so that the thread blocks
 * in place below it instead of suspending through a frame that cannot be restored:
 *
 * <pre>
 *        Continuation.pin()
 *   from: INVOKE call
 *   to:   Continuation.unpin(); goto done
 *   any:  Continuation.unpin(); athrow      (handler for [from, to), first in the table)
 *   done:
 * </pre>
 *
 * The handler's code sits right after the call, inside every user try block that covers the call, so the
 * rethrown exception reaches exactly the handlers it would have reached.
 */
public final class PinWeaver {
    private PinWeaver() {
    }

    public static void pin(MethodNode method, MethodInsnNode call) {
        LabelNode from = new LabelNode();
        LabelNode to = new LabelNode();
        LabelNode handler = new LabelNode();
        LabelNode done = new LabelNode();
        InsnList before = new InsnList();
        before.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION, RuntimeNames.PIN, "()V", false));
        before.add(from);
        method.instructions.insertBefore(call, before);
        InsnList after = new InsnList();
        after.add(to);
        after.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION, RuntimeNames.UNPIN, "()V", false));
        after.add(new JumpInsnNode(Opcodes.GOTO, done));
        after.add(handler);
        // Stack: throwable
        after.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION, RuntimeNames.UNPIN, "()V", false));
        after.add(new InsnNode(Opcodes.ATHROW));
        after.add(done);
        method.instructions.insert(call, after);
        method.tryCatchBlocks.add(0, new TryCatchBlockNode(from, to, handler, null));
    }
}
