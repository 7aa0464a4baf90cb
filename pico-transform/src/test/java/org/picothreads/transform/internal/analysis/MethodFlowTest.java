package org.picothreads.transform.internal.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
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

    private static MethodFlow analyze(MethodNode method) throws Exception {
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            return MethodFlow.analyze(MethodListing.owner(method), method, hierarchy);
        }
    }
}
