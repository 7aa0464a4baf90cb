package org.picothreads.transform.internal.emit;

import java.util.Map;
import java.util.SortedMap;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.RuntimeNames;

/**
 * Makes the resume entry of a class with capturing methods: the one method through which the runtime re-enters a
 * saved activation of any of them, calling the method's continuation ({@link ContinuationMethod}, private and
 * static, so an override never runs in its place) with its receiver (null where the activation saved none) and
 * default arguments; the continuation restores everything
 * else from its saved frame. The value it returns goes to the runtime, which hands it to the next saved activation.
 * A continuation captured again does not throw the capture signal out: its capture handler saves it and returns a
 * default value, and the runtime's hand-over answers true, which the entry returns; so the signal crosses no
 * compiled frame boundary on the way from a restored activation to the driver (each crossing costs HotSpot a
 * handler lookup). The entry still stops a signal that does come out of the continuation, and answers true.
 *
 * <pre>
 * private static synthetic boolean $picothreads$resume(Object receiver, int method) {
 *     Continuation.resumeEntryCalled();                  (refuses any caller but the runtime)
 *     try {
 *         switch (method) {
 *             case i: return Continuation.returnedUnlessCaptured(Owner.m_i((Owner) receiver, 0, null, ..., null), 'I');
 *             case j: Owner.s_j(0L, ..., null); return Continuation.returnedNothingUnlessCaptured();
 *                                                 (an instance method's continuation, and a static one's, void)
 *         }
 *     } catch (Capture signal) {
 *         return true;                                   (captured: its activations are saved)
 *     }
 *     throw new IllegalStateException(...)               (no capturing method of that index)
 * }
 * </pre>
 */
public final class ResumeEntryWeaver {
    private ResumeEntryWeaver() {
    }

    /** The resume entry of {@code owner} for its capturing methods' continuations by index, without frames. */
    public static MethodNode entry(ClassNode owner, SortedMap<Integer, MethodNode> capturingMethods) {
        boolean isInterface = (owner.access & Opcodes.ACC_INTERFACE) != 0;
        MethodNode entry = new MethodNode(RuntimeNames.ASM_API,
                Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, RuntimeNames.RESUME_ENTRY,
                RuntimeNames.RESUME_ENTRY_DESCRIPTOR, null, null);
        InsnList code = entry.instructions;
        code.add(entryCheckCall());
        int highest = capturingMethods.lastKey();
        LabelNode invalid = new LabelNode();
        LabelNode[] cases = new LabelNode[highest + 1];
        for (int index = 0; index <= highest; index++) {
            cases[index] = capturingMethods.containsKey(index) ? new LabelNode() : invalid;
        }
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode captured = new LabelNode();
        code.add(start);
        code.add(new VarInsnNode(Opcodes.ILOAD, 1));
        code.add(new TableSwitchInsnNode(0, highest, invalid, cases));
        for (Map.Entry<Integer, MethodNode> capturing : capturingMethods.entrySet()) {
            MethodNode method = capturing.getValue();
            boolean ofInstanceMethod = ContinuationMethod.isOfInstanceMethod(method.desc);
            code.add(cases[capturing.getKey()]);
            Type[] arguments = Type.getArgumentTypes(method.desc);
            if (ofInstanceMethod) {
                // the receiver, or null where the activation saved none (its continuation reads none)
                code.add(new VarInsnNode(Opcodes.ALOAD, 0));
                code.add(new TypeInsnNode(Opcodes.CHECKCAST, owner.name));
            }
            for (int index = ofInstanceMethod ? 1 : 0; index < arguments.length; index++) {
                code.add(new InsnNode(defaultValue(arguments[index])));
            }
            code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, owner.name, method.name, method.desc, isInterface));
            code.add(handOver(Type.getReturnType(method.desc)));
            code.add(new InsnNode(Opcodes.IRETURN));
        }
        code.add(end);
        code.add(invalid);
        code.add(new TypeInsnNode(Opcodes.NEW, "java/lang/IllegalStateException"));
        code.add(new InsnNode(Opcodes.DUP));
        code.add(new LdcInsnNode("PicoThreads: no capturing method of that index in " + owner.name));
        code.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>",
                "(Ljava/lang/String;)V", false));
        code.add(new InsnNode(Opcodes.ATHROW));
        code.add(captured);
        // Stack: the capture signal
        code.add(new InsnNode(Opcodes.POP));
        code.add(new InsnNode(Opcodes.ICONST_1));
        code.add(new InsnNode(Opcodes.IRETURN));
        entry.tryCatchBlocks.add(new TryCatchBlockNode(start, end, captured, RuntimeNames.CAPTURE));
        return entry;
    }

    /** The call of {@code Continuation.resumeEntryCalled()}, which refuses any caller but the restoring carrier. */
    private static AbstractInsnNode entryCheckCall() {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION, RuntimeNames.RESUME_ENTRY_CALLED,
                "()V", false);
    }

    /** The constant instruction of the zero or null of a type. */
    static int defaultValue(Type type) {
        return switch (type.getSort()) {
            case Type.LONG -> Opcodes.LCONST_0;
            case Type.FLOAT -> Opcodes.FCONST_0;
            case Type.DOUBLE -> Opcodes.DCONST_0;
            case Type.OBJECT, Type.ARRAY -> Opcodes.ACONST_NULL;
            default -> Opcodes.ICONST_0;
        };
    }

    /**
     * Stack: the value returned (or nothing) -> captured, having handed the value to the runtime unless the
     * continuation was captured again.
     */
    private static InsnList handOver(Type returnType) {
        InsnList code = new InsnList();
        switch (returnType.getSort()) {
            case Type.VOID -> {
                code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION,
                        RuntimeNames.RETURNED_NOTHING_UNLESS_CAPTURED,
                        RuntimeNames.RETURNED_NOTHING_UNLESS_CAPTURED_DESCRIPTOR, false));
                return code;
            }
            case Type.OBJECT, Type.ARRAY -> {
                code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION,
                        RuntimeNames.RETURNED_OBJECT_UNLESS_CAPTURED,
                        RuntimeNames.RETURNED_OBJECT_UNLESS_CAPTURED_DESCRIPTOR, false));
                return code;
            }
            case Type.LONG -> {
                // Stack: bits
            }
            case Type.FLOAT -> {
                code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I",
                        false));
                code.add(new InsnNode(Opcodes.I2L));
            }
            case Type.DOUBLE -> code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Double",
                    "doubleToRawLongBits", "(D)J", false));
            default -> code.add(new InsnNode(Opcodes.I2L));
        }
        // Stack: bits
        code.add(new IntInsnNode(Opcodes.BIPUSH, returnType.getDescriptor().charAt(0)));
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION,
                RuntimeNames.RETURNED_UNLESS_CAPTURED, RuntimeNames.RETURNED_UNLESS_CAPTURED_DESCRIPTOR, false));
        return code;
    }
}
