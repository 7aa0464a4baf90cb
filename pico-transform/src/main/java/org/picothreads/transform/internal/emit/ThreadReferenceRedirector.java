package org.picothreads.transform.internal.emit;

import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Rewrites one method's references to java.lang.Thread so that they reach the runtime: {@code new Thread}
 * becomes {@code new PicoThread}, super calls of a direct Thread subclass go to PicoThread, and calls (and
 * method handles) of Thread's static and final methods go to ThreadCalls. The stack shape of every
 * instruction is unchanged, so the method's frames stay valid.
 */
public final class ThreadReferenceRedirector extends MethodVisitor {
    private final ClassHierarchy hierarchy;
    /** Counts the references rewritten so far, shared by all the methods of one class. */
    private final int[] redirectedCount;

    public ThreadReferenceRedirector(MethodVisitor next, ClassHierarchy hierarchy, int[] redirectedCount) {
        super(RuntimeNames.ASM_API, next);
        this.hierarchy = hierarchy;
        this.redirectedCount = redirectedCount;
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        if (opcode == Opcodes.NEW && type.equals(RuntimeNames.THREAD)) {
            redirectedCount[0]++;
            super.visitTypeInsn(opcode, RuntimeNames.PICO_THREAD);
            return;
        }
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        ThreadRedirects.Redirect redirect = ThreadRedirects.forCall(opcode, owner, name, descriptor, hierarchy);
        if (redirect != null) {
            redirectedCount[0]++;
            super.visitMethodInsn(Opcodes.INVOKESTATIC, RuntimeNames.THREAD_CALLS, redirect.runtimeName(),
                    redirect.runtimeDescriptor(), false);
            return;
        }
        if (opcode == Opcodes.INVOKESPECIAL && owner.equals(RuntimeNames.THREAD)) {
            redirectedCount[0]++;
            super.visitMethodInsn(opcode, RuntimeNames.PICO_THREAD, name, descriptor, false);
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
        switch (handle.getTag()) {
            case Opcodes.H_INVOKESTATIC, Opcodes.H_INVOKEVIRTUAL, Opcodes.H_INVOKESPECIAL -> {
                int opcode = handle.getTag() == Opcodes.H_INVOKESTATIC ? Opcodes.INVOKESTATIC
                        : handle.getTag() == Opcodes.H_INVOKEVIRTUAL ? Opcodes.INVOKEVIRTUAL : Opcodes.INVOKESPECIAL;
                ThreadRedirects.Redirect redirect = ThreadRedirects.forCall(opcode, handle.getOwner(),
                        handle.getName(), handle.getDesc(), hierarchy);
                if (redirect != null) {
                    redirectedCount[0]++;
                    return new Handle(Opcodes.H_INVOKESTATIC, RuntimeNames.THREAD_CALLS, redirect.runtimeName(),
                            redirect.runtimeDescriptor(), false);
                }
                return handle;
            }
            case Opcodes.H_NEWINVOKESPECIAL -> {
                if (handle.getOwner().equals(RuntimeNames.THREAD)) {
                    redirectedCount[0]++;
                    return new Handle(Opcodes.H_NEWINVOKESPECIAL, RuntimeNames.PICO_THREAD, handle.getName(),
                            handle.getDesc(), false);
                }
                return handle;
            }
            default -> {
                return handle;
            }
        }
    }
}
