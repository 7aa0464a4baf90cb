package org.picothreads.transform.internal.emit;

import java.util.ArrayDeque;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.picothreads.transform.internal.Redirects;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Rewrites one method's references to the JDK members listed in {@link Redirects}: creating a replaced
 * type creates its runtime subclass, super calls of a direct subclass of a replaced type go to the runtime
 * subclass, and calls (and method handles) of redirected methods go to the runtime. The stack effect of
 * every instruction is unchanged, so the method's frames stay valid. A class never redirects to itself: the
 * code of a replacement type or of a redirect target (pico-net's, which is rewritten too) keeps its own
 * references to the JDK members it stands in for.
 */
public final class ReferenceRedirector extends MethodVisitor {
    private final Redirects redirects;
    private final ClassHierarchy hierarchy;
    /** The internal name of the class whose method this is. */
    private final String className;
    /** Counts the references rewritten so far. */
    private final int[] redirectedCount;
    /** The types of the NEW instructions whose constructor call has not been seen yet, innermost first. */
    private final ArrayDeque<String> pendingNews = new ArrayDeque<>();
    /** True once a completion call was added, which needs one more operand stack slot. */
    private boolean completionAdded;

    public ReferenceRedirector(MethodVisitor next, ClassHierarchy hierarchy, String className, int[] redirectedCount) {
        super(RuntimeNames.ASM_API, next);
        this.hierarchy = hierarchy;
        this.redirects = hierarchy.redirects();
        this.className = className;
        this.redirectedCount = redirectedCount;
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        if (opcode == Opcodes.NEW) {
            pendingNews.push(type);
        }
        String replacement = opcode == Opcodes.NEW ? redirects.replacementType(type) : null;
        if (replacement != null && !replacement.equals(className)) {
            redirectedCount[0]++;
            super.visitTypeInsn(opcode, replacement);
            return;
        }
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        Redirects.Redirect redirect = redirects.forCall(opcode, owner, name, descriptor, hierarchy);
        if (redirect != null && !redirect.owner().equals(className)) {
            redirectedCount[0]++;
            super.visitMethodInsn(Opcodes.INVOKESTATIC, redirect.owner(), redirect.name(), redirect.descriptor(),
                    false);
            return;
        }
        boolean creation = opcode == Opcodes.INVOKESPECIAL && name.equals("<init>") && owner.equals(pendingNews.peek());
        if (creation) {
            pendingNews.pop();
        }
        String replacement = opcode == Opcodes.INVOKESPECIAL ? redirects.replacementType(owner) : null;
        if (replacement != null && !replacement.equals(className)) {
            // A constructor of a replaced type, or a super call of one of its direct subclasses.
            redirectedCount[0]++;
            super.visitMethodInsn(opcode, replacement, name, descriptor, false);
        } else {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }
        Redirects.Redirect completion = creation ? redirects.completionOf(owner, descriptor) : null;
        if (completion != null && !completion.owner().equals(className)) {
            // new T(...) leaves the object on the stack: complete it there with a call that can suspend.
            redirectedCount[0]++;
            completionAdded = true;
            super.visitInsn(Opcodes.DUP);
            // Stack: T, T
            super.visitMethodInsn(Opcodes.INVOKESTATIC, completion.owner(), completion.name(), completion.descriptor(),
                    false);
            // Stack: T
        }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        super.visitMaxs(completionAdded ? maxStack + 1 : maxStack, maxLocals);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrapMethodHandle,
            Object... bootstrapMethodArguments) {
        Object[] arguments = bootstrapMethodArguments.clone();
        for (int index = 0; index < arguments.length; index++) {
            arguments[index] = redirectConstant(arguments[index]);
        }
        String callSiteDescriptor = bootstrapMethodHandle.getOwner().equals(RuntimeNames.LAMBDA_METAFACTORY)
                ? boundReceiverRetyped(descriptor, bootstrapMethodArguments, arguments) : descriptor;
        super.visitInvokeDynamicInsn(name, callSiteDescriptor, bootstrapMethodHandle, arguments);
    }

    /**
     * The call site descriptor of a lambda whose implementation, an instance method with its receiver bound
     * ({@code reader::readLine}, the receiver captured first), was redirected to a static method taking the receiver
     * as a supertype ({@code Reader}): the captured receiver's type becomes that parameter's type, since
     * LambdaMetafactory requires a captured value's type to be the implementation's parameter type exactly (it
     * refused the link with LambdaConversionException, "Type mismatch in captured lambda parameter 0"). The value on
     * the stack is the receiver as before, of a subtype, which the verifier accepts.
     */
    private static String boundReceiverRetyped(String descriptor, Object[] original, Object[] redirected) {
        if (original.length < 2 || !(original[1] instanceof Handle before) || !(redirected[1] instanceof Handle after)
                || before.equals(after) || before.getTag() == Opcodes.H_INVOKESTATIC
                || before.getTag() == Opcodes.H_NEWINVOKESPECIAL || after.getTag() != Opcodes.H_INVOKESTATIC) {
            return descriptor;
        }
        Type[] captured = Type.getArgumentTypes(descriptor);
        if (captured.length == 0) {
            return descriptor; // not bound: the receiver comes with each call, which LambdaMetafactory adapts
        }
        Type receiver = Type.getArgumentTypes(after.getDesc())[0];
        if (captured[0].equals(receiver)) {
            return descriptor;
        }
        captured[0] = receiver;
        return Type.getMethodDescriptor(Type.getReturnType(descriptor), captured);
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
            if (replacement == null || replacement.equals(className)) {
                return handle;
            }
            redirectedCount[0]++;
            return new Handle(Opcodes.H_NEWINVOKESPECIAL, replacement, handle.getName(), handle.getDesc(), false);
        }
        Redirects.Redirect redirect = redirects.forCall(opcode, handle.getOwner(), handle.getName(),
                handle.getDesc(), hierarchy);
        if (redirect == null || redirect.owner().equals(className)) {
            return handle;
        }
        redirectedCount[0]++;
        return new Handle(Opcodes.H_INVOKESTATIC, redirect.owner(), redirect.name(), redirect.descriptor(), false);
    }
}
