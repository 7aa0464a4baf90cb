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
 * Rewrites a method so that a thread can be captured at, and restored to, each of its suspension call
 * sites. Nothing is added to the normal path but a flag test at entry and, at each suspension call site,
 * the spilling of its operand stack into locals (which a JIT compiles to nothing).
 *
 * <p>A resume is lazy: the runtime re-enters only the innermost saved activation, which invokes its call again;
 * every other saved activation is re-entered only when the one above it has returned, and continues after its call
 * with the value returned, or with the exception thrown raised at the call site. The runtime re-enters an
 * activation through the class's resume entry ({@link ResumeEntryWeaver}), which calls the method with default
 * arguments and its receiver; the method restores everything else. At call site {@code k} (of {@code n}), whose
 * operand stack holds the values below its arguments {@code b0 .. bj-1} and its receiver and arguments
 * {@code a0 .. am-1}:
 *
 * <pre>
 * entry:     if (Continuation.restoring() != 0) { Frame f = resume;        (linked to KEY, see EntryCalls)
 *                                          if (f != null) switch (f.resumePoint()) { case 2k: goto again_k
 *                                                                                   case 2k+1: goto continue_k } }
 *            f = null                                (only when a site calls into the runtime)
 *            ...original code...
 * site k:    Stack: b0 .. bj-1, a0 .. am-1
 *              store them into temporaries           Stack: (empty)
 *            reload_k:
 *              load them from temporaries            Stack: b0 .. bj-1, a0 .. am-1
 *              CallerToken.pass(f)                    (only when INVOKE calls into the runtime package)
 *            from_k: INVOKE ...  to_k:               Stack: b0 .. bj-1, result
 * handler_k: (first exception table entry for [from_k, to_k), catching Capture; placed after all code,
 *             outside every user try block, so no user handler ever sees the capture)
 *              Stack: capture
 *              exit the JVM monitors held at the site, innermost first
 *              f = capture(this or null, site, counts)  (linked to Owner and KEY, see EntryCalls)
 *              f.pushX(live local)...; f.pushX(b0 .. bj-1)...          (not this: the entry passes it again)
 *              if (f.savesArguments()) f.pushX(a0 .. am-1)...          (the innermost activation only)
 *              throw capture
 * again_k:   live locals and temporaries = f.popX()... (checked casts to their analysed types)
 *            goto reload_k
 * continue_k: live locals and b0 .. bj-1's temporaries = f.popX()...
 *            goto result_k
 * result_k:  load b0 .. bj-1                          Stack: b0 .. bj-1
 *            Continuation.resultX(), cast to the call's type     (covered by a copy of every exception table
 *                                                                  entry that covers INVOKE k, in their order)
 *            goto to_k                                Stack: b0 .. bj-1, result
 * </pre>
 *
 * Only the locals live at the call (read later on some path, including by a handler) are saved, and
 * values known to be null are restored as null without being saved; a stack entry that a constant
 * produced is popped at the spill and pushed again at the reload, never saved. At a site inside synchronized
 * regions the capture handler also exits the JVM monitors held there (innermost first) and the restore
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
 * entry:     ... r = f.resumePoint(); switch (r) ...        body: f = null; r = -1
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
 * <p>The local {@code f} keeps the frame an activation was restored from (null when it was entered normally),
 * and a call into the runtime passes it on through {@code CallerToken.pass(f)}: a blocking primitive
 * called directly by a restored activation knows every frame below it was checked at the last capture and
 * skips the frame check (see the runtime's {@code CallerToken}).
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
     * Weaves capture and restore code for the given sites, which must be capturable: no monitor held, no
     * object under construction on the stack, and an instance method never assigns its local 0.
     *
     * @param owner        the class declaring the method
     * @param methodIndex  the method's index among the class's capturing methods, for its resume entry
     * @return the report of each suspension point, in resume point order
     */
    public static List<SuspensionPoint> weave(ClassNode owner, int methodIndex, MethodNode method, MethodFlow flow,
            List<MethodInsnNode> sites, Map<MethodInsnNode, List<HeldMonitor>> heldMonitors) {
        String key = owner.name + "." + method.name + method.desc;
        boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
        boolean reentersMonitors = false;
        for (MethodInsnNode site : sites) {
            reentersMonitors |= !heldMonitors.getOrDefault(site, List.of()).isEmpty();
        }
        int frameLocal = method.maxLocals;
        int resumePointLocal = frameLocal + 1;
        int firstTemporary = reentersMonitors ? frameLocal + 2 : frameLocal + 1;
        int maxLocals = firstTemporary;
        LabelNode body = new LabelNode();
        InsnList restoreBlocks = new InsnList();
        InsnList handlers = new InsnList();
        LabelNode[] restoreLabels = new LabelNode[2 * sites.size()];
        List<SuspensionPoint> points = new ArrayList<>();
        List<TryCatchBlockNode> captureEntries = new ArrayList<>();
        List<TryCatchBlockNode> resultEntries = new ArrayList<>();
        boolean passesToken = false;

        // The flow is indexed by instruction position: read everything it says before changing the code.
        List<Frame<BasicValue>> frames = new ArrayList<>();
        List<BitSet> liveLocals = new ArrayList<>();
        List<String[]> localNames = new ArrayList<>();
        List<AbstractInsnNode[]> constants = new ArrayList<>();
        List<List<TryCatchBlockNode>> coveringEntries = new ArrayList<>();
        for (MethodInsnNode site : sites) {
            Frame<BasicValue> frame = flow.frameBefore(site);
            frames.add(frame);
            liveLocals.add(flow.liveLocalsBefore(site));
            AbstractInsnNode[] siteConstants = new AbstractInsnNode[frame.getStackSize()];
            for (int index = 0; index < siteConstants.length; index++) {
                siteConstants[index] = flow.constantProducer(site, index);
            }
            constants.add(siteConstants);
            String[] names = new String[frame.getLocals()];
            for (int local = 0; local < names.length; local++) {
                names[local] = localName(method, local, site);
            }
            localNames.add(names);
            coveringEntries.add(coveringEntries(method, site));
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

        for (int point = 0; point < sites.size(); point++) {
            MethodInsnNode site = sites.get(point);
            Frame<BasicValue> frame = frames.get(point);
            BitSet live = liveLocals.get(point);
            List<HeldMonitor> held = heldMonitors.getOrDefault(site, List.of());
            List<SavedSlot> slots = new ArrayList<>();
            List<SavedValue> reported = new ArrayList<>();
            // The lock objects come first: the restore code takes them out one region at a time.
            BitSet lockLocals = new BitSet();
            for (HeldMonitor monitor : held) {
                BasicValue value = frame.getLocal(monitor.lock());
                slots.add(new SavedSlot(monitor.lock(), SavedKind.OBJECT, value.getType(), null));
                reported.add(new SavedValue("local", monitor.lock(), localNames.get(point)[monitor.lock()],
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
                reported.add(new SavedValue("local", local, localNames.get(point)[local], describe(value)));
            }
            int argumentCount = Type.getArgumentTypes(site.desc).length
                    + (site.getOpcode() == Opcodes.INVOKESTATIC ? 0 : 1);
            int belowCount = frame.getStackSize() - argumentCount;
            int temporary = firstTemporary;
            List<SavedSlot> stackSlots = new ArrayList<>();
            for (int index = 0; index < frame.getStackSize(); index++) {
                BasicValue value = frame.getStack(index);
                SavedKind kind = SavedKind.of(value);
                AbstractInsnNode constant = constants.get(point)[index];
                stackSlots.add(new SavedSlot(temporary, kind, value.getType(), constant));
                if (constant == null) {
                    reported.add(new SavedValue("stack", index, null, describe(value)));
                    temporary += kind.size;
                }
            }
            maxLocals = Math.max(maxLocals, temporary);
            List<SavedSlot> belowSlots = stackSlots.subList(0, belowCount);
            List<SavedSlot> argumentSlots = stackSlots.subList(belowCount, stackSlots.size());
            slots.addAll(belowSlots);
            int continuedCount = slots.size();
            slots.addAll(argumentSlots);

            LabelNode reload = new LabelNode();
            LabelNode from = new LabelNode();
            LabelNode to = new LabelNode();
            LabelNode handler = new LabelNode();
            LabelNode result = new LabelNode();

            InsnList spill = new InsnList();
            // Stack: s0 .. sn-1
            for (int index = stackSlots.size() - 1; index >= 0; index--) {
                SavedSlot slot = stackSlots.get(index);
                if (slot.constant() != null) {
                    spill.add(new InsnNode(slot.kind().size == 2 ? Opcodes.POP2 : Opcodes.POP));
                } else {
                    spill.add(new VarInsnNode(slot.kind().storeOpcode, slot.local()));
                }
            }
            // Stack: (empty)
            spill.add(reload);
            spill.add(loadCode(stackSlots));
            // Stack: s0 .. sn-1
            if (RuntimeNames.isRuntimeClass(site.owner)) {
                passesToken = true;
                spill.add(new VarInsnNode(Opcodes.ALOAD, frameLocal));
                spill.add(EntryCalls.passToken());
            }
            spill.add(from);
            method.instructions.insertBefore(site, spill);
            method.instructions.insert(site, to);
            captureEntries.add(new TryCatchBlockNode(from, to, handler, RuntimeNames.CAPTURE));

            int[] locks = new int[held.size()];
            for (int depth = 0; depth < locks.length; depth++) {
                locks[depth] = held.get(depth).lock();
            }
            int siteCode = methodIndex << 16 | point | (held.isEmpty() ? 0 : RuntimeNames.SITE_HOLDS_MONITORS);
            handlers.add(handler);
            handlers.add(captureCode(key, isStatic, siteCode, slots.subList(0, continuedCount),
                    argumentSlots, locks));
            handlers.add(resultCode(result, belowSlots, Type.getReturnType(site.desc), to, coveringEntries.get(point),
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
            points.add(new SuspensionPoint(point, lineOf(site),
                    Redirects.table().describeCall(site.owner, site.name, site.desc), reported));
        }

        InsnList entry = new InsnList();
        LabelNode dispatch = new LabelNode();
        LabelNode invalid = new LabelNode();
        entry.add(EntryCalls.restoringHint());
        entry.add(new JumpInsnNode(Opcodes.IFEQ, body));
        entry.add(EntryCalls.resume(key));
        // Stack: frame or null
        entry.add(new InsnNode(Opcodes.DUP));
        entry.add(new JumpInsnNode(Opcodes.IFNONNULL, dispatch));
        entry.add(new InsnNode(Opcodes.POP));
        entry.add(new JumpInsnNode(Opcodes.GOTO, body));
        entry.add(dispatch);
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
        entry.add(new TypeInsnNode(Opcodes.NEW, "java/lang/IllegalStateException"));
        entry.add(new InsnNode(Opcodes.DUP));
        entry.add(new LdcInsnNode("PicoThreads: invalid resume point for " + key));
        entry.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>",
                "(Ljava/lang/String;)V", false));
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
        entry.add(restoreBlocks);
        entry.add(body);
        if (passesToken || reentersMonitors) {
            // A normal entry: no frame was restored. A method that calls into the runtime reads the local, and the
            // restore paths through a region's entry merge with this one.
            entry.add(new InsnNode(Opcodes.ACONST_NULL));
            entry.add(new VarInsnNode(Opcodes.ASTORE, frameLocal));
        }
        if (reentersMonitors) {
            entry.add(new InsnNode(Opcodes.ICONST_M1));
            entry.add(new VarInsnNode(Opcodes.ISTORE, resumePointLocal));
        }
        method.instructions.insert(entry);
        method.instructions.add(handlers);
        method.tryCatchBlocks.addAll(0, captureEntries);
        method.tryCatchBlocks.addAll(resultEntries);
        method.maxLocals = maxLocals;
        return points;
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

    private static InsnList captureCode(String key, boolean isStatic, int site,
            List<SavedSlot> slots, List<SavedSlot> argumentSlots, int[] locks) {
        long[] counts = new long[4];
        count(slots, counts, 0);
        count(argumentSlots, counts, 2);
        InsnList code = new InsnList();
        // Stack: capture. The JVM monitors held here are released first, so that nothing that can throw runs
        // holding them outside a catch-any handler (HotSpot would refuse to compile the method); the runtime
        // monitors stay held.
        for (int index = locks.length - 1; index >= 0; index--) {
            code.add(new VarInsnNode(Opcodes.ALOAD, locks[index]));
            code.add(new InsnNode(Opcodes.MONITOREXIT));
        }
        code.add(isStatic ? new InsnNode(Opcodes.ACONST_NULL) : new VarInsnNode(Opcodes.ALOAD, 0));
        code.add(integer(site));
        code.add(new LdcInsnNode(counts[0] << 48 | counts[1] << 32 | counts[2] << 16 | counts[3]));
        // Stack: capture, receiver, site, counts
        code.add(EntryCalls.capture(key));
        // Stack: capture, frame
        code.add(pushCode(slots));
        if (counts[2] + counts[3] > 0) {
            LabelNode done = new LabelNode();
            code.add(new InsnNode(Opcodes.DUP));
            code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME, RuntimeNames.SAVES_ARGUMENTS,
                    RuntimeNames.SAVES_ARGUMENTS_DESCRIPTOR, false));
            code.add(new JumpInsnNode(Opcodes.IFEQ, done));
            code.add(pushCode(argumentSlots));
            code.add(done);
        }
        code.add(new InsnNode(Opcodes.POP));
        // Stack: capture
        code.add(new InsnNode(Opcodes.ATHROW));
        return code;
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

    /** Stack: capture, frame -> capture, frame, having pushed each saved slot's value into the frame. */
    private static InsnList pushCode(List<SavedSlot> slots) {
        InsnList code = new InsnList();
        for (SavedSlot slot : slots) {
            if (!slot.isSaved()) {
                continue;
            }
            code.add(new InsnNode(Opcodes.DUP));
            code.add(new VarInsnNode(slot.kind().loadOpcode, slot.local()));
            code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME,
                    RuntimeNames.framePush(slot.kind().frameMethodSuffix), "(" + slot.kind().frameDescriptor + ")V",
                    false));
        }
        return code;
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
