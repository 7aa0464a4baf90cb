package org.picothreads.transform.internal.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;
import org.picothreads.transform.internal.Instructions;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.report.PinnedCallSite;

/**
 * Finds, at transform time, the calls into code that is not rewritten (the JDK, a library) that are handed
 * something that can block when called back: a lambda or method reference whose body can block, or an
 * object of an input class whose override of a foreign method (compare, accept, run, toString...) can
 * block. A thread that blocks in such a callback has frames that were not rewritten between it and its
 * entry, so at run time it pins instead of suspending; the report lists these call sites.
 *
 * <p>Values are followed back from the call's operands through copies, casts and local variables to the
 * invokedynamic or NEW that produced them (ASM's SourceInterpreter).
 *
 * <p>A method of an input class counts as a callback when a foreign supertype (the class's own, or one of an input
 * supertype's) declares it, as its own or inherited, so that foreign code can call it through that type; a
 * foreign supertype that cannot be read counts as declaring it. What foreign code calls by reflection (a test
 * runner calling test methods) is not among them: such a call pins at run time all the same, but the report, which
 * cannot see it, does not list it.
 */
public final class ForeignCallbackAnalysis {
    /** Answers which methods can block, and which classes are rewritten ({@link SuspendabilityAnalysis#classToRewrite}). */
    private final SuspendabilityAnalysis suspendability;
    /** The headers of the foreign supertypes, to find whether they declare a method. */
    private final ClassHierarchy hierarchy;

    public ForeignCallbackAnalysis(SuspendabilityAnalysis suspendability, ClassHierarchy hierarchy) {
        this.suspendability = suspendability;
        this.hierarchy = hierarchy;
    }

    /** The call sites of the method that hand a blocking callback to code that is not rewritten. */
    public List<PinnedCallSite> pinnedCallbacks(ClassNode owner, MethodNode method) {
        Map<AbstractInsnNode, String> producers = blockingProducers(method);
        if (producers.isEmpty()) {
            return List.of();
        }
        Frame<SourceValue>[] frames;
        try {
            frames = new Analyzer<>(new SourceInterpreter()).analyze(owner.name, method);
        } catch (AnalyzerException exception) {
            return List.of();
        }
        List<PinnedCallSite> sites = new ArrayList<>();
        for (AbstractInsnNode instruction : method.instructions) {
            if (!(instruction instanceof MethodInsnNode call) || !isForeign(call)) {
                continue;
            }
            Frame<SourceValue> frame = frames[method.instructions.indexOf(instruction)];
            if (frame == null) {
                continue;
            }
            int operands = Type.getArgumentTypes(call.desc).length + (call.getOpcode() == Opcodes.INVOKESTATIC ? 0 : 1);
            for (int index = frame.getStackSize() - operands; index < frame.getStackSize(); index++) {
                String callback = producedBy(frame.getStack(index), producers, method, frames, new HashSet<>());
                if (callback != null) {
                    sites.add(new PinnedCallSite(Instructions.lineOf(call), call.owner + "." + call.name + call.desc,
                            "hands " + callback + ", which can block, to code that is not rewritten:"
                                    + " a thread blocking when that code calls it back pins"));
                    break;
                }
            }
        }
        return sites;
    }

    /** The instructions of the method that create a callback that can block, described in words. */
    private Map<AbstractInsnNode, String> blockingProducers(MethodNode method) {
        Map<AbstractInsnNode, String> producers = new IdentityHashMap<>();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof InvokeDynamicInsnNode dynamic
                    && RuntimeNames.isLambdaBootstrap(dynamic.bsm.getOwner())
                    && dynamic.bsmArgs.length > 1 && dynamic.bsmArgs[1] instanceof Handle implementation) {
                MethodNode body = declared(implementation.getOwner(), implementation.getName() + implementation.getDesc());
                if (body != null && suspendability.isCapturable(body)) {
                    producers.put(instruction, "a lambda or method reference to "
                            + implementation.getOwner().replace('/', '.') + "." + implementation.getName());
                }
            } else if (instruction.getOpcode() == Opcodes.NEW) {
                String type = ((TypeInsnNode) instruction).desc;
                String blockingMethod = blockingForeignOverride(type);
                if (blockingMethod != null) {
                    producers.put(instruction, "a " + type.replace('/', '.') + " whose " + blockingMethod);
                }
            }
        }
        return producers;
    }

    /** The name of a method of an input class that overrides a method of a foreign type and can block, or null. */
    private String blockingForeignOverride(String type) {
        ClassNode classNode = suspendability.classToRewrite(type);
        if (classNode == null) {
            return null;
        }
        for (MethodNode method : classNode.methods) {
            if (suspendability.isCapturable(method) && (method.access & Opcodes.ACC_STATIC) == 0
                    && !method.name.startsWith("<") && overridesForeign(classNode, method.name + method.desc)) {
                return method.name;
            }
        }
        return null;
    }

    private boolean overridesForeign(ClassNode classNode, String member) {
        List<String> supertypes = new ArrayList<>(classNode.interfaces);
        supertypes.add(classNode.superName);
        for (String supertype : supertypes) {
            if (supertype == null) {
                continue;
            }
            ClassNode input = suspendability.classToRewrite(supertype);
            if (input == null ? foreignDeclares(supertype, member, new HashSet<>()) : overridesForeign(input, member)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the foreign type or one of its supertypes declares {@code member} (name and descriptor) as a method
     * that can be overridden, or cannot be read: code that holds the object as that type can then call it back.
     */
    private boolean foreignDeclares(String type, String member, Set<String> visited) {
        if (!visited.add(type)) {
            return false;
        }
        ClassHierarchy.ClassInfo info = hierarchy.find(type);
        if (info == null) {
            return true; // missing from the class path: it may declare anything
        }
        Integer access = info.methodAccess(member);
        if (access != null && (access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL)) == 0) {
            return true;
        }
        if (info.superName() != null && foreignDeclares(info.superName(), member, visited)) {
            return true;
        }
        for (String implemented : info.interfaces()) {
            if (foreignDeclares(implemented, member, visited)) {
                return true;
            }
        }
        return false;
    }

    private String producedBy(SourceValue value, Map<AbstractInsnNode, String> producers, MethodNode method,
            Frame<SourceValue>[] frames, Set<AbstractInsnNode> visited) {
        // In instruction order: value.insns is a set ordered by identity hash codes, which differ from run to run.
        List<AbstractInsnNode> sources = new ArrayList<>(value.insns);
        sources.sort(Comparator.comparingInt(method.instructions::indexOf));
        for (AbstractInsnNode source : sources) {
            if (!visited.add(source)) {
                continue;
            }
            String described = producers.get(source);
            if (described != null) {
                return described;
            }
            Frame<SourceValue> frame = frames[method.instructions.indexOf(source)];
            if (frame == null) {
                continue;
            }
            String found = null;
            switch (source.getOpcode()) {
                case Opcodes.DUP, Opcodes.CHECKCAST, Opcodes.ASTORE ->
                    found = producedBy(frame.getStack(frame.getStackSize() - 1), producers, method, frames, visited);
                case Opcodes.ALOAD ->
                    found = producedBy(frame.getLocal(((VarInsnNode) source).var), producers, method, frames, visited);
                case Opcodes.INVOKESPECIAL -> {
                    MethodInsnNode constructor = (MethodInsnNode) source;
                    if (constructor.name.equals("<init>")) {
                        int receiver = frame.getStackSize() - Type.getArgumentTypes(constructor.desc).length - 1;
                        found = producedBy(frame.getStack(receiver), producers, method, frames, visited);
                    }
                }
                default -> {
                }
            }
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /**
     * True for a call whose target is not among the inputs nor the runtime, and which does not suspend.
     * Executors are left out: the runtime's executors run their tasks on PicoThreads whose worker frames
     * can be captured.
     */
    private boolean isForeign(MethodInsnNode call) {
        return suspendability.classToRewrite(call.owner) == null && !RuntimeNames.isRuntimeClass(call.owner)
                && !call.name.equals("<init>") && !suspendability.isSuspendableCall(call)
                && !call.owner.startsWith("java/util/concurrent/Executor")
                && !call.owner.equals("java/util/concurrent/ScheduledExecutorService");
    }

    private MethodNode declared(String owner, String member) {
        ClassNode classNode = suspendability.classToRewrite(owner);
        if (classNode == null) {
            return null;
        }
        for (MethodNode method : classNode.methods) {
            if ((method.name + method.desc).equals(member)) {
                return method;
            }
        }
        return null;
    }
}
