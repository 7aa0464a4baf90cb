package org.picothreads.transform.internal.emit;

import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Rewrites one method's references to the JDK members listed in {@link Redirects}: creating a replaced
 * type creates its runtime subclass, super calls of a direct subclass of a replaced type go to the runtime
 * subclass, and calls (and method handles) of redirected methods go to the runtime. The stack effect of
 * every instruction is unchanged, so the method's frames stay valid.
 */
public final class ReferenceRedirector extends MethodVisitor {
    private final Redirects redirects = Redirects.table();
    private final ClassHierarchy hierarchy;
    /** Counts the references rewritten so far. */
    private final int[] redirectedCount;

    public ReferenceRedirector(MethodVisitor next, ClassHierarchy hierarchy, int[] redirectedCount) {
        super(RuntimeNames.ASM_API, next);
        this.hierarchy = hierarchy;
        this.redirectedCount = redirectedCount;
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        String replacement = opcode == Opcodes.NEW ? redirects.replacementType(type) : null;
        if (replacement != null) {
            redirectedCount[0]++;
            super.visitTypeInsn(opcode, replacement);
            return;
        }
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        Redirects.Redirect redirect = redirects.forCall(opcode, owner, name, descriptor, hierarchy);
        if (redirect != null) {
            redirectedCount[0]++;
            super.visitMethodInsn(Opcodes.INVOKESTATIC, redirect.owner(), redirect.name(), redirect.descriptor(),
                    false);
            return;
        }
        String replacement = opcode == Opcodes.INVOKESPECIAL ? redirects.replacementType(owner) : null;
        if (replacement != null) {
            // A constructor of a replaced type, or a super call of one of its direct subclasses.
            redirectedCount[0]++;
            super.visitMethodInsn(opcode, replacement, name, descriptor, false);
            return;
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrapMethodHandle,
            Object... bootstrapMethodArguments) {
        Object[] arguments = bootstrapMethodArguments.clone();
        for (int index = 0; index < arguments.length; index++) {
            arguments[index] = redirectConstant(arguments[index]);
        }
        super.visitInvokeDynamicInsn(name, descriptor, bootstrapMethodHandle, arguments);
    }

    @Override
    public void visitLdcInsn(Object value) {
        super.visitLdcInsn(redirectConstant(value));
    }

    private Object redirectConstant(Object constant) {
        return constant instanceof Handle handle ? redirectHandle(handle) : constant;
    }

    private Handle redirectHandle(Handle handle) {
        int opcode = switch (handle.getTag()) {
            case Opcodes.H_INVOKESTATIC -> Opcodes.INVOKESTATIC;
            case Opcodes.H_INVOKEVIRTUAL -> Opcodes.INVOKEVIRTUAL;
            case Opcodes.H_INVOKEINTERFACE -> Opcodes.INVOKEINTERFACE;
            case Opcodes.H_INVOKESPECIAL, Opcodes.H_NEWINVOKESPECIAL -> Opcodes.INVOKESPECIAL;
            default -> -1;
        };
        if (opcode < 0) {
            return handle;
        }
        if (handle.getTag() == Opcodes.H_NEWINVOKESPECIAL) {
            String replacement = redirects.replacementType(handle.getOwner());
            if (replacement == null) {
                return handle;
            }
            redirectedCount[0]++;
            return new Handle(Opcodes.H_NEWINVOKESPECIAL, replacement, handle.getName(), handle.getDesc(), false);
        }
        Redirects.Redirect redirect = redirects.forCall(opcode, handle.getOwner(), handle.getName(),
                handle.getDesc(), hierarchy);
        if (redirect == null) {
            return handle;
        }
        redirectedCount[0]++;
        return new Handle(Opcodes.H_INVOKESTATIC, redirect.owner(), redirect.name(), redirect.descriptor(), false);
    }
}
