package org.picothreads.transform.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceMethodVisitor;
import org.picothreads.transform.internal.RuntimeNames;

/** Builds the small methods a pass's unit test feeds it, and prints what comes out as ASM's Textifier listing. */
public final class MethodListing {
    private MethodListing() {
    }

    /** The Textifier listing of a method's code, exception table and maximums. */
    public static String of(MethodNode method) {
        Textifier textifier = new Textifier();
        method.accept(new TraceMethodVisitor(textifier));
        StringWriter text = new StringWriter();
        textifier.print(new PrintWriter(text));
        return text.toString();
    }

    /** A method of the given access, name and descriptor whose code is {@code instructions}, in order. */
    public static MethodNode method(int access, String name, String descriptor, int maxStack, int maxLocals,
            AbstractInsnNode... instructions) {
        MethodNode method = new MethodNode(RuntimeNames.ASM_API, access, name, descriptor, null, null);
        for (AbstractInsnNode instruction : instructions) {
            method.instructions.add(instruction);
        }
        method.maxStack = maxStack;
        method.maxLocals = maxLocals;
        return method;
    }

    /** A class {@code sample/Sample} (Java 17, extending Object) holding the method. */
    public static ClassNode owner(MethodNode method) {
        ClassNode owner = new ClassNode(RuntimeNames.ASM_API);
        owner.version = Opcodes.V17;
        owner.access = Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER;
        owner.name = "sample/Sample";
        owner.superName = "java/lang/Object";
        owner.methods.add(method);
        return owner;
    }
}
