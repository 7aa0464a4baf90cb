package org.picothreads.transform.internal.emit;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.analysis.MethodFlow;
import org.picothreads.transform.report.SavedValue;
import org.picothreads.transform.report.SuspensionPoint;

/**
 * Rewrites a method so that a thread can be captured at, and restored to, each of its suspension call sites, in two
 * copies woven from one {@link Plan}: the method itself keeps only its normal path, and its continuation
 * ({@link ContinuationMethod}), which only the class's resume entry calls, holds the restore code. The method gets no
 * entry check and no restore code, so that its bytecode stays within a few bytes per site of the original and the JIT
 * inlines it where it inlined the original; the values a capture saves are pushed by a small capture helper per site,
 * a private static synthetic method shared by both copies.
 *
 * <p>A resume is lazy: the runtime re-enters only the innermost saved activation, which invokes its call again;
 * every other saved activation is re-entered only when the one above it has returned, and continues after its call
 * with the value returned, or with the exception thrown raised at the call site. The runtime re-enters an
 * activation through the class's resume entry ({@link ResumeEntryWeaver}), which calls the continuation with default
 * arguments and its receiver; the continuation restores everything else. At call site {@code k} (of {@code n}),
 * whose operand stack holds the values below its arguments {@code b0 .. bj-1} and its receiver and arguments
 * {@code a0 .. am-1}:
 *
 * <pre>
 * the method:
 * site k:    Stack: c0 .. ci-1, s0 .. sl-1          (c: entries below the lowest saved one, left in place)
 *              store s0 .. sl-1 into temporaries, load them again
 *              CallerToken.pass(null)                 (only when INVOKE calls into the runtime package)
 *            from_k: INVOKE ...  to_k:               Stack: b0 .. bj-1, result
 * handler_k: (first exception table entry for [from_k, to_k), catching Capture; placed after all code)
 *              exit the JVM monitors held at the site, innermost first
 *              $picothreads$capture$M$k(this, each saved value); throw capture
 *
 * the continuation (same name, one more parameter; the same code as the method, plus):
 * entry:     Frame f = resume                        (linked to KEY, see EntryCalls)
 *            switch (f.resumePoint()) { case 2k: goto again_k   case 2k+1: goto continue_k
 *                                       default: throw ResumeErrors.invalidResumePoint(KEY) }
 * site k:    Stack: b0 .. bj-1, a0 .. am-1
 *              store them into temporaries           Stack: (empty)
 *            reload_k:
 *              load them from temporaries            Stack: b0 .. bj-1, a0 .. am-1
 *              CallerToken.pass(f)                    (only when INVOKE calls into the runtime package)
 *            from_k: INVOKE ...  to_k:               Stack: b0 .. bj-1, result
 * handler_k: as the method's
 * again_k:   live locals and temporaries = f.popX()... (checked casts to their analysed types)
 *            goto reload_k
 * continue_k: live locals and b0 .. bj-1's temporaries = f.popX()...
 *            goto result_k
 * result_k:  load b0 .. bj-1                          Stack: b0 .. bj-1
 *            Continuation.resultX(), cast to the call's type     (covered by a copy of every exception table
 *                                                                  entry that covers INVOKE k, in their order)
 *            goto to_k                                Stack: b0 .. bj-1, result
 *
 * the capture helper of site k (see captureHelpers):
 *              f = capture(this or null, site, counts)  (linked to Owner and KEY, see EntryCalls)
 *              f.pushX(live local)...; f.pushX(b0 .. bj-1)...          (not this: the entry passes it again)
 *              if (f.savesArguments()) f.pushX(a0 .. am-1)...          (the innermost activation only)
 * </pre>
 *
 * Only the locals live at the call (read later on some path, including by a handler) are saved, and
 * values known to be null are restored as null without being saved; a stack entry that a constant produced, or the
 * receiver loaded from local 0, is popped at the spill and pushed again at the reload, never saved. At a site inside
 * synchronized regions the capture handler also exits the JVM monitors held there (innermost first) and the restore
 * code enters them again (outermost first); their runtime monitors stay owned across the suspension
 * ({@link MonitorWeaver}). Monitors held by several saved activations are taken again by each activation when it
 * continues, not before.
 *
 * <p>The restore code enters each held monitor again through the region's own {@code ALOAD lock; MONITORENTER},
 * never through a MONITORENTER of its own: HotSpot's JIT compilers refuse a method (it then runs interpreted for
 * ever) unless every MONITOREXIT provably releases the object of a MONITORENTER that every path to it went
 * through. A method whose sites hold monitors gets a local {@code r}, the resume point while restoring and -1
 * otherwise:
 *
 * <pre>
 * entry:     ... r = f.resumePoint(); switch (r) ...        (r is -1 again once a restore is done)
 * region R:  reenter_R: ALOAD lock; MONITORENTER; if (r >= 0) goto dispatch_R      (the normal path: one test)
 * restore_k (site k inside regions R1 .. Rm, outermost first; the lock objects are saved first; both 2k and 2k+1):
 *              locals live at R1's entry = 0 or null (dead here; the merge at reenter_R1 needs their types)
 *              lock of R1 = f.popObject(); goto reenter_R1
 * dispatch_Ri: switch (r) { case 2k, 2k+1: goto continue_k_Ri }
 * continue_k_Ri (i &lt; m):  locals live at Ri+1's entry = 0 or null; lock of Ri+1 = f.popObject(); goto reenter_Ri+1
 * continue_k_Rm:           the other saved values but the arguments = f.popX()...; r = -1
 *                          if the mode was 2k+1 goto result_k; the arguments = f.popX()...; goto reload_k
 * </pre>
 *
 * Each {@code continue} block runs holding monitors, so a catch-any handler covers it that exits them and
 * rethrows, as javac's does for a synchronized block.
 *
 * <p>The continuation's local {@code f} keeps the frame the activation was restored from, and a call into the
 * runtime passes it on through {@code CallerToken.pass(f)} (the method, never restored, passes null): a blocking
 * primitive called directly by a restored activation knows every frame below it was checked at the last capture
 * and skips the frame check (see the runtime's {@code CallerToken}).
 */
public final class CaptureWeaver {
    /**
     * One value saved at a site: where it lives, its kind and, for references, its type; for a stack entry
     * that a constant produced, that constant instruction (the entry is pushed again, never saved).
     */
    private record SavedSlot(int local, SavedKind kind, Type type, AbstractInsnNode constant) {
        boolean isSaved() {
            return kind != SavedKind.NULL && constant == null;
        }
    }

    /** A synchronized region held at a site: its MONITORENTER and the local holding its lock object. */
    public record HeldMonitor(AbstractInsnNode enter, int lock) {
    }

    /** The code that takes a region's monitor again while restoring a site inside it. */
    private static final class Reentry {
        /** Before the region's {@code ALOAD lock; MONITORENTER}. */
        final LabelNode reenter = new LabelNode();
        /** Where a restoring path goes once the monitor is taken. */
        final LabelNode dispatch = new LabelNode();
        /** Exits this region's monitor and the enclosing ones when restore code inside it throws. */
        final LabelNode handler = new LabelNode();
        /** The locals the region's entry reads later, each with the kind of value the normal path has there. */
        final List<SavedSlot> entryLocals = new ArrayList<>();
        /** Lock locals of this region and the enclosing ones, outermost first. */
        int[] locks;
        /** The continuation of each site restored through this region, by resume point. */
        final Map<Integer, LabelNode> continuations = new TreeMap<>();
    }

    private CaptureWeaver() {
    }

    /**
     * Why the restore code cannot enter the region's monitor again through its own MONITORENTER, or null when it
     * can: it needs {@link MonitorWeaver}'s {@code ALOAD lock; MONITORENTER} with nothing else on the stack, and a
     * value of the right kind for every local the region's entry reads later.
     */
    public static String whyNotReenterable(MethodFlow flow, HeldMonitor monitor) {
        AbstractInsnNode load = MonitorWeaver.previousInstruction(monitor.enter());
        Frame<BasicValue> frame = flow.frameBefore(monitor.enter());
        if (!(load instanceof VarInsnNode variable) || variable.getOpcode() != Opcodes.ALOAD
                || variable.var != monitor.lock() || frame == null || frame.getStackSize() != 1) {
            return "inside a synchronized block entered with other values on the operand stack";
        }
        Frame<BasicValue> entry = flow.frameBefore(load);
        BitSet live = flow.liveLocalsBefore(load);
        for (int local = live.nextSetBit(0); local >= 0; local = live.nextSetBit(local + 1)) {
            if (local < entry.getLocals() && SavedKind.of(entry.getLocal(local)) == null) {
                return "inside a synchronized block whose entry keeps an object under construction in a local";
            }
        }
        return null;
    }

    /**
     * What one suspension call site saves, read from the method's flow before any code changes: its values in the
     * order the capture pushes them (held regions' locks, live locals, the stack below the arguments, then the
     * arguments), its stack entries with the temporaries they spill to, and what the report says of it.
     */
    private record SitePlan(MethodInsnNode site, int point, int siteCode, List<SavedSlot> slots, int continuedCount,
            List<SavedSlot> stackSlots, int belowCount, int[] locks, List<HeldMonitor> held,
            List<TryCatchBlockNode> covering, SuspensionPoint report) {
        List<SavedSlot> argumentSlots() {
            return slots.subList(continuedCount, slots.size());
        }
    }

    /**
     * The capture plan of a method: each site's saved values, the temporaries its stack spills to (every site starts
     * at the same first temporary, after the method's own locals), and the regions its restore code enters again.
     * Both copies of the method are woven from it: the method itself, which keeps only its normal path
     * ({@link #weaveNormalPath}), and its continuation ({@link #weaveContinuation}).
     */
    public static final class Plan {
        private final String owner;
        private final boolean ownerIsInterface;
        private final String key;
        private final int methodIndex;
        private final boolean isStatic;
        private final List<SitePlan> sites;
        /** The first local past the method's own, where every site's spilled stack starts. */
        private final int firstTemporary;
        /** The largest number of local slots a site's spilled stack takes. */
        private final int temporarySize;
        private final Map<AbstractInsnNode, Reentry> reentries;

        private Plan(ClassNode owner, int methodIndex, MethodNode method, List<SitePlan> sites, int firstTemporary,
                int temporarySize, Map<AbstractInsnNode, Reentry> reentries) {
            this.owner = owner.name;
            this.ownerIsInterface = (owner.access & Opcodes.ACC_INTERFACE) != 0;
            this.key = owner.name + "." + method.name + method.desc;
            this.methodIndex = methodIndex;
            this.isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
            this.sites = sites;
            this.firstTemporary = firstTemporary;
            this.temporarySize = temporarySize;
            this.reentries = reentries;
        }

        /** The report of each suspension point, in resume point order. */
        public List<SuspensionPoint> points() {
            List<SuspensionPoint> points = new ArrayList<>();
            for (SitePlan site : sites) {
                points.add(site.report());
            }
            return points;
        }

        /** The planned sites, in resume point order. */
        public List<MethodInsnNode> sites() {
            List<MethodInsnNode> calls = new ArrayList<>();
            for (SitePlan site : sites) {
                calls.add(site.site());
            }
            return calls;
        }
    }

    /**
     * Plans capture and restore at the given sites, which must be capturable: no monitor held, no object under
     * construction on the stack, and an instance method never assigns its local 0 (so a stack entry loaded from it,
     * the receiver, is loaded again instead of being saved).
     *
     * @param owner        the class declaring the method
     * @param methodIndex  the method's index among the class's capturing methods, for its resume entry
     */
    public static Plan plan(ClassNode owner, int methodIndex, MethodNode method, MethodFlow flow,
            List<MethodInsnNode> sites, Map<MethodInsnNode, List<HeldMonitor>> heldMonitors) {
        boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
        int firstTemporary = method.maxLocals;
        int temporarySize = 0;
        List<SitePlan> plans = new ArrayList<>();
        for (int point = 0; point < sites.size(); point++) {
            MethodInsnNode site = sites.get(point);
            Frame<BasicValue> frame = flow.frameBefore(site);
            BitSet live = flow.liveLocalsBefore(site);
            List<HeldMonitor> held = heldMonitors.getOrDefault(site, List.of());
            List<SavedSlot> slots = new ArrayList<>();
            List<SavedValue> reported = new ArrayList<>();
            // The lock objects come first: the restore code takes them out one region at a time.
            BitSet lockLocals = new BitSet();
            for (HeldMonitor monitor : held) {
                BasicValue value = frame.getLocal(monitor.lock());
                slots.add(new SavedSlot(monitor.lock(), SavedKind.OBJECT, value.getType(), null));
                reported.add(new SavedValue("local", monitor.lock(), localName(method, monitor.lock(), site),
                        describe(value)));
                lockLocals.set(monitor.lock());
            }
            for (int local = live.nextSetBit(0); local >= 0; local = live.nextSetBit(local + 1)) {
                BasicValue value = local < frame.getLocals() ? frame.getLocal(local) : null;
                SavedKind kind = SavedKind.of(value);
                if (kind == null || lockLocals.get(local) || local == 0 && !isStatic) {
                    continue; // the receiver is not saved as a local: the resume entry passes it again
                }
                slots.add(new SavedSlot(local, kind, value.getType(), null));
                reported.add(new SavedValue("local", local, localName(method, local, site), describe(value)));
            }
            int argumentCount = Type.getArgumentTypes(site.desc).length
                    + (site.getOpcode() == Opcodes.INVOKESTATIC ? 0 : 1);
            int belowCount = frame.getStackSize() - argumentCount;
            int temporary = firstTemporary;
            List<SavedSlot> stackSlots = new ArrayList<>();
            for (int index = 0; index < frame.getStackSize(); index++) {
                BasicValue value = frame.getStack(index);
                SavedKind kind = SavedKind.of(value);
                AbstractInsnNode constant = flow.constantProducer(site, index);
                if (constant == null && !isStatic && flow.loadsReceiver(site, index)) {
                    constant = new VarInsnNode(Opcodes.ALOAD, 0); // local 0 keeps the receiver: load it again
                }
                stackSlots.add(new SavedSlot(temporary, kind, value.getType(), constant));
                if (constant == null) {
                    reported.add(new SavedValue("stack", index, null, describe(value)));
                    temporary += kind.size;
                }
            }
            temporarySize = Math.max(temporarySize, temporary - firstTemporary);
            slots.addAll(stackSlots.subList(0, belowCount));
            int continuedCount = slots.size();
            slots.addAll(stackSlots.subList(belowCount, stackSlots.size()));
            int[] locks = new int[held.size()];
            for (int depth = 0; depth < locks.length; depth++) {
                locks[depth] = held.get(depth).lock();
            }
            int siteCode = methodIndex << 16 | point | (held.isEmpty() ? 0 : RuntimeNames.SITE_HOLDS_MONITORS);
            plans.add(new SitePlan(site, point, siteCode, slots, continuedCount, stackSlots, belowCount, locks, held,
                    coveringEntries(method, site), new SuspensionPoint(point, lineOf(site),
                            Redirects.table().describeCall(site.owner, site.name, site.desc), reported)));
        }
        Map<AbstractInsnNode, Reentry> reentries = new LinkedHashMap<>();
        for (MethodInsnNode site : sites) {
            List<HeldMonitor> held = heldMonitors.getOrDefault(site, List.of());
            for (int depth = 0; depth < held.size(); depth++) {
                if (!reentries.containsKey(held.get(depth).enter())) {
                    reentries.put(held.get(depth).enter(), reentry(flow, held.subList(0, depth + 1), isStatic));
                }
            }
        }
        return new Plan(owner, methodIndex, method, plans, firstTemporary, temporarySize, reentries);
    }

    /**
     * Weaves the normal path of a planned method into {@code method}, a copy of the planned one made before any
     * change, whose calls at the planned sites' positions are {@code sites}: at each site, only the stack entries
     * from the lowest saved one up are spilled and reloaded, the capture handler passes the saved values to the
     * site's capture helper ({@link #captureHelpers}), and nothing restores: a resume enters the continuation.
     */
    public static void weaveNormalPath(MethodNode method, List<MethodInsnNode> sites, Plan plan) {
        InsnList handlers = new InsnList();
        List<TryCatchBlockNode> captureEntries = new ArrayList<>();
        for (int point = 0; point < sites.size(); point++) {
            MethodInsnNode site = sites.get(point);
            SitePlan planned = plan.sites.get(point);
            List<SavedSlot> stackSlots = planned.stackSlots();
            int lowestSaved = stackSlots.size();
            for (int index = stackSlots.size() - 1; index >= 0; index--) {
                if (stackSlots.get(index).isSaved()) {
                    lowestSaved = index;
                }
            }
            LabelNode from = new LabelNode();
            LabelNode to = new LabelNode();
            LabelNode handler = new LabelNode();
            InsnList spill = new InsnList();
            // Stack: s0 .. sn-1; the entries below the lowest saved one stay where they are.
            spill.add(spillCode(stackSlots.subList(lowestSaved, stackSlots.size())));
            spill.add(loadCode(stackSlots.subList(lowestSaved, stackSlots.size())));
            if (RuntimeNames.isRuntimeClass(site.owner)) {
                // A normal entry restored nothing: the token says so, whatever an earlier call left in it.
                spill.add(new InsnNode(Opcodes.ACONST_NULL));
                spill.add(EntryCalls.passToken());
            }
            spill.add(from);
            method.instructions.insertBefore(site, spill);
            method.instructions.insert(site, to);
            captureEntries.add(new TryCatchBlockNode(from, to, handler, RuntimeNames.CAPTURE));
            handlers.add(handler);
            handlers.add(handlerCode(plan, planned));
        }
        method.instructions.add(handlers);
        method.tryCatchBlocks.addAll(0, captureEntries);
        method.maxLocals = Math.max(method.maxLocals, plan.firstTemporary + plan.temporarySize);
    }

    /**
     * Weaves the restore code into the planned method, which becomes its continuation: the copy the resume entry
     * enters, which takes its saved frame, jumps to the site it stopped at and goes on from there with the same code
     * as the method (see the picture above).
     *
     * @return the report of each suspension point, in resume point order
     */
    public static List<SuspensionPoint> weaveContinuation(MethodNode method, Plan plan) {
        boolean reentersMonitors = !plan.reentries.isEmpty();
        int frameLocal = plan.firstTemporary + plan.temporarySize;
        int resumePointLocal = frameLocal + 1;
        InsnList restoreBlocks = new InsnList();
        InsnList handlers = new InsnList();
        LabelNode[] restoreLabels = new LabelNode[2 * plan.sites.size()];
        List<TryCatchBlockNode> captureEntries = new ArrayList<>();
        List<TryCatchBlockNode> resultEntries = new ArrayList<>();
        Map<AbstractInsnNode, Reentry> reentries = plan.reentries;

        for (SitePlan planned : plan.sites) {
            int point = planned.point();
            MethodInsnNode site = planned.site();
            List<HeldMonitor> held = planned.held();
            List<SavedSlot> slots = planned.slots();
            int continuedCount = planned.continuedCount();
            List<SavedSlot> stackSlots = planned.stackSlots();
            List<SavedSlot> belowSlots = stackSlots.subList(0, planned.belowCount());

            LabelNode reload = new LabelNode();
            LabelNode from = new LabelNode();
            LabelNode to = new LabelNode();
            LabelNode handler = new LabelNode();
            LabelNode result = new LabelNode();

            InsnList spill = new InsnList();
            // Stack: s0 .. sn-1
            spill.add(spillCode(stackSlots));
            // Stack: (empty)
            spill.add(reload);
            spill.add(loadCode(stackSlots));
            // Stack: s0 .. sn-1
            if (RuntimeNames.isRuntimeClass(site.owner)) {
                spill.add(new VarInsnNode(Opcodes.ALOAD, frameLocal));
                spill.add(EntryCalls.passToken());
            }
            spill.add(from);
            method.instructions.insertBefore(site, spill);
            method.instructions.insert(site, to);
            captureEntries.add(new TryCatchBlockNode(from, to, handler, RuntimeNames.CAPTURE));

            handlers.add(handler);
            handlers.add(handlerCode(plan, planned));
            handlers.add(resultCode(result, belowSlots, Type.getReturnType(site.desc), to, planned.covering(),
                    resultEntries));

            if (held.isEmpty()) {
                restoreLabels[2 * point] = new LabelNode();
                restoreLabels[2 * point + 1] = new LabelNode();
                restoreBlocks.add(restoreLabels[2 * point]);
                restoreBlocks.add(restoreCode(frameLocal, slots));
                restoreBlocks.add(resetResumePoint(reentersMonitors, resumePointLocal));
                restoreBlocks.add(new JumpInsnNode(Opcodes.GOTO, reload));
                restoreBlocks.add(restoreLabels[2 * point + 1]);
                restoreBlocks.add(restoreCode(frameLocal, slots.subList(0, continuedCount)));
                restoreBlocks.add(resetResumePoint(reentersMonitors, resumePointLocal));
                restoreBlocks.add(new JumpInsnNode(Opcodes.GOTO, result));
            } else {
                LabelNode restore = new LabelNode();
                restoreLabels[2 * point] = restore;
                restoreLabels[2 * point + 1] = restore;
                restoreBlocks.add(restore);
            }
            // The saved values are taken in order: first each region's lock, as its monitor is entered again, then
            // the others, once every monitor is held again.
            for (int depth = 0; depth < held.size() || depth == held.size() && !held.isEmpty(); depth++) {
                Reentry enclosing = depth == 0 ? null : reentries.get(held.get(depth - 1).enter());
                LabelNode start = new LabelNode();
                restoreBlocks.add(start);
                if (enclosing != null) {
                    enclosing.continuations.put(point, start);
                }
                if (depth < held.size()) {
                    Reentry region = reentries.get(held.get(depth).enter());
                    restoreBlocks.add(defaultValues(region.entryLocals));
                    restoreBlocks.add(restoreCode(frameLocal, slots.subList(depth, depth + 1)));
                    restoreBlocks.add(new JumpInsnNode(Opcodes.GOTO, region.reenter));
                } else {
                    restoreBlocks.add(restoreCode(frameLocal, slots.subList(depth, continuedCount)));
                    // Stack: (empty). Continue after the call (odd resume point) or invoke it again.
                    restoreBlocks.add(new VarInsnNode(Opcodes.ILOAD, resumePointLocal));
                    restoreBlocks.add(new InsnNode(Opcodes.ICONST_M1));
                    restoreBlocks.add(new VarInsnNode(Opcodes.ISTORE, resumePointLocal));
                    restoreBlocks.add(new InsnNode(Opcodes.ICONST_1));
                    restoreBlocks.add(new InsnNode(Opcodes.IAND));
                    restoreBlocks.add(new JumpInsnNode(Opcodes.IFNE, result));
                    restoreBlocks.add(restoreCode(frameLocal, slots.subList(continuedCount, slots.size())));
                    restoreBlocks.add(new JumpInsnNode(Opcodes.GOTO, reload));
                }
                if (enclosing != null) {
                    // Monitors are held from here on: a failure must release them, as javac's handler would.
                    coverWithHandler(restoreBlocks, start, enclosing, captureEntries);
                }
            }
        }

        InsnList entry = new InsnList();
        LabelNode invalid = new LabelNode();
        // Only the resume entry calls the continuation, and only for the restoring carrier: the frame is there.
        entry.add(EntryCalls.resume(plan.key));
        // Stack: frame
        entry.add(new VarInsnNode(Opcodes.ASTORE, frameLocal));
        entry.add(new VarInsnNode(Opcodes.ALOAD, frameLocal));
        entry.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME, RuntimeNames.RESUME_POINT,
                RuntimeNames.RESUME_POINT_DESCRIPTOR, false));
        if (reentersMonitors) {
            // Stack: resume point
            entry.add(new InsnNode(Opcodes.DUP));
            entry.add(new VarInsnNode(Opcodes.ISTORE, resumePointLocal));
        }
        entry.add(new TableSwitchInsnNode(0, restoreLabels.length - 1, invalid, restoreLabels));
        entry.add(invalid);
        // Stack: (empty). A resume point this method does not have: the runtime names the method and throws.
        entry.add(new LdcInsnNode(plan.key));
        entry.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.RESUME_ERRORS,
                RuntimeNames.INVALID_RESUME_POINT, RuntimeNames.INVALID_RESUME_POINT_DESCRIPTOR, false));
        entry.add(new InsnNode(Opcodes.ATHROW));
        for (Map.Entry<AbstractInsnNode, Reentry> reentry : reentries.entrySet()) {
            Reentry region = reentry.getValue();
            AbstractInsnNode enter = reentry.getKey();
            method.instructions.insertBefore(MonitorWeaver.previousInstruction(enter), region.reenter);
            InsnList test = new InsnList();
            test.add(new VarInsnNode(Opcodes.ILOAD, resumePointLocal));
            test.add(new JumpInsnNode(Opcodes.IFGE, region.dispatch));
            method.instructions.insert(enter, test);
            restoreBlocks.add(region.dispatch);
            restoreBlocks.add(new VarInsnNode(Opcodes.ILOAD, resumePointLocal));
            // Both resume points of a site, invoking its call again or continuing after it, take the same way back in.
            int[] keys = new int[2 * region.continuations.size()];
            LabelNode[] targets = new LabelNode[keys.length];
            int index = 0;
            for (Map.Entry<Integer, LabelNode> continuation : region.continuations.entrySet()) {
                keys[index] = 2 * continuation.getKey();
                keys[index + 1] = 2 * continuation.getKey() + 1;
                targets[index] = continuation.getValue();
                targets[index + 1] = continuation.getValue();
                index += 2;
            }
            restoreBlocks.add(new LookupSwitchInsnNode(targets[0], keys, targets));
            handlers.add(region.handler);
            // Stack: throwable
            for (int depth = region.locks.length - 1; depth >= 0; depth--) {
                handlers.add(new VarInsnNode(Opcodes.ALOAD, region.locks[depth]));
                handlers.add(new InsnNode(Opcodes.MONITOREXIT));
            }
            handlers.add(new InsnNode(Opcodes.ATHROW));
        }
        // Every path leaves the restore code by a jump into the method's code: the frame stays in its local, so that
        // calls made by this activation pass it as the caller token, and the method's code before its first site is
        // unreachable here (the class writer turns it into nop .. athrow).
        entry.add(restoreBlocks);
        method.instructions.insert(entry);
        method.instructions.add(handlers);
        method.tryCatchBlocks.addAll(0, captureEntries);
        method.tryCatchBlocks.addAll(resultEntries);
        method.maxLocals = reentersMonitors ? resumePointLocal + 1 : frameLocal + 1;
        return plan.points();
    }

    /** The entries of the method's exception table that cover the call, in their order. */
    private static List<TryCatchBlockNode> coveringEntries(MethodNode method, AbstractInsnNode site) {
        int position = method.instructions.indexOf(site);
        List<TryCatchBlockNode> covering = new ArrayList<>();
        for (TryCatchBlockNode entry : method.tryCatchBlocks) {
            if (method.instructions.indexOf(entry.start) < position && position < method.instructions.indexOf(entry.end)) {
                covering.add(entry);
            }
        }
        return covering;
    }

    /** Resets the resume point local after a restore, in a method that has one. */
    private static InsnList resetResumePoint(boolean reentersMonitors, int resumePointLocal) {
        InsnList code = new InsnList();
        if (reentersMonitors) {
            code.add(new InsnNode(Opcodes.ICONST_M1));
            code.add(new VarInsnNode(Opcodes.ISTORE, resumePointLocal));
        }
        return code;
    }

    /** Pushes the spilled stack entries again: each from its temporary, or its constant again. */
    private static InsnList loadCode(List<SavedSlot> stackSlots) {
        InsnList code = new InsnList();
        for (SavedSlot slot : stackSlots) {
            if (slot.constant() != null) {
                code.add(slot.constant().clone(null));
            } else {
                code.add(new VarInsnNode(slot.kind().loadOpcode, slot.local()));
            }
        }
        return code;
    }

    /**
     * The continuation after call site k with the outcome of the call: the values below its arguments pushed again,
     * then the call's result taken from the runtime (or its exception raised), under copies of the exception table
     * entries that cover the call, and a jump to the instruction after the call.
     */
    private static InsnList resultCode(LabelNode result, List<SavedSlot> belowSlots, Type returnType, LabelNode after,
            List<TryCatchBlockNode> covering, List<TryCatchBlockNode> resultEntries) {
        InsnList code = new InsnList();
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        code.add(result);
        code.add(loadCode(belowSlots));
        // Stack: b0 .. bj-1
        code.add(start);
        code.add(resultCall(returnType));
        if ((returnType.getSort() == Type.OBJECT || returnType.getSort() == Type.ARRAY)
                && !returnType.getInternalName().equals(RuntimeNames.OBJECT)) {
            code.add(new TypeInsnNode(Opcodes.CHECKCAST, returnType.getInternalName()));
        }
        code.add(end);
        // Stack: b0 .. bj-1, result
        code.add(new JumpInsnNode(Opcodes.GOTO, after));
        for (TryCatchBlockNode entry : covering) {
            resultEntries.add(new TryCatchBlockNode(start, end, entry.handler, entry.type));
        }
        return code;
    }

    /** Stack: s0 .. sn-1 -> (empty), each entry stored into its temporary, or popped when a constant produced it. */
    private static InsnList spillCode(List<SavedSlot> stackSlots) {
        InsnList code = new InsnList();
        for (int index = stackSlots.size() - 1; index >= 0; index--) {
            SavedSlot slot = stackSlots.get(index);
            if (slot.constant() != null) {
                code.add(new InsnNode(slot.kind().size == 2 ? Opcodes.POP2 : Opcodes.POP));
            } else {
                code.add(new VarInsnNode(slot.kind().storeOpcode, slot.local()));
            }
        }
        return code;
    }

    /**
     * A site's capture handler: it exits the JVM monitors held at the site, hands the receiver and the saved values to
     * the site's capture helper, and throws the capture on.
     */
    private static InsnList handlerCode(Plan plan, SitePlan site) {
        InsnList code = new InsnList();
        // Stack: capture. The JVM monitors held here are released first, so that nothing that can throw runs
        // holding them outside a catch-any handler (HotSpot would refuse to compile the method); the runtime
        // monitors stay held.
        for (int index = site.locks().length - 1; index >= 0; index--) {
            code.add(new VarInsnNode(Opcodes.ALOAD, site.locks()[index]));
            code.add(new InsnNode(Opcodes.MONITOREXIT));
        }
        if (!plan.isStatic) {
            code.add(new VarInsnNode(Opcodes.ALOAD, 0));
        }
        for (SavedSlot slot : site.slots()) {
            if (slot.isSaved()) {
                code.add(new VarInsnNode(slot.kind().loadOpcode, slot.local()));
            }
        }
        // Stack: capture, (receiver), saved values
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, plan.owner, captureHelperName(plan.methodIndex, site.point()),
                captureHelperDescriptor(plan, site), plan.ownerIsInterface));
        // Stack: capture
        code.add(new InsnNode(Opcodes.ATHROW));
        return code;
    }

    /** The name of the capture helper of a capturing method's site. */
    private static String captureHelperName(int methodIndex, int point) {
        return RuntimeNames.CAPTURE_HELPER_PREFIX + methodIndex + "$" + point;
    }

    /** Takes the receiver (in an instance method) and each saved value, as the frame's push methods take them. */
    private static String captureHelperDescriptor(Plan plan, SitePlan site) {
        StringBuilder descriptor = new StringBuilder("(");
        if (!plan.isStatic) {
            descriptor.append("Ljava/lang/Object;");
        }
        for (SavedSlot slot : site.slots()) {
            if (slot.isSaved()) {
                descriptor.append(slot.kind().frameDescriptor);
            }
        }
        return descriptor.append(")V").toString();
    }

    /**
     * The capture helpers of a planned method, one per site, private static synthetic methods of its class, without
     * frames: each takes a frame from the runtime for the activation (linked to the method's key, see
     * {@link EntryCalls}) and pushes the values it was given, the call's arguments only in the innermost activation.
     *
     * <pre>
     * private static synthetic void $picothreads$capture$M$K(Object receiver, v0 .. vi-1, a0 .. am-1) {
     *     Frame f = capture(receiver or null, site, counts);
     *     f.pushX(v0) .. f.pushX(vi-1);
     *     if (f.savesArguments()) { f.pushX(a0) .. f.pushX(am-1); }
     * }
     * </pre>
     */
    public static List<MethodNode> captureHelpers(Plan plan) {
        List<MethodNode> helpers = new ArrayList<>();
        for (SitePlan site : plan.sites) {
            MethodNode helper = new MethodNode(RuntimeNames.ASM_API,
                    Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
                    captureHelperName(plan.methodIndex, site.point()), captureHelperDescriptor(plan, site), null, null);
            List<SavedSlot> saved = site.slots().subList(0, site.continuedCount());
            List<SavedSlot> arguments = site.argumentSlots();
            long[] counts = new long[4];
            count(saved, counts, 0);
            count(arguments, counts, 2);
            InsnList code = helper.instructions;
            int parameter = 0;
            if (plan.isStatic) {
                code.add(new InsnNode(Opcodes.ACONST_NULL));
            } else {
                code.add(new VarInsnNode(Opcodes.ALOAD, parameter++));
            }
            code.add(integer(site.siteCode()));
            code.add(new LdcInsnNode(counts[0] << 48 | counts[1] << 32 | counts[2] << 16 | counts[3]));
            // Stack: receiver, site, counts
            code.add(EntryCalls.capture(plan.key));
            // Stack: frame
            parameter = pushParameters(code, saved, parameter);
            if (counts[2] + counts[3] > 0) {
                LabelNode done = new LabelNode();
                code.add(new InsnNode(Opcodes.DUP));
                code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME, RuntimeNames.SAVES_ARGUMENTS,
                        RuntimeNames.SAVES_ARGUMENTS_DESCRIPTOR, false));
                code.add(new JumpInsnNode(Opcodes.IFEQ, done));
                pushParameters(code, arguments, parameter);
                code.add(done);
            }
            code.add(new InsnNode(Opcodes.POP));
            code.add(new InsnNode(Opcodes.RETURN));
            helpers.add(helper);
        }
        return helpers;
    }

    /**
     * Stack: frame -> frame, having pushed into it the helper's parameters from {@code parameter} on, one per saved
     * slot; answers the parameter after them.
     */
    private static int pushParameters(InsnList code, List<SavedSlot> slots, int parameter) {
        for (SavedSlot slot : slots) {
            if (!slot.isSaved()) {
                continue;
            }
            code.add(new InsnNode(Opcodes.DUP));
            code.add(new VarInsnNode(slot.kind().loadOpcode, parameter));
            code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME,
                    RuntimeNames.framePush(slot.kind().frameMethodSuffix), "(" + slot.kind().frameDescriptor + ")V",
                    false));
            parameter += slot.kind().size;
        }
        return parameter;
    }

    /** Stack: (empty) -> the result, if any: the call of {@code Continuation.resultX()} for a call of that type. */
    private static AbstractInsnNode resultCall(Type returnType) {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION, RuntimeNames.result(returnType),
                RuntimeNames.resultDescriptor(returnType), false);
    }

    /** Adds the numbers of references and of primitives the slots save to {@code counts[at]} and {@code [at + 1]}. */
    private static void count(List<SavedSlot> slots, long[] counts, int at) {
        for (SavedSlot slot : slots) {
            if (slot.isSaved()) {
                counts[slot.kind().isPrimitive() ? at + 1 : at]++;
            }
        }
    }

    /**
     * The reentry of the innermost of {@code chain}, a site's held regions from the outermost, in a static method or
     * not.
     */
    private static Reentry reentry(MethodFlow flow, List<HeldMonitor> chain, boolean isStatic) {
        Reentry region = new Reentry();
        region.locks = new int[chain.size()];
        BitSet locks = new BitSet();
        for (int depth = 0; depth < chain.size(); depth++) {
            region.locks[depth] = chain.get(depth).lock();
            locks.set(chain.get(depth).lock());
        }
        AbstractInsnNode load = MonitorWeaver.previousInstruction(chain.get(chain.size() - 1).enter());
        Frame<BasicValue> entry = flow.frameBefore(load);
        BitSet live = flow.liveLocalsBefore(load);
        for (int local = live.nextSetBit(0); local >= 0; local = live.nextSetBit(local + 1)) {
            // The receiver is never reset: the resume entry passed it, and it is not saved.
            if (!locks.get(local) && local < entry.getLocals() && (isStatic || local != 0)) {
                BasicValue value = entry.getLocal(local);
                region.entryLocals.add(new SavedSlot(local, SavedKind.of(value), value.getType(), null));
            }
        }
        return region;
    }

    /**
     * Gives each local a zero or null of its kind: values the restoring path never reads, there so that the
     * merge with the normal path at a region's entry keeps the types the normal path reads there.
     */
    private static InsnList defaultValues(List<SavedSlot> locals) {
        InsnList code = new InsnList();
        for (SavedSlot slot : locals) {
            code.add(new InsnNode(switch (slot.kind()) {
                case INT -> Opcodes.ICONST_0;
                case FLOAT -> Opcodes.FCONST_0;
                case LONG -> Opcodes.LCONST_0;
                case DOUBLE -> Opcodes.DCONST_0;
                case OBJECT, NULL -> Opcodes.ACONST_NULL;
            }));
            code.add(new VarInsnNode(slot.kind().storeOpcode, slot.local()));
        }
        return code;
    }

    /** Makes the restore code from {@code start} to here run under the region's monitor-releasing handler. */
    private static void coverWithHandler(InsnList restoreBlocks, LabelNode start, Reentry region,
            List<TryCatchBlockNode> entries) {
        LabelNode end = new LabelNode();
        restoreBlocks.add(end);
        entries.add(new TryCatchBlockNode(start, end, region.handler, null));
    }

    private static InsnList restoreCode(int frameLocal, List<SavedSlot> slots) {
        InsnList code = new InsnList();
        for (SavedSlot slot : slots) {
            if (slot.constant() != null) {
                continue; // pushed again by the reload
            }
            if (slot.kind() == SavedKind.NULL) {
                code.add(new InsnNode(Opcodes.ACONST_NULL));
            } else {
                code.add(new VarInsnNode(Opcodes.ALOAD, frameLocal));
                code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME,
                        RuntimeNames.framePop(slot.kind().frameMethodSuffix), "()" + slot.kind().frameDescriptor,
                        false));
                if (slot.kind() == SavedKind.OBJECT && !slot.type().getInternalName().equals(RuntimeNames.OBJECT)) {
                    code.add(new TypeInsnNode(Opcodes.CHECKCAST, slot.type().getInternalName()));
                }
            }
            code.add(new VarInsnNode(slot.kind().storeOpcode, slot.local()));
        }
        return code;
    }

    private static AbstractInsnNode integer(int value) {
        if (value >= -1 && value <= 5) {
            return new InsnNode(Opcodes.ICONST_0 + value);
        }
        if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            return new org.objectweb.asm.tree.IntInsnNode(Opcodes.BIPUSH, value);
        }
        if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            return new org.objectweb.asm.tree.IntInsnNode(Opcodes.SIPUSH, value);
        }
        return new LdcInsnNode(value);
    }

    private static String describe(BasicValue value) {
        Type type = value.getType();
        if (type == null) {
            return "?";
        }
        return type.getSort() == Type.OBJECT && type.getInternalName().equals("null") ? "null" : type.getDescriptor();
    }

    /** The source line of the instruction, from the nearest preceding line number entry, or -1. */
    public static int lineOf(AbstractInsnNode instruction) {
        for (AbstractInsnNode node = instruction; node != null; node = node.getPrevious()) {
            if (node instanceof LineNumberNode line) {
                return line.line;
            }
        }
        return -1;
    }

    private static String localName(MethodNode method, int local, AbstractInsnNode site) {
        if (method.localVariables == null) {
            return null;
        }
        int position = method.instructions.indexOf(site);
        for (LocalVariableNode variable : method.localVariables) {
            if (variable.index == local && method.instructions.indexOf(variable.start) <= position
                    && position < method.instructions.indexOf(variable.end)) {
                return variable.name;
            }
        }
        return null;
    }
}
