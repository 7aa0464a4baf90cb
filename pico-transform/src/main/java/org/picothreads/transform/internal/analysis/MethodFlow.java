package org.picothreads.transform.internal.analysis;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
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
    /** Monitor depth of an instruction no path reaches. */
    public static final int UNREACHABLE = -1;

    private final MethodNode method;
    private final Frame<BasicValue>[] frames;
    private final BitSet[] liveBefore;
    private final int[] monitorDepth;
    private final boolean monitorsBalanced;

    private MethodFlow(MethodNode method, Frame<BasicValue>[] frames, List<List<Integer>> normalSuccessors,
            List<List<Integer>> exceptionSuccessors) {
        this.method = method;
        this.frames = frames;
        this.liveBefore = computeLiveness(method, frames, normalSuccessors, exceptionSuccessors);
        this.monitorDepth = new int[frames.length];
        this.monitorsBalanced = computeMonitorDepth(method, frames, normalSuccessors, exceptionSuccessors, monitorDepth);
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
        return new MethodFlow(method, frames, analyzer.normalSuccessors, analyzer.exceptionSuccessors);
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

    /** How many monitors are held before the instruction, or {@link #UNREACHABLE}. */
    public int monitorDepthBefore(AbstractInsnNode instruction) {
        return monitorDepth[method.instructions.indexOf(instruction)];
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

    private static boolean computeMonitorDepth(MethodNode method, Frame<BasicValue>[] frames,
            List<List<Integer>> normalSuccessors, List<List<Integer>> exceptionSuccessors, int[] depth) {
        java.util.Arrays.fill(depth, UNREACHABLE);
        if (frames.length == 0) {
            return true;
        }
        boolean balanced = true;
        java.util.ArrayDeque<Integer> worklist = new java.util.ArrayDeque<>();
        depth[0] = 0;
        worklist.add(0);
        while (!worklist.isEmpty()) {
            int index = worklist.poll();
            int before = depth[index];
            int opcode = method.instructions.get(index).getOpcode();
            int after = before + (opcode == Opcodes.MONITORENTER ? 1 : opcode == Opcodes.MONITOREXIT ? -1 : 0);
            for (int successor : normalSuccessors.get(index)) {
                balanced &= propagate(depth, successor, Math.max(after, 0), worklist);
            }
            for (int handler : exceptionSuccessors.get(index)) {
                balanced &= propagate(depth, handler, before, worklist);
            }
        }
        return balanced;
    }

    private static boolean propagate(int[] depth, int target, int value, java.util.ArrayDeque<Integer> worklist) {
        if (depth[target] == UNREACHABLE) {
            depth[target] = value;
            worklist.add(target);
            return true;
        }
        if (depth[target] != value) {
            depth[target] = Math.max(depth[target], value);
            return false;
        }
        return true;
    }

    /** The Analyzer, recording the control-flow edges it discovers. */
    private static final class EdgeRecordingAnalyzer extends Analyzer<BasicValue> {
        final List<List<Integer>> normalSuccessors = new ArrayList<>();
        final List<List<Integer>> exceptionSuccessors = new ArrayList<>();

        EdgeRecordingAnalyzer(HierarchyVerifier verifier) {
            super(verifier);
        }

        @Override
        protected void init(String owner, MethodNode method) throws AnalyzerException {
            for (int index = 0; index < method.instructions.size(); index++) {
                normalSuccessors.add(new ArrayList<>(2));
                exceptionSuccessors.add(new ArrayList<>(1));
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
        protected boolean newControlFlowExceptionEdge(int instruction, int successor) {
            List<Integer> successors = exceptionSuccessors.get(instruction);
            if (!successors.contains(successor)) {
                successors.add(successor);
            }
            return true;
        }
    }
}
