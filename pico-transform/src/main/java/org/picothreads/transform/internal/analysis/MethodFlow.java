package org.picothreads.transform.internal.analysis;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * The data-flow facts about one method that the rewrite needs at its call sites: the type of every local
 * and stack value before each instruction (ASM's Analyzer with a hierarchy-aware verifier), which locals
 * are live, and how many monitors the method holds.
 *
 * <p>Liveness is computed backwards over the control-flow edges the Analyzer discovers; an exception edge
 * from an instruction makes the handler's live locals live before that instruction.
 */
public final class MethodFlow {
    private final MethodNode method;
    private final Frame<BasicValue>[] frames;
    private final BitSet[] liveBefore;
    /** The MONITORENTER instructions whose monitors are held before each instruction, outermost first. */
    private final List<List<AbstractInsnNode>> heldMonitors;
    private final boolean monitorsBalanced;
    /** The class declaring the method, for the analysis of sources. */
    private final String ownerName;
    /**
     * Which instructions produced each value, for recognising constants; analysed on the first question, which comes
     * before the method's code changes (most flows are never asked, so most methods are analysed once, not twice).
     */
    private Frame<SourceValue>[] sources;

    private MethodFlow(String ownerName, MethodNode method, Frame<BasicValue>[] frames, List<List<Integer>> normalSuccessors,
            List<List<Integer>> exceptionSuccessors, List<List<Integer>> monitorSuccessors) {
        this.ownerName = ownerName;
        this.method = method;
        this.frames = frames;
        this.liveBefore = computeLiveness(method, frames, normalSuccessors, exceptionSuccessors);
        this.heldMonitors = new ArrayList<>(java.util.Collections.nCopies(frames.length, null));
        this.monitorsBalanced = computeHeldMonitors(method, frames, normalSuccessors, monitorSuccessors,
                heldMonitors);
    }

    /**
     * Analyses the method as it is now.
     *
     * @throws AnalyzerException when the code does not verify
     * @throws org.picothreads.transform.internal.hierarchy.MissingClassException when a class its types need is missing
     */
    public static MethodFlow analyze(ClassNode owner, MethodNode method, ClassHierarchy hierarchy)
            throws AnalyzerException {
        List<Type> interfaces = new ArrayList<>();
        for (String name : owner.interfaces) {
            interfaces.add(Type.getObjectType(name));
        }
        HierarchyVerifier verifier = new HierarchyVerifier(hierarchy, Type.getObjectType(owner.name),
                owner.superName == null ? null : Type.getObjectType(owner.superName), interfaces,
                (owner.access & Opcodes.ACC_INTERFACE) != 0);
        EdgeRecordingAnalyzer analyzer = new EdgeRecordingAnalyzer(verifier);
        Frame<BasicValue>[] frames = analyzer.analyze(owner.name, method);
        return new MethodFlow(owner.name, method, frames, analyzer.normalSuccessors, analyzer.exceptionSuccessors,
                analyzer.monitorSuccessors);
    }

    /**
     * The constant instruction (ICONST, BIPUSH, LDC of a number or string, ...) that alone produced the
     * stack entry {@code stackIndex} before the instruction, or null when the entry may come from anything
     * else. Such an entry can be pushed again instead of being saved.
     */
    public AbstractInsnNode constantProducer(AbstractInsnNode instruction, int stackIndex) {
        if (sources == null) {
            try {
                sources = new Analyzer<>(new SourceInterpreter()).analyze(ownerName, method);
            } catch (AnalyzerException unexpected) {
                // The same code passed the verifying analysis that made this flow.
                throw new IllegalStateException("the sources of " + ownerName + "." + method.name + method.desc
                        + " cannot be analysed: " + unexpected.getMessage(), unexpected);
            }
        }
        Frame<SourceValue> frame = sources[method.instructions.indexOf(instruction)];
        if (frame == null) {
            return null;
        }
        Set<AbstractInsnNode> producers = frame.getStack(stackIndex).insns;
        if (producers.size() != 1) {
            return null;
        }
        AbstractInsnNode producer = producers.iterator().next();
        int opcode = producer.getOpcode();
        if (opcode >= Opcodes.ACONST_NULL && opcode <= Opcodes.SIPUSH) {
            return producer;
        }
        if (opcode == Opcodes.LDC) {
            Object constant = ((LdcInsnNode) producer).cst;
            return constant instanceof Number || constant instanceof String ? producer : null;
        }
        return null;
    }

    /** True when the stack entry {@code stackIndex} before the instruction can only come from {@code ALOAD 0}. */
    public boolean loadsReceiver(AbstractInsnNode instruction, int stackIndex) {
        Frame<SourceValue> frame = sources[method.instructions.indexOf(instruction)];
        if (frame == null) {
            return false;
        }
        Set<AbstractInsnNode> producers = frame.getStack(stackIndex).insns;
        return producers.size() == 1 && producers.iterator().next() instanceof VarInsnNode load
                && load.getOpcode() == Opcodes.ALOAD && load.var == 0;
    }

    /** The frame before the instruction, or null when no path reaches it. */
    public Frame<BasicValue> frameBefore(AbstractInsnNode instruction) {
        return frames[method.instructions.indexOf(instruction)];
    }

    /** The locals live before the instruction: read on some path from it before being written. */
    public BitSet liveLocalsBefore(AbstractInsnNode instruction) {
        BitSet live = liveBefore[method.instructions.indexOf(instruction)];
        return live == null ? new BitSet() : live;
    }

    /** The MONITORENTER instructions whose monitors are held before the instruction, outermost first. */
    public List<AbstractInsnNode> heldMonitorsBefore(AbstractInsnNode instruction) {
        List<AbstractInsnNode> held = heldMonitors.get(method.instructions.indexOf(instruction));
        return held == null ? List.of() : held;
    }

    /** False when paths reach an instruction holding different numbers of monitors. */
    public boolean monitorsBalanced() {
        return monitorsBalanced;
    }

    private static BitSet[] computeLiveness(MethodNode method, Frame<BasicValue>[] frames,
            List<List<Integer>> normalSuccessors, List<List<Integer>> exceptionSuccessors) {
        int count = frames.length;
        BitSet[] live = new BitSet[count];
        for (int index = 0; index < count; index++) {
            live[index] = new BitSet();
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int index = count - 1; index >= 0; index--) {
                if (frames[index] == null) {
                    continue;
                }
                BitSet after = new BitSet();
                for (int successor : normalSuccessors.get(index)) {
                    after.or(live[successor]);
                }
                AbstractInsnNode instruction = method.instructions.get(index);
                BitSet before = after;
                if (instruction instanceof VarInsnNode variable) {
                    if (isStore(variable.getOpcode())) {
                        before.clear(variable.var);
                    } else {
                        before.set(variable.var);
                    }
                } else if (instruction instanceof IincInsnNode increment) {
                    before.set(increment.var);
                }
                for (int handler : exceptionSuccessors.get(index)) {
                    before.or(live[handler]);
                }
                if (!before.equals(live[index])) {
                    live[index] = before;
                    changed = true;
                }
            }
        }
        return live;
    }

    private static boolean isStore(int opcode) {
        return opcode >= Opcodes.ISTORE && opcode <= Opcodes.ASTORE;
    }

    /**
     * Propagates the stack of held monitors forwards: MONITORENTER pushes itself, MONITOREXIT pops; an
     * exception edge carries the stack as it was before the throwing instruction. False when two paths
     * reach an instruction with different stacks (monitors not block-structured).
     */
    private static boolean computeHeldMonitors(MethodNode method, Frame<BasicValue>[] frames,
            List<List<Integer>> normalSuccessors, List<List<Integer>> exceptionSuccessors,
            List<List<AbstractInsnNode>> held) {
        if (frames.length == 0) {
            return true;
        }
        boolean balanced = true;
        java.util.ArrayDeque<Integer> worklist = new java.util.ArrayDeque<>();
        held.set(0, List.of());
        worklist.add(0);
        while (!worklist.isEmpty()) {
            int index = worklist.poll();
            List<AbstractInsnNode> before = held.get(index);
            AbstractInsnNode instruction = method.instructions.get(index);
            List<AbstractInsnNode> after = before;
            if (instruction.getOpcode() == Opcodes.MONITORENTER) {
                after = new ArrayList<>(before);
                after.add(instruction);
                after = List.copyOf(after);
            } else if (instruction.getOpcode() == Opcodes.MONITOREXIT && !before.isEmpty()) {
                after = before.subList(0, before.size() - 1);
            }
            for (int successor : normalSuccessors.get(index)) {
                balanced &= propagate(held, successor, after, worklist);
            }
            for (int handler : exceptionSuccessors.get(index)) {
                balanced &= propagate(held, handler, before, worklist);
            }
        }
        return balanced;
    }

    private static boolean propagate(List<List<AbstractInsnNode>> held, int target, List<AbstractInsnNode> value,
            java.util.ArrayDeque<Integer> worklist) {
        List<AbstractInsnNode> existing = held.get(target);
        if (existing == null) {
            held.set(target, value);
            worklist.add(target);
            return true;
        }
        return existing.equals(value);
    }

    /** The Analyzer, recording the control-flow edges it discovers. */
    private static final class EdgeRecordingAnalyzer extends Analyzer<BasicValue> {
        final List<List<Integer>> normalSuccessors = new ArrayList<>();
        final List<List<Integer>> exceptionSuccessors = new ArrayList<>();
        /** Exception successors up to the first catch-any handler of each instruction. */
        final List<List<Integer>> monitorSuccessors = new ArrayList<>();
        private final BitSet shadowedByCatchAny = new BitSet();
        private MethodNode method;

        EdgeRecordingAnalyzer(HierarchyVerifier verifier) {
            super(verifier);
        }

        @Override
        protected void init(String owner, MethodNode method) throws AnalyzerException {
            this.method = method;
            for (int index = 0; index < method.instructions.size(); index++) {
                normalSuccessors.add(new ArrayList<>(2));
                exceptionSuccessors.add(new ArrayList<>(1));
                monitorSuccessors.add(new ArrayList<>(1));
            }
        }

        @Override
        protected Frame<BasicValue> newFrame(int numLocals, int numStack) {
            return new InitializationTrackingFrame(numLocals, numStack);
        }

        @Override
        protected Frame<BasicValue> newFrame(Frame<? extends BasicValue> frame) {
            return new InitializationTrackingFrame(frame);
        }

        @Override
        protected void newControlFlowEdge(int instruction, int successor) {
            List<Integer> successors = normalSuccessors.get(instruction);
            if (!successors.contains(successor)) {
                successors.add(successor);
            }
        }

        @Override
        protected boolean newControlFlowExceptionEdge(int instruction, TryCatchBlockNode tryCatchBlock) {
            int successor = method.instructions.indexOf(tryCatchBlock.handler);
            List<Integer> successors = exceptionSuccessors.get(instruction);
            if (!successors.contains(successor)) {
                successors.add(successor);
            }
            // A handler after a catch-any covering the same instruction can never be reached from it.
            if (!shadowedByCatchAny.get(instruction) && !monitorSuccessors.get(instruction).contains(successor)) {
                monitorSuccessors.get(instruction).add(successor);
            }
            if (tryCatchBlock.type == null) {
                shadowedByCatchAny.set(instruction);
            }
            return true;
        }
    }
}
