package org.picothreads.transform.internal.emit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.analysis.MethodFlow;

/**
 * Gives each synchronized region that can suspend a runtime monitor, held by the PicoThread across its
 * suspensions, taken before the JVM monitor and released before it:
 *
 * <pre>
 *   ...; DUP; ASTORE lock; MONITORENTER          ...; DUP; ASTORE lock; Monitors.enter(lock); ALOAD lock; MONITORENTER
 *   ...; ALOAD lock; MONITOREXIT           to    ...; ALOAD lock; MONITOREXIT; ALOAD lock; Monitors.exit(lock)
 * </pre>
 *
 * The call of {@code Monitors.enter} is itself a suspension point (a thread waits there while another
 * owns the monitor). The monitors are released in the reverse order, the JVM's first. At the other suspension points inside the region, the capture handler releases the
 * JVM monitors held there and the restore code takes them again ({@link CaptureWeaver}). A region is
 * converted only when javac's shape tells which local holds its lock object.
 *
 * <p>The MONITORENTER always takes its object from the lock local, never from a copy left on the stack:
 * HotSpot's JIT compilers accept a method only when every MONITOREXIT provably releases the object of the
 * innermost MONITORENTER, which they track by value (their {@code GenerateOopMap}); a region entered with a
 * stack copy that paths from a restore merge into gets a value the exit's {@code ALOAD lock} does not match,
 * and the whole method is then never compiled. The restore code re-enters each region through this same
 * {@code ALOAD lock; MONITORENTER} ({@link CaptureWeaver}).
 */
public final class MonitorWeaver {
    private MonitorWeaver() {
    }

    /**
     * Inserts the runtime monitor calls for the regions, given with their lock locals (chosen by
     * {@link org.picothreads.transform.internal.analysis.MethodPlanner#regionsToConvert}); returns the inserted
     * {@code Monitors.enter} calls, which are new suspension sites.
     */
    public static List<MethodInsnNode> weave(MethodNode method, MethodFlow flow,
            Map<AbstractInsnNode, Integer> regions) {
        Map<AbstractInsnNode, Integer> exits = new HashMap<>();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction.getOpcode() == Opcodes.MONITOREXIT) {
                List<AbstractInsnNode> held = flow.heldMonitorsBefore(instruction);
                if (!held.isEmpty() && regions.containsKey(held.get(held.size() - 1))) {
                    exits.put(instruction, regions.get(held.get(held.size() - 1)));
                }
            }
        }
        // Each runtime monitor exit call pushes one more copy of the lock.
        method.maxStack += 1;
        List<MethodInsnNode> enterCalls = new ArrayList<>();
        regions.forEach((enter, lock) -> {
            MethodInsnNode call = monitorCall("enter");
            InsnList code = new InsnList();
            // Stack: lock
            code.add(call);
            // Stack: (empty, for javac's shape)
            code.add(new VarInsnNode(Opcodes.ALOAD, lock));
            // Stack: lock
            method.instructions.insertBefore(enter, code);
            enterCalls.add(call);
        });
        exits.forEach((exit, lock) -> {
            InsnList code = new InsnList();
            code.add(new VarInsnNode(Opcodes.ALOAD, lock));
            code.add(monitorCall("exit"));
            method.instructions.insert(afterRangeEnds(method, exit), code);
        });
        return enterCalls;
    }

    /**
     * Where the runtime monitor's exit goes after a MONITOREXIT: past the labels right after it that only end
     * exception ranges (javac's protected range of the block ends there, and its handler covers its own exit).
     * Outside those ranges, a failure of the call cannot run the block's handler again, and no handler covers an
     * instruction of its own first basic block that can throw, which HotSpot's C1 refuses to compile.
     */
    private static AbstractInsnNode afterRangeEnds(MethodNode method, AbstractInsnNode exit) {
        AbstractInsnNode position = exit;
        while (position.getNext() instanceof LabelNode label && onlyEndsRanges(method, label)) {
            position = label;
        }
        return position;
    }

    private static boolean onlyEndsRanges(MethodNode method, LabelNode label) {
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof JumpInsnNode jump && jump.label == label
                    || instruction instanceof TableSwitchInsnNode table
                            && (table.dflt == label || table.labels.contains(label))
                    || instruction instanceof LookupSwitchInsnNode lookup
                            && (lookup.dflt == label || lookup.labels.contains(label))) {
                return false;
            }
        }
        for (TryCatchBlockNode block : method.tryCatchBlocks) {
            if (block.start == label || block.handler == label) {
                return false;
            }
        }
        return true;
    }

    private static MethodInsnNode monitorCall(String name) {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.MONITORS, name, "(Ljava/lang/Object;)V", false);
    }
}
