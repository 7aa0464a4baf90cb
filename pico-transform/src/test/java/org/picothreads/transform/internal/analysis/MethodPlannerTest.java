package org.picothreads.transform.internal.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.util.Printer;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.analysis.MethodPlan.CapturedSite;
import org.picothreads.transform.internal.analysis.MethodPlan.SavedSlot;
import org.picothreads.transform.internal.emit.MonitorWeaver;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.report.SavedValue;
import org.picothreads.transform.testing.MethodListing;
import org.picothreads.transform.testing.SampleMethods;

/** The plan of a method: each site captured or pinned with its reason, and what a captured site saves. */
class MethodPlannerTest {
    @Test
    void a_captured_site_saves_its_live_locals_and_its_stack_but_pushes_a_constant_again() {
        MethodPlan plan = SampleMethods.plan(SampleMethods.scaled());
        assertEquals(List.of(), plan.pinned());
        CapturedSite site = plan.captured().get(0);
        // Local 1 (text) is not read after the call; local 0 (count) is. The stack: count, 2, text.
        assertEquals(List.of("local 0 INT", "local 2 INT", "again ICONST_2", "local 3 OBJECT java/lang/String"),
                describe(site.slots()));
        assertEquals(3, site.continuedCount());
        assertEquals(2, site.belowCount());
        assertEquals(2, plan.firstTemporary());
        assertEquals(2, plan.temporarySize());
        assertEquals(0, site.siteCode());
        assertEquals(7, site.report().line());
        assertEquals("sample/Blocking.take(Ljava/lang/String;)I", site.report().target());
        assertEquals(List.of(new SavedValue("local", 0, null, "I"), new SavedValue("stack", 0, null, "I"),
                new SavedValue("stack", 2, null, "Ljava/lang/String;")), site.report().saved());
        assertNull(plan.reasonNoCapture());
    }

    @Test
    void a_call_of_a_method_its_own_class_declares_and_binds_saves_no_arguments() throws Exception {
        MethodInsnNode call = call(Opcodes.INVOKESTATIC, "sample/Sample", "take", "(Ljava/lang/String;)I");
        MethodNode method = MethodListing.method(Opcodes.ACC_STATIC, "scaled", "(ILjava/lang/String;)I", 3, 2,
                new VarInsnNode(Opcodes.ILOAD, 0), new InsnNode(Opcodes.ICONST_2), new VarInsnNode(Opcodes.ALOAD, 1),
                call, new InsnNode(Opcodes.IMUL), new InsnNode(Opcodes.IADD), new VarInsnNode(Opcodes.ILOAD, 0),
                new InsnNode(Opcodes.IADD), new InsnNode(Opcodes.IRETURN));
        ClassNode owner = MethodListing.owner(method);
        owner.methods.add(new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC, "take", "(Ljava/lang/String;)I",
                null, null));
        MethodPlan plan;
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            plan = MethodPlanner.plan(owner, 0, method, MethodFlow.analyze(owner, method, hierarchy), List.of(call),
                    Map.of(), Map.of(), Map.of());
        }
        CapturedSite site = plan.captured().get(0);
        assertFalse(site.savesArguments());
        // count and the constant below the argument are kept; text, the argument, is not saved
        assertEquals(List.of("local 0 INT", "local 2 INT", "again ICONST_2"), describe(site.slots()));
        assertEquals(List.of(), site.argumentSlots());
        assertEquals(3, site.stackSlots().size());
        assertEquals(List.of(new SavedValue("local", 0, null, "I"), new SavedValue("stack", 0, null, "I")),
                site.report().saved());
        assertTrue(SampleMethods.plan(SampleMethods.scaled()).captured().get(0).savesArguments());
    }

    @Test
    void a_call_of_the_runtime_sleep_saves_no_argument_and_its_restore_passes_a_zero() throws Exception {
        MethodInsnNode sleep = call(Opcodes.INVOKESTATIC, RuntimeNames.THREAD_CALLS, "sleep", "(J)V");
        // static int napped(int count, long millis) { sleep(millis); return count; }
        MethodNode method = MethodListing.method(Opcodes.ACC_STATIC, "napped", "(IJ)I", 2, 3,
                new VarInsnNode(Opcodes.LLOAD, 1), sleep, new VarInsnNode(Opcodes.ILOAD, 0),
                new InsnNode(Opcodes.IRETURN));
        ClassNode owner = MethodListing.owner(method);
        MethodPlan plan;
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            plan = MethodPlanner.plan(owner, 0, method, MethodFlow.analyze(owner, method, hierarchy), List.of(sleep),
                    Map.of(), Map.of(), Map.of());
        }
        CapturedSite site = plan.captured().get(0);
        // the site is invoked again by the innermost activation, but with a zero for millis: nothing of it is saved
        assertTrue(site.savesArguments());
        assertEquals(List.of("local 0 INT", "default local 3 LONG"), describe(site.slots()));
        assertEquals(List.of(new SavedValue("local", 0, null, "I")), site.report().saved());
        SavedSlot millis = site.argumentSlots().get(0);
        assertFalse(millis.isSaved());
        assertTrue(millis.restoresDefault());
        // TimeUnit.sleep's redirect, a reference and a long under the call: neither is saved
        MethodInsnNode unitSleep = call(Opcodes.INVOKESTATIC, RuntimeNames.CONCURRENT_CALLS, "sleep",
                "(Ljava/util/concurrent/TimeUnit;J)V");
        // static int nappedIn(int count, TimeUnit unit, long timeout) { sleep(unit, timeout); return count; }
        MethodNode inUnits = MethodListing.method(Opcodes.ACC_STATIC, "nappedIn", "(ILjava/util/concurrent/TimeUnit;J)I",
                3, 4, new VarInsnNode(Opcodes.ALOAD, 1), new VarInsnNode(Opcodes.LLOAD, 2), unitSleep,
                new VarInsnNode(Opcodes.ILOAD, 0), new InsnNode(Opcodes.IRETURN));
        ClassNode unitOwner = MethodListing.owner(inUnits);
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            plan = MethodPlanner.plan(unitOwner, 0, inUnits, MethodFlow.analyze(unitOwner, inUnits, hierarchy),
                    List.of(unitSleep), Map.of(), Map.of(), Map.of());
        }
        CapturedSite unitSite = plan.captured().get(0);
        assertEquals(List.of(new SavedValue("local", 0, null, "I")), unitSite.report().saved());
        for (SavedSlot argument : unitSite.argumentSlots()) {
            assertFalse(argument.isSaved(), argument::toString);
            assertTrue(argument.restoresDefault(), argument::toString);
        }
        assertEquals(2, unitSite.argumentSlots().size());
        // a call of a method that reads its arguments again is not listed, and saves them
        MethodInsnNode other = call(Opcodes.INVOKESTATIC, RuntimeNames.THREAD_CALLS, "join",
                "(Ljava/lang/Thread;J)V");
        assertFalse(RuntimeNames.isReinvokedWithoutArguments(other.owner, other.name, other.desc));
        assertTrue(RuntimeNames.isReinvokedWithoutArguments(RuntimeNames.THREAD_CALLS, "sleep", "(JI)V"));
        assertFalse(RuntimeNames.isReinvokedWithoutArguments(SampleMethods.BLOCKING, "sleep", "(J)V"));
    }

    @Test
    void only_a_call_bound_at_compile_time_to_a_method_the_class_declares_enters_its_own_method() {
        ClassNode owner = MethodListing.owner(SampleMethods.scaled());
        owner.methods.add(new MethodNode(Opcodes.ACC_PUBLIC, "open", "()V", null, null));
        owner.methods.add(new MethodNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, "fixed", "()V", null, null));
        owner.methods.add(new MethodNode(Opcodes.ACC_PRIVATE, "hidden", "()V", null, null));
        assertTrue(MethodPlanner.entersOwnMethod(owner, call(Opcodes.INVOKESTATIC, "sample/Sample", "scaled",
                "(ILjava/lang/String;)I")));
        assertTrue(MethodPlanner.entersOwnMethod(owner, call(Opcodes.INVOKEVIRTUAL, "sample/Sample", "fixed", "()V")));
        assertTrue(MethodPlanner.entersOwnMethod(owner, call(Opcodes.INVOKESPECIAL, "sample/Sample", "hidden", "()V")));
        // overridable, declared by another class, inherited, or a constructor
        assertFalse(MethodPlanner.entersOwnMethod(owner, call(Opcodes.INVOKEVIRTUAL, "sample/Sample", "open", "()V")));
        assertFalse(MethodPlanner.entersOwnMethod(owner, call(Opcodes.INVOKESTATIC, SampleMethods.BLOCKING, "take",
                "(Ljava/lang/String;)I")));
        assertFalse(MethodPlanner.entersOwnMethod(owner, call(Opcodes.INVOKEVIRTUAL, "sample/Sample", "hashCode",
                "()I")));
        assertFalse(MethodPlanner.entersOwnMethod(owner, call(Opcodes.INVOKESPECIAL, "sample/Sample", "<init>",
                "()V")));
        owner.access |= Opcodes.ACC_FINAL;
        assertTrue(MethodPlanner.entersOwnMethod(owner, call(Opcodes.INVOKEVIRTUAL, "sample/Sample", "open", "()V")));
    }

    private static MethodInsnNode call(int opcode, String owner, String name, String descriptor) {
        return new MethodInsnNode(opcode, owner, name, descriptor, false);
    }

    @Test
    void a_site_with_an_object_under_construction_on_its_stack_is_pinned_with_that_reason() {
        MethodNode method = MethodListing.method(Opcodes.ACC_STATIC, "builder", "(Ljava/lang/String;)V", 3, 1,
                new TypeInsnNode(Opcodes.NEW, "java/lang/StringBuilder"), new InsnNode(Opcodes.DUP),
                new VarInsnNode(Opcodes.ALOAD, 0),
                new MethodInsnNode(Opcodes.INVOKESTATIC, SampleMethods.BLOCKING, "take", "(Ljava/lang/String;)I",
                        false),
                new MethodInsnNode(Opcodes.INVOKESPECIAL, "java/lang/StringBuilder", "<init>", "(I)V", false),
                new InsnNode(Opcodes.POP), new InsnNode(Opcodes.RETURN));
        MethodPlan plan = SampleMethods.plan(method);
        assertFalse(plan.captures());
        assertEquals(1, plan.pinned().size());
        assertEquals("an object under construction is on the operand stack", plan.pinned().get(0).reason());
        assertEquals("an object under construction is on the operand stack", plan.reasonNoCapture());
    }

    @Test
    void a_constructor_and_an_instance_method_that_assigns_its_local_0_are_never_capturable() {
        MethodNode constructor = MethodListing.method(Opcodes.ACC_PUBLIC, "<init>", "()V", 1, 1,
                new InsnNode(Opcodes.RETURN));
        ClassNode owner = MethodListing.owner(constructor);
        assertEquals("in a constructor, which cannot be re-entered",
                MethodPlanner.reasonNeverCapturable(owner, constructor, 0));
        MethodNode reassigning = MethodListing.method(Opcodes.ACC_PUBLIC, "reassign", "()V", 1, 1,
                new InsnNode(Opcodes.ACONST_NULL), new VarInsnNode(Opcodes.ASTORE, 0), new InsnNode(Opcodes.RETURN));
        assertTrue(MethodPlanner.reasonNeverCapturable(owner, reassigning, 0).startsWith(
                "in an instance method that assigns its local 0"));
        assertNull(MethodPlanner.reasonNeverCapturable(owner, SampleMethods.scaled(), 0));
    }

    @Test
    void a_site_inside_a_converted_region_holds_it_saves_its_lock_first_and_the_restore_enters_the_region_again()
            throws Exception {
        MethodNode method = SampleMethods.locked();
        ClassNode owner = MethodListing.owner(method);
        MethodPlan plan;
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            MethodFlow flow = MethodFlow.analyze(owner, method, hierarchy);
            List<MethodInsnNode> sites = new ArrayList<>(SampleMethods.blockingCalls(method));
            Map<AbstractInsnNode, Integer> regions = MethodPlanner.regionsToConvert(flow, sites);
            Map<AbstractInsnNode, Integer> checked = SynchronizedRegions.needingHolderCheck(method, regions.keySet());
            assertEquals(Map.of(), checked);
            sites.addAll(MonitorWeaver.weave(method, flow, regions));
            flow = MethodFlow.analyze(owner, method, hierarchy);
            plan = MethodPlanner.plan(owner, 0, method, flow, sites, regions, checked, Map.of());
        }
        assertEquals(2, plan.captured().size());
        CapturedSite take = plan.captured().get(0);
        assertEquals("take", take.call().name);
        assertEquals(1, take.held().size());
        assertEquals(1, take.held().get(0).lock());
        assertEquals(List.of("local 1 OBJECT java/lang/Object"), describe(take.slots()));
        assertEquals(RuntimeNames.SITE_HOLDS_MONITORS, take.siteCode());
        CapturedSite enter = plan.captured().get(1);
        assertEquals("enter", enter.call().name);
        assertEquals(List.of(), enter.held());
        assertEquals(1, plan.reentries().size());
        assertEquals(1, plan.reentries().get(0).locks()[0]);
        assertEquals(plan.frameLocal() + 1, plan.resumePointLocal());
    }

    /** Each slot as "local N KIND type" or, for a value pushed again, "again OPCODE". */
    private static List<String> describe(List<SavedSlot> slots) {
        List<String> described = new ArrayList<>();
        for (SavedSlot slot : slots) {
            if (slot.constant() != null) {
                described.add("again " + Printer.OPCODES[slot.constant().getOpcode()]);
            } else if (slot.restoredAsDefault()) {
                described.add("default local " + slot.local() + " " + slot.kind());
            } else {
                described.add("local " + slot.local() + " " + slot.kind()
                        + (slot.kind() == SavedKind.OBJECT ? " " + slot.type().getInternalName() : ""));
            }
        }
        return described;
    }
}
