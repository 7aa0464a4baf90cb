package org.picothreads.transform.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.picothreads.transform.internal.analysis.MethodFlow;
import org.picothreads.transform.internal.analysis.MethodPlan;
import org.picothreads.transform.internal.analysis.MethodPlanner;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Small methods, as javac compiles them, around calls of {@code sample/Blocking.take}, which the unit tests of the
 * planning and weaving passes treat as the suspension call sites.
 */
public final class SampleMethods {
    /** The class whose {@code take} methods stand for calls that can suspend. */
    public static final String BLOCKING = "sample/Blocking";

    private SampleMethods() {
    }

    /**
     * {@code static int scaled(int count, String text) { return count + 2 * take(text) + count; }}: at the call, the
     * stack holds {@code count}, the constant 2 and the argument; {@code count} is read after the call, {@code text}
     * is not.
     */
    public static MethodNode scaled() {
        LabelNode start = new LabelNode();
        return MethodListing.method(Opcodes.ACC_STATIC, "scaled", "(ILjava/lang/String;)I", 3, 2, start,
                new LineNumberNode(7, start), new VarInsnNode(Opcodes.ILOAD, 0), new InsnNode(Opcodes.ICONST_2),
                new VarInsnNode(Opcodes.ALOAD, 1),
                new MethodInsnNode(Opcodes.INVOKESTATIC, BLOCKING, "take", "(Ljava/lang/String;)I", false),
                new InsnNode(Opcodes.IMUL), new InsnNode(Opcodes.IADD), new VarInsnNode(Opcodes.ILOAD, 0),
                new InsnNode(Opcodes.IADD), new InsnNode(Opcodes.IRETURN));
    }

    /**
     * {@link #scaled()} calling {@code take} as a private static method of its own class, {@code sample/Sample}: a
     * call whose activation is always captured before the caller's, so the caller saves no arguments there.
     */
    public static MethodNode scaledCallingItsOwnMethod() {
        MethodNode method = scaled();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof MethodInsnNode call && call.owner.equals(BLOCKING)) {
                call.owner = MethodListing.owner(method).name;
            }
        }
        return method;
    }

    /** The plan of a method of {@code sample/Sample} that also declares {@code private static int take(String)}. */
    public static MethodPlan planCallingItsOwnMethod(MethodNode method) {
        ClassNode owner = MethodListing.owner(method);
        owner.methods.add(new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC, "take", "(Ljava/lang/String;)I",
                null, null));
        return planAtCallsInto(owner, method, owner.name);
    }

    /** A class of the runtime's package, whose calls rewritten code passes the caller token before. */
    public static final String RUNTIME_BLOCKING = "org/picothreads/runtime/concurrent/ConcurrentCalls";

    /** {@link #scaled()} calling {@code take} of {@link #RUNTIME_BLOCKING}: a call into the runtime. */
    public static MethodNode scaledCallingTheRuntime() {
        MethodNode method = scaled();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof MethodInsnNode call && call.owner.equals(BLOCKING)) {
                call.owner = RUNTIME_BLOCKING;
            }
        }
        return method;
    }

    /** The plan of a method whose calls of {@link #RUNTIME_BLOCKING} are its suspension call sites. */
    public static MethodPlan planCallingTheRuntime(MethodNode method) {
        return planAtCallsInto(MethodListing.owner(method), method, RUNTIME_BLOCKING);
    }

    /** The plan of a method, as method 0 of {@code owner}, whose calls of methods of {@code callee} are its sites. */
    private static MethodPlan planAtCallsInto(ClassNode owner, MethodNode method, String callee) {
        List<MethodInsnNode> sites = new ArrayList<>();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof MethodInsnNode call && call.owner.equals(callee)) {
                sites.add(call);
            }
        }
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            MethodFlow flow = MethodFlow.analyze(owner, method, hierarchy);
            return MethodPlanner.plan(owner, 0, method, flow, sites, Map.of(), Map.of(), Map.of());
        } catch (AnalyzerException | IOException exception) {
            throw new AssertionError(exception);
        }
    }

    /** {@code static int locked(Object lock) { synchronized (lock) { return take(); } }}, as javac compiles it. */
    public static MethodNode locked() {
        LabelNode from = new LabelNode();
        LabelNode to = new LabelNode();
        LabelNode handler = new LabelNode();
        LabelNode handlerEnd = new LabelNode();
        MethodNode method = MethodListing.method(Opcodes.ACC_STATIC, "locked", "(Ljava/lang/Object;)I", 2, 4,
                new VarInsnNode(Opcodes.ALOAD, 0), new InsnNode(Opcodes.DUP), new VarInsnNode(Opcodes.ASTORE, 1),
                new InsnNode(Opcodes.MONITORENTER), from,
                new MethodInsnNode(Opcodes.INVOKESTATIC, BLOCKING, "take", "()I", false),
                new VarInsnNode(Opcodes.ISTORE, 2), new VarInsnNode(Opcodes.ALOAD, 1),
                new InsnNode(Opcodes.MONITOREXIT), to, new VarInsnNode(Opcodes.ILOAD, 2),
                new InsnNode(Opcodes.IRETURN), handler, new VarInsnNode(Opcodes.ASTORE, 3),
                new VarInsnNode(Opcodes.ALOAD, 1), new InsnNode(Opcodes.MONITOREXIT), handlerEnd,
                new VarInsnNode(Opcodes.ALOAD, 3), new InsnNode(Opcodes.ATHROW));
        method.tryCatchBlocks.add(new TryCatchBlockNode(from, to, handler, null));
        method.tryCatchBlocks.add(new TryCatchBlockNode(handler, handlerEnd, handler, null));
        return method;
    }

    /**
     * The plan of a method whose calls of {@link #BLOCKING} are its suspension call sites and which holds no monitor
     * at them, as method 0 of its class {@link MethodListing#owner}.
     */
    public static MethodPlan plan(MethodNode method) {
        ClassNode owner = MethodListing.owner(method);
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            MethodFlow flow = MethodFlow.analyze(owner, method, hierarchy);
            return MethodPlanner.plan(owner, 0, method, flow, blockingCalls(method), Map.of(), Map.of(), Map.of());
        } catch (AnalyzerException | IOException exception) {
            throw new AssertionError(exception);
        }
    }

    /** The method's calls of {@link #BLOCKING}, in code order. */
    public static List<MethodInsnNode> blockingCalls(MethodNode method) {
        List<MethodInsnNode> calls = new ArrayList<>();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof MethodInsnNode call && call.owner.equals(BLOCKING)) {
                calls.add(call);
            }
        }
        return calls;
    }
}
