package org.picothreads.transform.internal.emit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.analysis.MethodFlow;

/**
 * Gives each synchronized region that can suspend a runtime monitor, held by the PicoThread across its
 * suspensions, taken before the JVM monitor and released before it:
 *
 * <pre>
 *   ...; DUP; ASTORE lock; MONITORENTER          ...; DUP; ASTORE lock; DUP; Monitors.enter(lock); MONITORENTER
 *   ...; ALOAD lock; MONITOREXIT           to    ...; ALOAD lock; ALOAD lock; Monitors.exit(lock); MONITOREXIT
 * </pre>
 *
 * The call of {@code Monitors.enter} is itself a suspension point (a thread waits there while another
 * owns the monitor). At the other suspension points inside the region, the capture handler releases the
 * JVM monitors held there and the restore code takes them again ({@link CaptureWeaver}). A region is
 * converted only when javac's shape tells which local holds its lock object.
 */
public final class MonitorWeaver {
    private MonitorWeaver() {
    }

    /**
     * The local holding the lock object of each region that must be converted because it encloses one of
     * the sites, by MONITORENTER instruction; null when a region enclosing a site does not have javac's shape.
     */
    public static Map<AbstractInsnNode, Integer> plan(MethodFlow flow, List<MethodInsnNode> sites) {
        Map<AbstractInsnNode, Integer> regions = new LinkedHashMap<>();
        for (MethodInsnNode site : sites) {
            for (AbstractInsnNode enter : flow.heldMonitorsBefore(site)) {
                if (!regions.containsKey(enter)) {
                    Integer lock = lockLocal(enter);
                    if (lock == null) {
                        return null;
                    }
                    regions.put(enter, lock);
                }
            }
        }
        return regions;
    }

    /**
     * Inserts the runtime monitor calls for the regions; returns the inserted {@code Monitors.enter} calls,
     * which are new suspension sites.
     */
    public static List<MethodInsnNode> weave(MethodNode method, MethodFlow flow, Map<AbstractInsnNode, Integer> regions) {
        Map<AbstractInsnNode, Integer> exits = new HashMap<>();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction.getOpcode() == Opcodes.MONITOREXIT) {
                List<AbstractInsnNode> held = flow.heldMonitorsBefore(instruction);
                if (!held.isEmpty() && regions.containsKey(held.get(held.size() - 1))) {
                    exits.put(instruction, regions.get(held.get(held.size() - 1)));
                }
            }
        }
        // Each runtime monitor call pushes one more copy of the lock.
        method.maxStack += 1;
        List<MethodInsnNode> enterCalls = new ArrayList<>();
        for (AbstractInsnNode enter : regions.keySet()) {
            MethodInsnNode call = monitorCall("enter");
            InsnList code = new InsnList();
            // Stack: lock
            code.add(new InsnNode(Opcodes.DUP));
            code.add(call);
            // Stack: lock
            method.instructions.insertBefore(enter, code);
            enterCalls.add(call);
        }
        exits.forEach((exit, lock) -> {
            InsnList code = new InsnList();
            // Stack: lock
            code.add(new VarInsnNode(Opcodes.ALOAD, lock));
            code.add(monitorCall("exit"));
            // Stack: lock
            method.instructions.insertBefore(exit, code);
        });
        return enterCalls;
    }

    private static MethodInsnNode monitorCall(String name) {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.MONITORS, name, "(Ljava/lang/Object;)V", false);
    }

    /** The local javac stored the lock object in just before the MONITORENTER ({@code DUP; ASTORE n}), or null. */
    private static Integer lockLocal(AbstractInsnNode enter) {
        AbstractInsnNode store = previousInstruction(enter);
        AbstractInsnNode duplicate = store == null ? null : previousInstruction(store);
        if (store == null || store.getOpcode() != Opcodes.ASTORE || duplicate == null
                || duplicate.getOpcode() != Opcodes.DUP) {
            return null;
        }
        return ((VarInsnNode) store).var;
    }

    private static AbstractInsnNode previousInstruction(AbstractInsnNode node) {
        AbstractInsnNode previous = node.getPrevious();
        while (previous != null && previous.getOpcode() < 0) {
            previous = previous.getPrevious();
        }
        return previous;
    }
}
