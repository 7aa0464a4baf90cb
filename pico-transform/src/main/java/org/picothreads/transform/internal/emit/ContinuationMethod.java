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
 * private static synthetic method of the same name that takes one more parameter (always null), so that it is a method
 * of its own that only the class's resume entry calls, while stack traces and line numbers after a resume read as the
 * method's. The parameter takes the slot after the method's own parameters, so every other local moves up by one. The
 * continuation of an instance method takes the receiver as its first parameter, in local 0 as in the method, and its
 * added parameter is of another type ({@link RuntimeNames#INSTANCE_CONTINUATION_PARAMETER}): being static, it needs no
 * receiver to be called, so a capture at a site after which the receiver is dead saves none and keeps none alive
 * across the call, and the resume entry passes null for it.
 *
 * <pre>
 * static String greet(String name, int times)                                  the method: its normal path only
 * private static synthetic String greet(String name, int times, Frame unused)  its continuation
 * int count(int limit)                                                         an instance method
 * private static synthetic int count(Owner this, int limit, Continuation unused)   its continuation
 * </pre>
 */
public final class ContinuationMethod {
    private ContinuationMethod() {
    }

    /**
     * The descriptor of the continuation of a method of {@code owner} of {@code descriptor}, static or not: the
     * method's parameters with the added one after them, and, for an instance method, the receiver before them.
     */
    public static String descriptor(String owner, String descriptor, boolean isStatic) {
        int close = descriptor.indexOf(')');
        if (isStatic) {
            return descriptor.substring(0, close) + RuntimeNames.CONTINUATION_PARAMETER + descriptor.substring(close);
        }
        return "(L" + owner + ";" + descriptor.substring(1, close) + RuntimeNames.INSTANCE_CONTINUATION_PARAMETER
                + descriptor.substring(close);
    }

    /** True when {@code descriptor} is that of the continuation of an instance method. */
    public static boolean isOfInstanceMethod(String descriptor) {
        return descriptor.contains(RuntimeNames.INSTANCE_CONTINUATION_PARAMETER + ")");
    }

    /**
     * The descriptor of the method whose continuation has {@code descriptor}, or null when {@code descriptor} does not
     * end its parameters with a continuation's parameter.
     */
    public static String methodDescriptor(String descriptor) {
        String last = RuntimeNames.CONTINUATION_PARAMETER + ")";
        int end = descriptor.indexOf(last);
        if (end >= 0) {
            return descriptor.substring(0, end) + descriptor.substring(end + last.length() - 1);
        }
        last = RuntimeNames.INSTANCE_CONTINUATION_PARAMETER + ")";
        end = descriptor.indexOf(last);
        if (end < 0 || !descriptor.startsWith("(L")) {
            return null;
        }
        int receiverEnd = descriptor.indexOf(';') + 1;
        return "(" + descriptor.substring(receiverEnd, end) + descriptor.substring(end + last.length() - 1);
    }

    /** Makes {@code method} of {@code owner}, already woven with its restore code, its continuation, in place. */
    public static void convert(String owner, MethodNode method) {
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
        method.desc = descriptor(owner, method.desc, isStatic);
        method.access = method.access & Opcodes.ACC_STRICT | Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE
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
