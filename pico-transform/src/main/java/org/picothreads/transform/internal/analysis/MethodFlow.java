package org.picothreads.transform.internal.analysis;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
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
    /** The labels other code than the instruction before them can lead to; found on the first question. */
    private Set<LabelNode> mergeLabels;

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
        AbstractInsnNode producer = onlyProducer(instruction, stackIndex);
        if (producer == null) {
            return null;
        }
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
        return onlyProducer(instruction, stackIndex) instanceof VarInsnNode load && load.getOpcode() == Opcodes.ALOAD
                && load.var == 0;
    }

    /**
     * The one instruction that produced the stack entry {@code stackIndex} before the instruction on every path, or
     * null when several may have (or no path reaches it). Found by {@link #producerInStraightLine} where that can
     * tell, otherwise by ASM's SourceInterpreter over the whole method, which gives the same answer there.
     */
    private AbstractInsnNode onlyProducer(AbstractInsnNode instruction, int stackIndex) {
        AbstractInsnNode producer = producerInStraightLine(instruction, stackIndex);
        return producer != UNDECIDED ? producer : producerBySources(instruction, stackIndex);
    }

    /** The answer of {@link #producerInStraightLine} when the code before the instruction is not one straight line. */
    static final AbstractInsnNode UNDECIDED = new InsnNode(Opcodes.NOP);

    /**
     * The instruction that produced the stack entry {@code stackIndex} before the instruction, found by reading the
     * code backwards from it while it runs in one straight line: no jump, switch, return or throw, and no label that
     * a jump, a switch or an exception handler leads to, so that every path to the instruction comes through the same
     * instructions. Each instruction read either leaves the entry where it is (it pops and pushes above it) or is
     * its producer; the stack sizes come from the verifying analysis. {@link #UNDECIDED} at anything else: a
     * label other code can reach, an instruction that copies or swaps entries (whose copies the SourceInterpreter
     * attributes to it), the method's start. Most call sites' entries are pushed a few instructions before them, in
     * the same expression, so the whole-method analysis is rarely needed.
     */
    AbstractInsnNode producerInStraightLine(AbstractInsnNode instruction, int stackIndex) {
        int index = method.instructions.indexOf(instruction);
        if (frames[index] == null) {
            return UNDECIDED;
        }
        int sizeAfter = frames[index].getStackSize();
        for (AbstractInsnNode previous = instruction.getPrevious(); previous != null;
                previous = previous.getPrevious()) {
            if (previous instanceof LabelNode label) {
                if (mergeLabels().contains(label)) {
                    return UNDECIDED;
                }
                continue;
            }
            int opcode = previous.getOpcode();
            if (opcode < 0) {
                continue; // a line number or a stack map frame
            }
            Frame<BasicValue> before = frames[method.instructions.indexOf(previous)];
            Boolean pushes = pushesOneValue(previous);
            if (before == null || pushes == null) {
                return UNDECIDED;
            }
            int sizeBefore = before.getStackSize();
            if (pushes && stackIndex == sizeAfter - 1) {
                return previous;
            }
            int untouched = sizeAfter - (pushes ? 1 : 0);
            if (stackIndex >= untouched || stackIndex >= sizeBefore) {
                return UNDECIDED;
            }
            sizeAfter = sizeBefore;
        }
        return UNDECIDED;
    }

    /**
     * Whether the instruction pushes one new stack entry (a long or double is one entry in ASM's frames) or none,
     * having popped what it uses; null for an instruction after which the straight line ends or whose entries are
     * copies (jumps, switches, returns, throws, subroutines, DUP and SWAP).
     */
    private static Boolean pushesOneValue(AbstractInsnNode instruction) {
        int opcode = instruction.getOpcode();
        if (instruction instanceof MethodInsnNode call) {
            return Type.getReturnType(call.desc) != Type.VOID_TYPE;
        }
        if (instruction instanceof InvokeDynamicInsnNode dynamic) {
            return Type.getReturnType(dynamic.desc) != Type.VOID_TYPE;
        }
        if (instruction instanceof JumpInsnNode || instruction instanceof TableSwitchInsnNode
                || instruction instanceof LookupSwitchInsnNode) {
            return null;
        }
        switch (opcode) {
            case Opcodes.DUP, Opcodes.DUP_X1, Opcodes.DUP_X2, Opcodes.DUP2, Opcodes.DUP2_X1, Opcodes.DUP2_X2,
                    Opcodes.SWAP, Opcodes.RET, Opcodes.IRETURN, Opcodes.LRETURN, Opcodes.FRETURN, Opcodes.DRETURN,
                    Opcodes.ARETURN, Opcodes.RETURN, Opcodes.ATHROW:
                return null;
            case Opcodes.ISTORE, Opcodes.LSTORE, Opcodes.FSTORE, Opcodes.DSTORE, Opcodes.ASTORE, Opcodes.IASTORE,
                    Opcodes.LASTORE, Opcodes.FASTORE, Opcodes.DASTORE, Opcodes.AASTORE, Opcodes.BASTORE,
                    Opcodes.CASTORE, Opcodes.SASTORE, Opcodes.POP, Opcodes.POP2, Opcodes.PUTFIELD, Opcodes.PUTSTATIC,
                    Opcodes.MONITORENTER, Opcodes.MONITOREXIT, Opcodes.NOP, Opcodes.IINC:
                return false;
            default:
                return true;
        }
    }

    /** The labels that a jump, a switch or an exception handler leads to, found on the first question. */
    private Set<LabelNode> mergeLabels() {
        if (mergeLabels == null) {
            Set<LabelNode> labels = Collections.newSetFromMap(new IdentityHashMap<>());
            for (AbstractInsnNode instruction : method.instructions) {
                if (instruction instanceof JumpInsnNode jump) {
                    labels.add(jump.label);
                } else if (instruction instanceof TableSwitchInsnNode table) {
                    labels.add(table.dflt);
                    labels.addAll(table.labels);
                } else if (instruction instanceof LookupSwitchInsnNode lookup) {
                    labels.add(lookup.dflt);
                    labels.addAll(lookup.labels);
                }
            }
            for (TryCatchBlockNode handler : method.tryCatchBlocks) {
                labels.add(handler.handler);
            }
            mergeLabels = labels;
        }
        return mergeLabels;
    }

    /**
     * The one producer of the stack entry by ASM's SourceInterpreter, run over the whole method on the first question
     * that needs it, which comes before the method's code changes (most flows never need it, so most methods are
     * analysed once, not twice).
     */
    AbstractInsnNode producerBySources(AbstractInsnNode instruction, int stackIndex) {
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
        return producers.size() == 1 ? producers.iterator().next() : null;
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
