package org.picothreads.transform.internal.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.testing.MethodListing;
import org.picothreads.transform.testing.SampleMethods;

/** The flow of a method: the locals live at a call, the monitors held there, the stack entries that are constants. */
class MethodFlowTest {
    @Test
    void a_local_read_after_the_call_is_live_at_it_and_one_read_only_before_is_not() throws Exception {
        MethodNode method = SampleMethods.scaled();
        MethodFlow flow = analyze(method);
        MethodInsnNode site = SampleMethods.blockingCalls(method).get(0);
        BitSet live = new BitSet();
        live.set(0);
        assertEquals(live, flow.liveLocalsBefore(site));
        assertEquals(3, flow.frameBefore(site).getStackSize());
        assertEquals(Opcodes.ICONST_2, flow.constantProducer(site, 1).getOpcode());
        assertEquals(null, flow.constantProducer(site, 0));
    }

    @Test
    void a_call_inside_a_synchronized_block_holds_the_block_s_monitor_and_the_monitors_are_block_structured()
            throws Exception {
        MethodNode method = SampleMethods.locked();
        MethodFlow flow = analyze(method);
        MethodInsnNode site = SampleMethods.blockingCalls(method).get(0);
        List<AbstractInsnNode> held = flow.heldMonitorsBefore(site);
        assertEquals(1, held.size());
        assertEquals(Opcodes.MONITORENTER, held.get(0).getOpcode());
        assertTrue(flow.monitorsBalanced());
        assertEquals(List.of(), flow.heldMonitorsBefore(method.instructions.getFirst()));
    }

    /**
     * The producers that reading back along a straight line finds, wherever it decides, are those that ASM's
     * SourceInterpreter finds over the whole method: for every entry of every call's stack in every method of a few
     * large JDK classes and this project's transformer, and it decides for most of them.
     */
    @Test
    void the_producers_found_along_a_straight_line_are_those_the_source_interpreter_finds() throws Exception {
        int decided = 0;
        int entries = 0;
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            for (Class<?> type : List.of(java.util.HashMap.class, java.util.concurrent.ConcurrentHashMap.class,
                    java.util.regex.Pattern.class, java.lang.String.class, java.util.Formatter.class,
                    MethodFlow.class, MethodPlanner.class, SuspendabilityAnalysis.class)) {
                ClassNode owner = read(type);
                for (MethodNode method : owner.methods) {
                    MethodFlow flow;
                    try {
                        flow = MethodFlow.analyze(owner, method, hierarchy);
                    } catch (AnalyzerException | RuntimeException notAnalysable) {
                        continue;
                    }
                    for (AbstractInsnNode instruction : method.instructions) {
                        if (!(instruction instanceof MethodInsnNode) || flow.frameBefore(instruction) == null) {
                            continue;
                        }
                        for (int index = 0; index < flow.frameBefore(instruction).getStackSize(); index++) {
                            entries++;
                            AbstractInsnNode straight = flow.producerInStraightLine(instruction, index);
                            if (straight == MethodFlow.UNDECIDED) {
                                continue;
                            }
                            decided++;
                            int entry = index;
                            assertSame(flow.producerBySources(instruction, index), straight, () -> owner.name + "."
                                    + method.name + method.desc + " at " + method.instructions.indexOf(instruction)
                                    + ", entry " + entry);
                        }
                    }
                }
            }
        }
        assertTrue(entries > 5_000 && decided * 10 > entries * 6,
                "decided " + decided + " of " + entries + " stack entries along a straight line");
    }

    private static ClassNode read(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream("/" + type.getName().replace('.', '/') + ".class")) {
            ClassNode owner = new ClassNode();
            new ClassReader(in.readAllBytes()).accept(owner, 0);
            return owner;
        }
    }

    private static MethodFlow analyze(MethodNode method) throws Exception {
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            return MethodFlow.analyze(MethodListing.owner(method), method, hierarchy);
        }
    }
}
