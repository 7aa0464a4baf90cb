package org.picothreads.transform.internal.analysis;

import static org.picothreads.transform.internal.Instructions.previousInstruction;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Finds a method's synchronized regions by javac's shape ({@code DUP; ASTORE lock; MONITORENTER}), chooses the
 * ones that must check for a suspended holder after entering (every region that takes only the JVM monitor), and
 * tells when a region that can suspend locks an object that JDK code also locks, which that code's own
 * synchronized methods cannot be made to respect.
 */
public final class SynchronizedRegions {
    /** JDK classes whose own methods synchronize on the instance, by internal name. */
    private static final List<String> JDK_LOCKED_TYPES = List.of("java/lang/StringBuffer", "java/util/Vector",
            "java/util/Hashtable");
    /** The class whose static methods return wrappers that synchronize on themselves or on a given mutex. */
    private static final String COLLECTIONS = "java/util/Collections";
    private static final String SYNCHRONIZED_WRAPPER_PREFIX = "synchronized";

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

    /**
     * True when a synchronized method can be lowered to a synchronized block: an instance method, or a static one in
     * a class file that can load its Class as a constant (Java 5 or later).
     */
    public static boolean canLowerMethod(ClassNode owner, MethodNode method) {
        return (method.access & Opcodes.ACC_SYNCHRONIZED) != 0
                && ((method.access & Opcodes.ACC_STATIC) == 0 || (owner.version & 0xFFFF) >= Opcodes.V1_5);
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

    /**
     * In words, the object that JDK code also locks which the region entered at {@code enter} may lock, or null
     * when none can be seen: a value whose static type is a JDK class that synchronizes on its instances (or a
     * subclass), or a field of {@code owner} that some method of it sets from {@code Collections.synchronized*}.
     *
     * @param flow the analysis of the method before the region is converted
     */
    public static String jdkLockedMonitor(ClassNode owner, MethodFlow flow, AbstractInsnNode enter,
            ClassHierarchy hierarchy) {
        Frame<BasicValue> frame = flow.frameBefore(enter);
        if (frame != null && frame.getStackSize() > 0) {
            BasicValue lock = frame.getStack(frame.getStackSize() - 1);
            if (lock.getType() != null && lock.getType().getSort() == Type.OBJECT) {
                String type = lock.getType().getInternalName();
                for (String jdkType : JDK_LOCKED_TYPES) {
                    if (hierarchy.isSubtypeOf(type, jdkType)) {
                        return "a " + type.replace('/', '.');
                    }
                }
            }
        }
        AbstractInsnNode store = previousInstruction(enter);
        AbstractInsnNode duplicate = store == null ? null : previousInstruction(store);
        AbstractInsnNode load = duplicate == null ? null : previousInstruction(duplicate);
        if (load instanceof FieldInsnNode field && field.owner.equals(owner.name)
                && (field.getOpcode() == Opcodes.GETFIELD || field.getOpcode() == Opcodes.GETSTATIC)) {
            String wrapper = synchronizedWrapperFields(owner).get(field.name + field.desc);
            if (wrapper != null) {
                return "field " + owner.name.replace('/', '.') + "." + field.name + ", set from "
                        + COLLECTIONS.replace('/', '.') + "." + wrapper;
            }
        }
        return null;
    }

    /**
     * The fields of {@code owner} that one of its methods sets straight from a {@code Collections.synchronized*}
     * call, by name and descriptor, with that method's name.
     */
    private static Map<String, String> synchronizedWrapperFields(ClassNode owner) {
        Map<String, String> fields = new HashMap<>();
        for (MethodNode method : owner.methods) {
            for (AbstractInsnNode instruction : method.instructions) {
                if (instruction instanceof FieldInsnNode field && field.owner.equals(owner.name)
                        && (field.getOpcode() == Opcodes.PUTFIELD || field.getOpcode() == Opcodes.PUTSTATIC)
                        && previousInstruction(field) instanceof MethodInsnNode call
                        && call.getOpcode() == Opcodes.INVOKESTATIC && call.owner.equals(COLLECTIONS)
                        && call.name.startsWith(SYNCHRONIZED_WRAPPER_PREFIX)) {
                    fields.put(field.name + field.desc, call.name);
                }
            }
        }
        return fields;
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
}
