package org.picothreads.transform.internal.emit;

import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.RuntimeNames;

/**
 * Makes each synchronized region that takes only the JVM monitor respect a PicoThread suspended inside a region on
 * the same object, which has given that JVM monitor up but still owns the object's runtime monitor. Right after
 * entering, the region reads the count of suspended holders; only when it is not zero does it ask the runtime, and
 * when another owner holds the runtime monitor it leaves the JVM monitor, blocks until the runtime monitor is free
 * and enters again:
 *
 * <pre>
 *   DUP; ASTORE lock; MONITORENTER      DUP; ASTORE lock; POP; GOTO retry
 *   body                          to    release:  (handler of [check, checked))  ALOAD lock; MONITOREXIT; ATHROW
 *                                       backOff:  ALOAD lock; Monitors.awaitUnowned(lock)
 *                                       retry:    ALOAD lock; MONITORENTER
 *                                       check:    GETSTATIC Monitors.suspendedHolders; IFEQ body
 *                                                 ALOAD lock; Monitors.mustBackOff(lock)
 *                                       checked:  IFEQ body
 *                                                 ALOAD lock; MONITOREXIT; GOTO backOff
 *                                       body:     body
 * </pre>
 *
 * The monitor stays balanced on every path, as HotSpot's JIT compilers require before they compile a method: the
 * MONITORENTER takes its object from the lock local, which both paths into {@code retry} leave holding the same
 * object, so the region's exits still match it; every instruction that can throw while the monitor is held is
 * covered by a catch-any handler that leaves it ({@code release}, first in the exception table); and the back-off
 * code sits where the region's entry was, under the same enclosing handlers.
 */
public final class ExclusionWeaver {
    private ExclusionWeaver() {
    }

    /** Weaves the check after the MONITORENTER of each region, given with the local that holds its lock object. */
    public static void weave(MethodNode method, Map<AbstractInsnNode, Integer> regions) {
        if (regions.isEmpty()) {
            return;
        }
        // The check's call has one argument; the entry reloads the lock after dropping javac's copy.
        method.maxStack = Math.max(method.maxStack, 1);
        regions.forEach((enter, lock) -> weaveRegion(method, enter, lock));
    }

    private static void weaveRegion(MethodNode method, AbstractInsnNode enter, int lock) {
        LabelNode release = new LabelNode();
        LabelNode backOff = new LabelNode();
        LabelNode retry = new LabelNode();
        LabelNode check = new LabelNode();
        LabelNode checked = new LabelNode();
        LabelNode body = new LabelNode();

        InsnList entry = new InsnList();
        // Stack: lock (javac's copy for the MONITORENTER)
        entry.add(new InsnNode(Opcodes.POP));
        entry.add(new JumpInsnNode(Opcodes.GOTO, retry));
        entry.add(release);
        // Stack: throwable
        entry.add(new VarInsnNode(Opcodes.ALOAD, lock));
        entry.add(new InsnNode(Opcodes.MONITOREXIT));
        entry.add(new InsnNode(Opcodes.ATHROW));
        entry.add(backOff);
        entry.add(new VarInsnNode(Opcodes.ALOAD, lock));
        entry.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.MONITORS, RuntimeNames.AWAIT_UNOWNED,
                RuntimeNames.AWAIT_UNOWNED_DESCRIPTOR, false));
        entry.add(retry);
        entry.add(new VarInsnNode(Opcodes.ALOAD, lock));
        // Stack: lock
        method.instructions.insertBefore(enter, entry);

        InsnList guard = new InsnList();
        guard.add(check);
        guard.add(new FieldInsnNode(Opcodes.GETSTATIC, RuntimeNames.MONITORS, RuntimeNames.SUSPENDED_HOLDERS_FIELD,
                RuntimeNames.SUSPENDED_HOLDERS_DESCRIPTOR));
        // Stack: count
        guard.add(new JumpInsnNode(Opcodes.IFEQ, body));
        guard.add(new VarInsnNode(Opcodes.ALOAD, lock));
        guard.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.MONITORS, RuntimeNames.MUST_BACK_OFF,
                RuntimeNames.MUST_BACK_OFF_DESCRIPTOR, false));
        guard.add(checked);
        // Stack: must back off
        guard.add(new JumpInsnNode(Opcodes.IFEQ, body));
        guard.add(new VarInsnNode(Opcodes.ALOAD, lock));
        guard.add(new InsnNode(Opcodes.MONITOREXIT));
        guard.add(new JumpInsnNode(Opcodes.GOTO, backOff));
        guard.add(body);
        method.instructions.insert(enter, guard);

        method.tryCatchBlocks.add(0, new TryCatchBlockNode(check, checked, release, null));
    }
}
