package org.picothreads.transform.internal.emit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.picothreads.transform.internal.Instructions;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.analysis.MethodPlan;
import org.picothreads.transform.internal.analysis.MethodPlan.CapturedSite;
import org.picothreads.transform.internal.analysis.MethodPlan.HeldMonitor;
import org.picothreads.transform.internal.analysis.MethodPlan.Reentry;
import org.picothreads.transform.internal.analysis.MethodPlan.SavedSlot;
import org.picothreads.transform.internal.analysis.SavedKind;

/**
 * Rewrites a method so that a thread can be captured at, and restored to, each of its suspension call sites, in two
 * copies woven from one {@link MethodPlan}: the method itself keeps only its normal path, and its continuation
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
 *              store s0 .. sl-1 into temporaries, load again those that are the call's receiver and arguments
 *              CallerToken.pass(null)                 (only when INVOKE calls into the runtime package)
 *            from_k: INVOKE ...  to_k:               Stack: c0 .. ci-1, result
 *              store result into a temporary, load the others of s0 .. sl-1 again, load result
 *                                                     Stack: b0 .. bj-1, result
 * handler_k: (first exception table entry for [from_k, to_k), catching Capture; placed after all code)
 *              exit the JVM monitors held at the site, innermost first
 *              $picothreads$capture$M$k(this or null, each saved value); throw capture
 *                                                     (this only where the site keeps the receiver)
 *
 * the continuation (private static, same name, one more parameter, the receiver first for an instance method; see
 * ContinuationMethod; the same code as the method, plus):
 * entry:     Frame f = resume                        (linked to KEY, see EntryCalls)
 *            if (f == null) throw ResumeErrors.continuationRefused(KEY)     (not called by the resume entry)
 *            switch (f.resumePoint()) { case 2k: goto again_k   case 2k+1: goto continue_k
 *                                       default: throw ResumeErrors.invalidResumePoint(KEY) }
 * site k:    Stack: b0 .. bj-1, a0 .. am-1
 *              store them into temporaries           Stack: (empty)
 *            reload_k:
 *              load them from temporaries            Stack: b0 .. bj-1, a0 .. am-1
 *              CallerToken.passChecking(f)            (only when INVOKE calls into the runtime package)
 *            from_k: INVOKE ...                       Stack: b0 .. bj-1, result
 *              if (f.captureUnderWay()) goto returned_k   (likewise: the runtime may end a capture by returning)
 *            to_k:
 * handler_k: as the method's, but returns the zero or null of the method's type instead of throwing: only the
 *            resume entry calls a continuation, and it asks the runtime whether it was captured (ResumeEntryWeaver)
 * returned_k: (with the handlers) pop result, b0 .. bj-1; the handler's code, with null for the signal
 * again_k:   live locals and temporaries = f.popX()... (checked casts to their analysed types; only at a site that
 *            goto reload_k                            saves its arguments, see below)
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
 * A call of a method the class itself declares, bound at compile time, or a call that can reach only the program's
 * own code, saves no arguments (the plan's {@code savesArguments}): the callee's activation is always captured first,
 * so this one only ever continues after the call; the method spills nothing for it unless a value below the arguments
 * is saved, its handler passes only the other values, its helper pushes no arguments, and resume point {@code 2k} is
 * the invalid one in the continuation, where a call of the class's own method bound at compile time enters the
 * callee's continuation fresh: {@code f.requestFreshEntry()} and a null last argument before it, the capture test after
 * it, as at a call into the runtime.
 *
 * <p>The handler passes the receiver only where the site keeps it (the plan's {@code keepsReceiver}: local 0 read after
 * the call, or pushed again for a restored stack entry), null elsewhere, so that a receiver dead after the call is not
 * kept alive across it for the handler's sake.
 *
 * <p>Only the locals live at the call (read later on some path, including by a handler) are saved, and
 * values known to be null are restored as null without being saved, as are the arguments of a runtime entry that
 * reads none of them when it is invoked again (a sleep: restored as zeros); a stack entry that a constant produced,
 * or the receiver loaded from local 0, is popped at the spill and pushed again at the reload, never saved. At a site
 * inside synchronized regions the capture handler also exits the JVM monitors held there (innermost first) and the
 * restore code enters them again (outermost first); their runtime monitors stay owned across the suspension
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
 *
 * <p>Everything above that varies by site (which values are saved, in which order, the temporaries, the regions
 * held and entered again) is decided beforehand by {@link org.picothreads.transform.internal.analysis.MethodPlanner};
 * this class only emits it, each part of the picture by its own generator: {@code site k} in the method by
 * {@code normalCallCode}, in the continuation by {@code continuationCallCode}; {@code handler_k} by
 * {@code handlerCode}; {@code result_k} by {@code resultCode}; {@code again_k} and {@code continue_k} by
 * {@code restoreCode}, or {@code restoreThroughRegionsCode} inside regions; {@code entry} by {@code entryCode};
 * a region's test, {@code dispatch} and releasing handler by {@code reentryTestCode}, {@code dispatchCode} and
 * {@code releaseCode}; the capture helper by {@link #captureHelpers}.
 */
public final class CaptureWeaver {
    /** The labels of a region's reentry in the continuation, and the site continuations its dispatch jumps to. */
    private static final class RegionLabels {
        /** Before the region's {@code ALOAD lock; MONITORENTER}. */
        final LabelNode reenter = new LabelNode();
        /** Where a restoring path goes once the monitor is taken. */
        final LabelNode dispatch = new LabelNode();
        /** Exits this region's monitor and the enclosing ones when restore code inside it throws. */
        final LabelNode handler = new LabelNode();
        /** The continuation of each site restored through this region, by resume point. */
        final Map<Integer, LabelNode> continuations = new TreeMap<>();
        final Reentry reentry;

        RegionLabels(Reentry reentry) {
            this.reentry = reentry;
        }
    }

    /** The labels of one call site in the continuation. */
    private static final class SiteLabels {
        /** Where the spilled stack is pushed again before the call. */
        final LabelNode reload = new LabelNode();
        /** The start of the capture handler's range, right before the call. */
        final LabelNode from = new LabelNode();
        /** The end of that range, right after the call. */
        final LabelNode to = new LabelNode();
        final LabelNode handler = new LabelNode();
        /** Where the continuation takes the call's outcome from the runtime. */
        final LabelNode result = new LabelNode();
    }

    private CaptureWeaver() {
    }

    /**
     * Weaves the normal path of a planned method into {@code method}, a copy of the planned one made before any
     * change, whose calls at the captured sites' positions are {@code calls}: at each site, only the stack entries
     * from the lowest saved one up are spilled and reloaded (those below the call's arguments after the call), the
     * capture handler passes the saved values to the site's capture helper ({@link #captureHelpers}), and nothing
     * restores: a resume enters the continuation.
     */
    public static void weaveNormalPath(MethodNode method, List<MethodInsnNode> calls, MethodPlan plan) {
        int resultTemporary = plan.firstTemporary() + plan.temporarySize();
        int resultSize = 0;
        InsnList handlers = new InsnList();
        List<TryCatchBlockNode> captureEntries = new ArrayList<>();
        for (CapturedSite site : plan.captured()) {
            MethodInsnNode call = calls.get(site.point());
            LabelNode from = new LabelNode();
            LabelNode to = new LabelNode();
            LabelNode handler = new LabelNode();
            int lowestSpilled = lowestSpilled(site);
            method.instructions.insertBefore(call, normalCallCode(site, lowestSpilled, from));
            method.instructions.insert(call, to);
            if (lowestSpilled < site.belowCount()) {
                method.instructions.insert(to, normalReloadCode(site, lowestSpilled, resultTemporary));
                resultSize = Math.max(resultSize, Type.getReturnType(call.desc).getSize());
            }
            captureEntries.add(new TryCatchBlockNode(from, to, handler, RuntimeNames.CAPTURE));
            handlers.add(handler);
            handlers.add(handlerCode(plan, site));
            handlers.add(new InsnNode(Opcodes.ATHROW));
        }
        method.instructions.add(handlers);
        method.tryCatchBlocks.addAll(0, captureEntries);
        method.maxLocals = Math.max(method.maxLocals, resultTemporary + resultSize);
    }

    /**
     * Weaves the restore code into the planned method, which becomes its continuation: the copy the resume entry
     * enters, which takes its saved frame, jumps to the site it stopped at and goes on from there with the same code
     * as the method (see the picture above).
     */
    public static void weaveContinuation(MethodNode method, MethodPlan plan) {
        weaveContinuation(method, plan, true);
    }

    /**
     * {@link #weaveContinuation(MethodNode, MethodPlan)}, with fresh entries (into the continuations of the class's own
     * capturing methods, and into this one) only when {@code freshEntries}: the class's final write computes the
     * frames after {@link #unlinkFreshEntries} and {@link #dropFreshEntry} have run. A method whose frames are computed
     * alone, before those, gets none, as its code before the first site must stay unreachable there (its frames may
     * need types that only that code merges).
     */
    public static void weaveContinuation(MethodNode method, MethodPlan plan, boolean freshEntries) {
        Map<AbstractInsnNode, RegionLabels> regions = new LinkedHashMap<>();
        for (Reentry reentry : plan.reentries()) {
            regions.put(reentry.enter(), new RegionLabels(reentry));
        }
        InsnList restoreBlocks = new InsnList();
        InsnList handlers = new InsnList();
        LabelNode[] restoreLabels = new LabelNode[2 * plan.captured().size()];
        List<TryCatchBlockNode> captureEntries = new ArrayList<>();
        List<TryCatchBlockNode> resultEntries = new ArrayList<>();
        for (CapturedSite site : plan.captured()) {
            SiteLabels labels = new SiteLabels();
            // A site that saves no arguments is never the innermost activation: resume point 2k is invalid there.
            method.instructions.insertBefore(site.call(), continuationCallCode(plan, site, labels));
            method.instructions.insert(site.call(), labels.to);
            captureEntries.add(new TryCatchBlockNode(labels.from, labels.to, labels.handler, RuntimeNames.CAPTURE));
            handlers.add(labels.handler);
            handlers.add(handlerCode(plan, site));
            handlers.add(returnDefaultCode(Type.getReturnType(method.desc)));
            boolean entersOwnContinuation = freshEntries && entersOwnContinuation(plan, site);
            if (entersOwnContinuation) {
                // before the capture range, which starts at the call, as the marker's site offset does
                method.instructions.insertBefore(labels.from, freshEntryCode(plan, site.call()));
            }
            if (RuntimeNames.takesCallerToken(site.call().owner) || entersOwnContinuation) {
                LabelNode capturedByReturn = new LabelNode();
                method.instructions.insert(site.call(), captureTestCode(plan, capturedByReturn));
                handlers.add(capturedByReturn);
                handlers.add(capturedByReturnCode(plan, site, Type.getReturnType(method.desc)));
            }
            handlers.add(resultCode(labels.result, site.belowSlots(), Type.getReturnType(site.call().desc), labels.to,
                    site.covering(), resultEntries));
            if (site.held().isEmpty()) {
                restoreLabels[2 * site.point()] = site.savesArguments() ? new LabelNode() : null;
                restoreLabels[2 * site.point() + 1] = new LabelNode();
                restoreBlocks.add(restoreCode(plan, site, labels, restoreLabels));
            } else {
                LabelNode restore = new LabelNode();
                restoreLabels[2 * site.point()] = site.savesArguments() ? restore : null;
                restoreLabels[2 * site.point() + 1] = restore;
                restoreBlocks.add(restore);
                restoreBlocks.add(restoreThroughRegionsCode(plan, site, labels, regions, captureEntries));
            }
        }
        LabelNode methodStart = new LabelNode();
        method.instructions.insert(methodStart);
        InsnList entry = entryCode(plan, restoreLabels, freshEntries ? methodStart : null);
        for (RegionLabels region : regions.values()) {
            AbstractInsnNode enter = region.reentry.enter();
            method.instructions.insertBefore(Instructions.previousInstruction(enter), region.reenter);
            method.instructions.insert(enter, reentryTestCode(plan, region));
            restoreBlocks.add(dispatchCode(plan, region));
            handlers.add(releaseCode(region));
        }
        // Every path leaves the restore code by a jump into the method's code: the frame stays in its local, so that
        // calls made by this activation pass it as the caller token; the method's code before its first site runs
        // only on a fresh entry (resume point -1, from methodStart).
        entry.add(restoreBlocks);
        method.instructions.insert(entry);
        method.instructions.add(handlers);
        method.tryCatchBlocks.addAll(0, captureEntries);
        method.tryCatchBlocks.addAll(resultEntries);
        method.maxLocals = plan.reentries().isEmpty() ? plan.frameLocal() + 1 : plan.resumePointLocal() + 1;
    }

    /**
     * The method's code before a site's call: the stack entries from the lowest saved one up spilled, and the call's
     * receiver and arguments among them pushed again (none when only those would be spilled, and the site saves none),
     * a null caller token for a call into the runtime, and the start of the capture handler's range. The spilled
     * entries below the arguments are pushed again only after the call ({@link #normalReloadCode}): across the call
     * each lives in its temporary alone, which the capture handler reads, not also on the operand stack. Held in both
     * places, a value the handler reads is live twice at the call, and C2 kept it in two stack slots: a tree walk
     * {@code v + walk(left) + walk(right)} ran 3-4% slower than the original; pushed again after the call, it compiles
     * as the original does.
     */
    private static InsnList normalCallCode(CapturedSite site, int lowestSaved, LabelNode from) {
        List<SavedSlot> stackSlots = site.stackSlots();
        InsnList code = new InsnList();
        // Stack: s0 .. sn-1; the entries below the lowest saved one stay where they are.
        code.add(spillCode(stackSlots.subList(lowestSaved, stackSlots.size())));
        // Stack: c0 .. ci-1
        code.add(loadCode(stackSlots.subList(Math.max(lowestSaved, site.belowCount()), stackSlots.size())));
        // Stack: c0 .. ci-1, the call's receiver and arguments (the spilled entries below them come back after it)
        if (RuntimeNames.takesCallerToken(site.call().owner)) {
            // A normal entry restored nothing: the token says so, whatever an earlier call left in it.
            code.add(new InsnNode(Opcodes.ACONST_NULL));
            code.add(EntryCalls.passToken());
        }
        code.add(from);
        return code;
    }

    /**
     * The method's code right after a site's call, outside the capture handler's range, at a site that spills entries
     * below the call's arguments (from {@code lowestSpilled} on): those pushed again under the call's result, which
     * waits meanwhile in {@code resultTemporary}, the local after the spill temporaries.
     */
    private static InsnList normalReloadCode(CapturedSite site, int lowestSpilled, int resultTemporary) {
        InsnList code = new InsnList();
        List<SavedSlot> reloaded = site.stackSlots().subList(lowestSpilled, site.belowCount());
        Type result = Type.getReturnType(site.call().desc);
        // Stack: c0 .. ci-1, result
        if (result.getSort() != Type.VOID) {
            code.add(new VarInsnNode(result.getOpcode(Opcodes.ISTORE), resultTemporary));
        }
        code.add(loadCode(reloaded));
        if (result.getSort() != Type.VOID) {
            code.add(new VarInsnNode(result.getOpcode(Opcodes.ILOAD), resultTemporary));
        }
        // Stack: c0 .. ci-1, the spilled entries below the arguments, result
        return code;
    }

    /**
     * The index of the lowest stack entry the method spills at a site: the lowest saved one among those below the
     * arguments (among all when the site saves its arguments), or the stack's size when none is saved.
     */
    private static int lowestSpilled(CapturedSite site) {
        List<SavedSlot> stackSlots = site.stackSlots();
        int lowestSaved = stackSlots.size();
        int highestSaved = site.savesArguments() ? stackSlots.size() : site.belowCount();
        for (int index = highestSaved - 1; index >= 0; index--) {
            if (stackSlots.get(index).isSaved()) {
                lowestSaved = index;
            }
        }
        return lowestSaved;
    }

    /**
     * The continuation's code before a site's call: the whole stack spilled, the reload label, the stack pushed again,
     * the restored frame as the caller token for a call into the runtime, and the start of the capture handler's range.
     */
    private static InsnList continuationCallCode(MethodPlan plan, CapturedSite site, SiteLabels labels) {
        InsnList code = new InsnList();
        // Stack: s0 .. sn-1
        code.add(spillCode(site.stackSlots()));
        // Stack: (empty)
        code.add(labels.reload);
        code.add(loadCode(site.stackSlots()));
        // Stack: s0 .. sn-1
        if (RuntimeNames.takesCallerToken(site.call().owner)) {
            code.add(new VarInsnNode(Opcodes.ALOAD, plan.frameLocal()));
            code.add(EntryCalls.passCheckingToken());
        }
        code.add(labels.from);
        return code;
    }

    /**
     * Right after a continuation's call into the runtime, whose token said that it tests: jumps to
     * {@code capturedByReturn} when the runtime ended a capture by returning ({@link #capturedByReturnCode}).
     */
    private static InsnList captureTestCode(MethodPlan plan, LabelNode capturedByReturn) {
        InsnList code = new InsnList();
        code.add(new VarInsnNode(Opcodes.ALOAD, plan.frameLocal()));
        code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME, RuntimeNames.CAPTURE_UNDER_WAY,
                RuntimeNames.CAPTURE_UNDER_WAY_DESCRIPTOR, false));
        code.add(new JumpInsnNode(Opcodes.IFNE, capturedByReturn));
        return code;
    }

    /**
     * Where a continuation goes when the runtime ended a capture by returning from its call (placed with the handlers,
     * after all the method's code, outside every user try block): Stack: b0 .. bj-1, the call's (meaningless) result
     * -> dropped, then the site's capture handler as if the signal had landed, and the continuation returns.
     */
    private static InsnList capturedByReturnCode(MethodPlan plan, CapturedSite site, Type returnType) {
        InsnList code = new InsnList();
        Type callReturn = Type.getReturnType(site.call().desc);
        if (callReturn.getSize() > 0) {
            code.add(new InsnNode(callReturn.getSize() == 2 ? Opcodes.POP2 : Opcodes.POP));
        }
        List<SavedSlot> below = site.belowSlots();
        for (int index = below.size() - 1; index >= 0; index--) {
            code.add(new InsnNode(below.get(index).kind().size == 2 ? Opcodes.POP2 : Opcodes.POP));
        }
        // Stack: (empty); the handler expects the signal, and leaves it for the return to drop.
        code.add(new InsnNode(Opcodes.ACONST_NULL));
        code.add(handlerCode(plan, site));
        code.add(returnDefaultCode(returnType));
        return code;
    }

    /**
     * The restore blocks of a site that holds no monitor: {@code again_k} restores every saved value and invokes the
     * call again, {@code continue_k} restores all but the arguments and takes the call's result; a site that saves no
     * arguments has no {@code again_k}.
     */
    private static InsnList restoreCode(MethodPlan plan, CapturedSite site, SiteLabels labels,
            LabelNode[] restoreLabels) {
        boolean reentersMonitors = !plan.reentries().isEmpty();
        InsnList code = new InsnList();
        if (site.savesArguments()) {
            code.add(restoreLabels[2 * site.point()]);
            code.add(restoreCode(plan.frameLocal(), site.slots()));
            code.add(resetResumePoint(reentersMonitors, plan.resumePointLocal()));
            code.add(new JumpInsnNode(Opcodes.GOTO, labels.reload));
        }
        code.add(restoreLabels[2 * site.point() + 1]);
        code.add(restoreCode(plan.frameLocal(), site.continuedSlots()));
        code.add(resetResumePoint(reentersMonitors, plan.resumePointLocal()));
        code.add(new JumpInsnNode(Opcodes.GOTO, labels.result));
        return code;
    }

    /**
     * The restore blocks of a site inside synchronized regions: the saved values are taken in order, first each
     * region's lock, as its monitor is entered again (outermost first), then the others, once every monitor is held
     * again; each block after the first runs holding monitors, under the enclosing region's releasing handler.
     */
    private static InsnList restoreThroughRegionsCode(MethodPlan plan, CapturedSite site, SiteLabels labels,
            Map<AbstractInsnNode, RegionLabels> regions, List<TryCatchBlockNode> captureEntries) {
        List<HeldMonitor> held = site.held();
        int frameLocal = plan.frameLocal();
        int resumePointLocal = plan.resumePointLocal();
        InsnList code = new InsnList();
        for (int depth = 0; depth <= held.size(); depth++) {
            RegionLabels enclosing = depth == 0 ? null : regions.get(held.get(depth - 1).enter());
            LabelNode start = new LabelNode();
            code.add(start);
            if (enclosing != null) {
                enclosing.continuations.put(site.point(), start);
            }
            if (depth < held.size()) {
                RegionLabels region = regions.get(held.get(depth).enter());
                code.add(defaultValues(region.reentry.entryLocals()));
                code.add(restoreCode(frameLocal, site.slots().subList(depth, depth + 1)));
                code.add(new JumpInsnNode(Opcodes.GOTO, region.reenter));
            } else {
                code.add(restoreCode(frameLocal, site.slots().subList(depth, site.continuedCount())));
                if (site.savesArguments()) {
                    // Stack: (empty). Continue after the call (odd resume point) or invoke it again.
                    code.add(new VarInsnNode(Opcodes.ILOAD, resumePointLocal));
                    code.add(new InsnNode(Opcodes.ICONST_M1));
                    code.add(new VarInsnNode(Opcodes.ISTORE, resumePointLocal));
                    code.add(new InsnNode(Opcodes.ICONST_1));
                    code.add(new InsnNode(Opcodes.IAND));
                    code.add(new JumpInsnNode(Opcodes.IFNE, labels.result));
                    code.add(restoreCode(frameLocal, site.argumentSlots()));
                    code.add(new JumpInsnNode(Opcodes.GOTO, labels.reload));
                } else {
                    // Stack: (empty). Only the odd resume point comes here: continue after the call.
                    code.add(new InsnNode(Opcodes.ICONST_M1));
                    code.add(new VarInsnNode(Opcodes.ISTORE, resumePointLocal));
                    code.add(new JumpInsnNode(Opcodes.GOTO, labels.result));
                }
            }
            if (enclosing != null) {
                // Monitors are held from here on: a failure must release them, as javac's handler would.
                coverWithHandler(code, start, enclosing, captureEntries);
            }
        }
        return code;
    }

    /**
     * The continuation's entry: it takes the restored frame from the runtime, keeps its resume point when monitors
     * are entered again, and switches to the site's restore block; a resume point it does not have is an error.
     */
    private static InsnList entryCode(MethodPlan plan, LabelNode[] restoreLabels, LabelNode methodStart) {
        InsnList code = new InsnList();
        LabelNode invalid = new LabelNode();
        // Only the resume entry calls the continuation, for the restoring carrier, or a continuation of the class enters
        // it fresh (resume point -1): the frame is there.
        code.add(EntryCalls.resume(plan.key()));
        // Stack: frame, null when no activation is being restored (a call by deep reflection): refused, nothing taken
        LabelNode restoring = new LabelNode();
        code.add(new InsnNode(Opcodes.DUP));
        code.add(new JumpInsnNode(Opcodes.IFNONNULL, restoring));
        code.add(new LdcInsnNode(plan.key()));
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.RESUME_ERRORS,
                RuntimeNames.CONTINUATION_REFUSED, RuntimeNames.CONTINUATION_REFUSED_DESCRIPTOR, false));
        code.add(new InsnNode(Opcodes.ATHROW));
        code.add(restoring);
        // Stack: frame
        code.add(new VarInsnNode(Opcodes.ASTORE, plan.frameLocal()));
        code.add(new VarInsnNode(Opcodes.ALOAD, plan.frameLocal()));
        code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME, RuntimeNames.RESUME_POINT,
                RuntimeNames.RESUME_POINT_DESCRIPTOR, false));
        if (!plan.reentries().isEmpty()) {
            // Stack: resume point
            code.add(new InsnNode(Opcodes.DUP));
            code.add(new VarInsnNode(Opcodes.ISTORE, plan.resumePointLocal()));
        }
        // Stack: resume point; -1 when a restored activation of the class entered this continuation fresh
        LabelNode fresh = new LabelNode();
        if (methodStart != null) {
            code.add(new InsnNode(Opcodes.DUP));
            code.add(new JumpInsnNode(Opcodes.IFLT, fresh));
        }
        LabelNode[] targets = restoreLabels.clone();
        for (int point = 0; point < targets.length; point++) {
            targets[point] = targets[point] == null ? invalid : targets[point];
        }
        code.add(new TableSwitchInsnNode(0, targets.length - 1, invalid, targets));
        code.add(invalid);
        // Stack: (empty). A resume point this method does not have: the runtime names the method and throws.
        code.add(new LdcInsnNode(plan.key()));
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.RESUME_ERRORS,
                RuntimeNames.INVALID_RESUME_POINT, RuntimeNames.INVALID_RESUME_POINT_DESCRIPTOR, false));
        code.add(new InsnNode(Opcodes.ATHROW));
        if (methodStart != null) {
            code.add(fresh);
            // Stack: -1. Run from the method's start, with the caller's frame as this activation's own.
            code.add(new InsnNode(Opcodes.POP));
            code.add(new JumpInsnNode(Opcodes.GOTO, methodStart));
        }
        return code;
    }

    /**
     * True at a site that calls, bound at compile time, a capturing method of the class itself (a site that saves no
     * arguments): the continuation calls that method's continuation instead, entered fresh
     * ({@link #freshEntryCode}). A callee that ends up without a continuation is called as before
     * ({@link #unlinkFreshEntries}).
     */
    private static boolean entersOwnContinuation(MethodPlan plan, CapturedSite site) {
        return site.entersOwnMethod() && site.call().owner.equals(plan.owner())
                && site.call().getOpcode() != Opcodes.INVOKEDYNAMIC;
    }

    /**
     * Before a call of the class's own capturing method from its continuation: asks the runtime to let the callee's
     * continuation run fresh, and passes the unused parameter; the call becomes one of that continuation, static (an
     * instance method's continuation takes the call's receiver as its first parameter).
     */
    private static InsnList freshEntryCode(MethodPlan plan, MethodInsnNode call) {
        InsnList code = new InsnList();
        code.add(new VarInsnNode(Opcodes.ALOAD, plan.frameLocal()));
        code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, RuntimeNames.FRAME, RuntimeNames.REQUEST_FRESH_ENTRY,
                RuntimeNames.REQUEST_FRESH_ENTRY_DESCRIPTOR, false));
        code.add(new InsnNode(Opcodes.ACONST_NULL));
        call.desc = ContinuationMethod.descriptor(call.owner, call.desc, call.getOpcode() == Opcodes.INVOKESTATIC);
        call.setOpcode(Opcodes.INVOKESTATIC);
        return code;
    }

    /**
     * The methods, by name and descriptor, whose continuations {@code continuation} enters fresh: the callees of the
     * calls {@link #unlinkFreshEntries} left.
     */
    public static List<String> freshlyEntered(MethodNode continuation, String owner) {
        List<String> entered = new ArrayList<>();
        for (AbstractInsnNode instruction : continuation.instructions) {
            if (instruction instanceof MethodInsnNode call && call.owner.equals(owner)
                    && ContinuationMethod.methodDescriptor(call.desc) != null) {
                entered.add(call.name + ContinuationMethod.methodDescriptor(call.desc));
            }
        }
        return entered;
    }

    /**
     * Drops the fresh entry from a continuation that no continuation of its class enters fresh: the test of resume
     * point -1 goes, so that the method's code before its first site is unreachable again (the class writer turns it
     * into {@code nop .. athrow}) and its frames need no types that only that code merges.
     */
    public static void dropFreshEntry(MethodNode continuation) {
        for (AbstractInsnNode instruction : continuation.instructions) {
            if (instruction.getOpcode() == Opcodes.TABLESWITCH) {
                break;
            }
            if (instruction.getOpcode() == Opcodes.IFLT) {
                AbstractInsnNode duplicate = Instructions.previousInstruction(instruction);
                if (duplicate == null || duplicate.getOpcode() != Opcodes.DUP) {
                    break;
                }
                continuation.instructions.remove(duplicate);
                continuation.instructions.remove(instruction);
                return;
            }
        }
        throw new IllegalStateException("PicoThreads: the fresh entry of the continuation " + continuation.name
                + continuation.desc + " is not where the weaver put it");
    }

    /**
     * Turns each call of {@code continuation} into the continuation of a method of its class that has none (left
     * without capture code after all) back into a call of the method: drops the fresh entry's request and the
     * unused argument. {@code hasContinuation} answers by the method's name and descriptor.
     */
    public static void unlinkFreshEntries(MethodNode continuation, String owner,
            Predicate<String> hasContinuation) {
        for (AbstractInsnNode instruction : continuation.instructions.toArray()) {
            if (!(instruction instanceof MethodInsnNode call) || !call.owner.equals(owner)) {
                continue;
            }
            String methodDescriptor = ContinuationMethod.methodDescriptor(call.desc);
            if (methodDescriptor == null || hasContinuation.test(call.name + methodDescriptor)) {
                continue;
            }
            AbstractInsnNode argument = Instructions.previousInstruction(call);
            AbstractInsnNode request = argument == null ? null : Instructions.previousInstruction(argument);
            AbstractInsnNode frame = request == null ? null : Instructions.previousInstruction(request);
            if (argument == null || argument.getOpcode() != Opcodes.ACONST_NULL
                    || !(request instanceof MethodInsnNode requestCall)
                    || !requestCall.name.equals(RuntimeNames.REQUEST_FRESH_ENTRY) || frame == null
                    || frame.getOpcode() != Opcodes.ALOAD) {
                throw new IllegalStateException("PicoThreads: a fresh entry into " + call.name + " of " + owner
                        + " is not where the weaver put it");
            }
            continuation.instructions.remove(argument);
            continuation.instructions.remove(request);
            continuation.instructions.remove(frame);
            if (ContinuationMethod.isOfInstanceMethod(call.desc)) {
                call.setOpcode(Opcodes.INVOKESPECIAL); // a call bound at compile time to a method of the class
            }
            call.desc = methodDescriptor;
        }
    }

    /** Right after the region's MONITORENTER: a restoring path (resume point at least 0) goes to its dispatch. */
    private static InsnList reentryTestCode(MethodPlan plan, RegionLabels region) {
        InsnList code = new InsnList();
        code.add(new VarInsnNode(Opcodes.ILOAD, plan.resumePointLocal()));
        code.add(new JumpInsnNode(Opcodes.IFGE, region.dispatch));
        return code;
    }

    /** A region's dispatch: by resume point, to the continuation of the site being restored through the region. */
    private static InsnList dispatchCode(MethodPlan plan, RegionLabels region) {
        InsnList code = new InsnList();
        code.add(region.dispatch);
        code.add(new VarInsnNode(Opcodes.ILOAD, plan.resumePointLocal()));
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
        code.add(new LookupSwitchInsnNode(targets[0], keys, targets));
        return code;
    }

    /** A region's releasing handler: exits its monitor and the enclosing ones, innermost first, and rethrows. */
    private static InsnList releaseCode(RegionLabels region) {
        InsnList code = new InsnList();
        code.add(region.handler);
        // Stack: throwable
        int[] locks = region.reentry.locks();
        for (int depth = locks.length - 1; depth >= 0; depth--) {
            code.add(new VarInsnNode(Opcodes.ALOAD, locks[depth]));
            code.add(new InsnNode(Opcodes.MONITOREXIT));
        }
        code.add(new InsnNode(Opcodes.ATHROW));
        return code;
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
     * A site's capture handler: it exits the JVM monitors held at the site and hands the receiver (when the
     * continuation reads it after the site) and the saved values to the site's capture helper, leaving the capture
     * signal on the stack; the method then throws it on, the continuation returns instead ({@link #returnDefaultCode}).
     */
    private static InsnList handlerCode(MethodPlan plan, CapturedSite site) {
        InsnList code = new InsnList();
        // Stack: capture. The JVM monitors held here are released first, so that nothing that can throw runs
        // holding them outside a catch-any handler (HotSpot would refuse to compile the method); the runtime
        // monitors stay held.
        for (int index = site.held().size() - 1; index >= 0; index--) {
            code.add(new VarInsnNode(Opcodes.ALOAD, site.held().get(index).lock()));
            code.add(new InsnNode(Opcodes.MONITOREXIT));
        }
        if (!plan.isStatic()) {
            // a receiver dead after the site is not read, so that it need not live across the call
            code.add(site.keepsReceiver() ? new VarInsnNode(Opcodes.ALOAD, 0) : new InsnNode(Opcodes.ACONST_NULL));
        }
        for (SavedSlot slot : site.slots()) {
            if (slot.isSaved()) {
                code.add(new VarInsnNode(slot.kind().loadOpcode, slot.local()));
            }
        }
        // Stack: capture, (receiver or null), saved values
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, plan.owner(),
                captureHelperName(plan.methodIndex(), site.point()), captureHelperDescriptor(plan, site),
                plan.ownerIsInterface()));
        // Stack: capture
        return code;
    }

    /**
     * The end of a continuation's capture handler: Stack: capture -> returns the zero or null of the method's type.
     * Only the resume entry calls a continuation, and it asks the runtime whether the continuation returned or was
     * captured ({@link ResumeEntryWeaver}), so the signal need not cross the compiled frame boundary into the entry:
     * HotSpot pays a handler lookup for every compiled frame an exception lands in.
     */
    private static InsnList returnDefaultCode(Type returnType) {
        InsnList code = new InsnList();
        code.add(new InsnNode(Opcodes.POP));
        if (returnType.getSort() == Type.VOID) {
            code.add(new InsnNode(Opcodes.RETURN));
            return code;
        }
        code.add(new InsnNode(ResumeEntryWeaver.defaultValue(returnType)));
        code.add(new InsnNode(returnType.getOpcode(Opcodes.IRETURN)));
        return code;
    }

    /** The name of the capture helper of a capturing method's site. */
    private static String captureHelperName(int methodIndex, int point) {
        return RuntimeNames.CAPTURE_HELPER_PREFIX + methodIndex + "$" + point;
    }

    /** Takes the receiver (in an instance method) and each saved value, as the frame's push methods take them. */
    private static String captureHelperDescriptor(MethodPlan plan, CapturedSite site) {
        StringBuilder descriptor = new StringBuilder("(");
        if (!plan.isStatic()) {
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
    public static List<MethodNode> captureHelpers(MethodPlan plan) {
        List<MethodNode> helpers = new ArrayList<>();
        for (CapturedSite site : plan.captured()) {
            MethodNode helper = new MethodNode(RuntimeNames.ASM_API,
                    Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
                    captureHelperName(plan.methodIndex(), site.point()), captureHelperDescriptor(plan, site), null,
                    null);
            List<SavedSlot> saved = site.continuedSlots();
            List<SavedSlot> arguments = site.argumentSlots();
            long[] counts = new long[4];
            count(saved, counts, 0);
            count(arguments, counts, 2);
            InsnList code = helper.instructions;
            int parameter = 0;
            if (plan.isStatic()) {
                code.add(new InsnNode(Opcodes.ACONST_NULL));
            } else {
                code.add(new VarInsnNode(Opcodes.ALOAD, parameter++));
            }
            code.add(integer(site.siteCode()));
            code.add(new LdcInsnNode(counts[0] << 48 | counts[1] << 32 | counts[2] << 16 | counts[3]));
            // Stack: receiver, site, counts
            code.add(EntryCalls.capture(plan.key()));
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
     * Gives each local a zero or null of its kind: values the restoring path never reads, there so that the
     * merge with the normal path at a region's entry keeps the types the normal path reads there.
     */
    private static InsnList defaultValues(List<SavedSlot> locals) {
        InsnList code = new InsnList();
        for (SavedSlot slot : locals) {
            code.add(new InsnNode(defaultValueOpcode(slot.kind())));
            code.add(new VarInsnNode(slot.kind().storeOpcode, slot.local()));
        }
        return code;
    }

    /** The instruction that pushes the zero or null of a kind. */
    private static int defaultValueOpcode(SavedKind kind) {
        return switch (kind) {
            case INT -> Opcodes.ICONST_0;
            case FLOAT -> Opcodes.FCONST_0;
            case LONG -> Opcodes.LCONST_0;
            case DOUBLE -> Opcodes.DCONST_0;
            case OBJECT, NULL -> Opcodes.ACONST_NULL;
        };
    }

    /** Makes the restore code from {@code start} to here run under the region's monitor-releasing handler. */
    private static void coverWithHandler(InsnList restoreBlocks, LabelNode start, RegionLabels region,
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
            if (slot.restoresDefault()) {
                code.add(new InsnNode(defaultValueOpcode(slot.kind())));
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
            return new IntInsnNode(Opcodes.BIPUSH, value);
        }
        if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            return new IntInsnNode(Opcodes.SIPUSH, value);
        }
        return new LdcInsnNode(value);
    }
}
