package org.picothreads.transform.internal.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.internal.analysis.MethodFlow;
import org.picothreads.transform.internal.analysis.MethodPlanner;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.testing.MethodListing;
import org.picothreads.transform.testing.SampleMethods;

/** The runtime monitor given to a synchronized region around a suspension call site. */
class MonitorWeaverTest {
    @Test
    void a_region_around_a_site_takes_the_runtime_monitor_before_the_jvm_one_and_releases_it_after_each_exit()
            throws Exception {
        MethodNode method = SampleMethods.locked();
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            MethodFlow flow = MethodFlow.analyze(MethodListing.owner(method), method, hierarchy);
            Map<AbstractInsnNode, Integer> regions = MethodPlanner.regionsToConvert(flow,
                    SampleMethods.blockingCalls(method));
            assertEquals(List.of(1), List.copyOf(regions.values()));
            List<MethodInsnNode> enterCalls = MonitorWeaver.weave(method, flow, regions);
            assertEquals(1, enterCalls.size());
            assertEquals("enter", enterCalls.get(0).name);
        }
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 null
                    TRYCATCHBLOCK L2 L3 L2 null
                    ALOAD 0
                    DUP
                    ASTORE 1
                    INVOKESTATIC org/picothreads/runtime/internal/Monitors.enter (Ljava/lang/Object;)V
                    ALOAD 1
                    MONITORENTER
                   L0
                    INVOKESTATIC sample/Blocking.take ()I
                    ISTORE 2
                    ALOAD 1
                    MONITOREXIT
                   L1
                    ALOAD 1
                    INVOKESTATIC org/picothreads/runtime/internal/Monitors.exit (Ljava/lang/Object;)V
                    ILOAD 2
                    IRETURN
                   L2
                    ASTORE 3
                    ALOAD 1
                    MONITOREXIT
                   L3
                    ALOAD 1
                    INVOKESTATIC org/picothreads/runtime/internal/Monitors.exit (Ljava/lang/Object;)V
                    ALOAD 3
                    ATHROW
                    MAXSTACK = 3
                    MAXLOCALS = 4
                """, MethodListing.of(method));
    }
}
