package org.picothreads.transform.internal.emit;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.RuntimeNames;

/**
 * Turns a method woven with its restore code ({@link CaptureWeaver#weaveContinuation}) into its continuation: a
 * private synthetic method of the same name that takes one more parameter ({@link RuntimeNames#CONTINUATION_PARAMETER},
 * always null), so that it is a method of its own that only the class's resume entry calls, while stack traces and
 * line numbers after a resume read as the method's. The parameter takes the slot after the method's own parameters,
 * so every other local moves up by one.
 *
 * <pre>
 * static String greet(String name, int times)                       the method: its normal path only
 * private static synthetic String greet(String name, int times, Frame unused)   its continuation
 * </pre>
 */
public final class ContinuationMethod {
    private ContinuationMethod() {
    }

    /** The descriptor of the continuation of a method of {@code descriptor}. */
    public static String descriptor(String descriptor) {
        int close = descriptor.indexOf(')');
        return descriptor.substring(0, close) + RuntimeNames.CONTINUATION_PARAMETER + descriptor.substring(close);
    }

    /**
     * The descriptor of the method whose continuation has {@code descriptor}, or null when {@code descriptor} does not
     * end its parameters with the continuation's parameter.
     */
    public static String methodDescriptor(String descriptor) {
        String last = RuntimeNames.CONTINUATION_PARAMETER + ")";
        int end = descriptor.indexOf(last);
        return end < 0 ? null : descriptor.substring(0, end) + descriptor.substring(end + last.length() - 1);
    }

    /** Makes {@code method}, already woven with its restore code, its continuation, in place. */
    public static void convert(MethodNode method) {
        boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
        int added = (Type.getArgumentsAndReturnSizes(method.desc) >> 2) - (isStatic ? 1 : 0);
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof VarInsnNode variable && variable.var >= added) {
                variable.var++;
            } else if (instruction instanceof IincInsnNode increment && increment.var >= added) {
                increment.var++;
            }
        }
        if (method.localVariables != null) {
            for (LocalVariableNode variable : method.localVariables) {
                if (variable.index >= added) {
                    variable.index++;
                }
            }
        }
        method.maxLocals++;
        method.desc = descriptor(method.desc);
        method.access = method.access & (Opcodes.ACC_STATIC | Opcodes.ACC_STRICT) | Opcodes.ACC_PRIVATE
                | Opcodes.ACC_SYNTHETIC;
        method.signature = null;
        method.parameters = null;
        method.visibleAnnotations = null;
        method.invisibleAnnotations = null;
        method.visibleTypeAnnotations = null;
        method.invisibleTypeAnnotations = null;
        method.visibleParameterAnnotations = null;
        method.invisibleParameterAnnotations = null;
        method.visibleAnnotableParameterCount = 0;
        method.invisibleAnnotableParameterCount = 0;
        method.visibleLocalVariableAnnotations = null;
        method.invisibleLocalVariableAnnotations = null;
        method.annotationDefault = null;
    }
}
