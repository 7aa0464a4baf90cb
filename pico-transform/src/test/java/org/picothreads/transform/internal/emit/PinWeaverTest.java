package org.picothreads.transform.internal.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.transform.testing.MethodListing.method;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.testing.MethodListing;

/** The pinned region woven around a call that may block but cannot be captured. */
class PinWeaverTest {
    @Test
    void a_pinned_call_runs_between_pin_and_unpin_and_a_handler_first_in_the_table_unpins_and_rethrows() {
        MethodInsnNode call = new MethodInsnNode(Opcodes.INVOKESTATIC, "sample/Blocking", "take", "()V", false);
        MethodNode method = method(Opcodes.ACC_STATIC, "nap", "()V", 0, 0, call, new InsnNode(Opcodes.RETURN));
        PinWeaver.pin(method, call);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 null
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.pin ()V
                   L0
                    INVOKESTATIC sample/Blocking.take ()V
                   L1
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.unpin ()V
                    GOTO L3
                   L2
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.unpin ()V
                    ATHROW
                   L3
                    RETURN
                    MAXSTACK = 0
                    MAXLOCALS = 0
                """, MethodListing.of(method));
    }
}
