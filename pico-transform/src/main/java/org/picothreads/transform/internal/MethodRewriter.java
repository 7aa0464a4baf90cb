package org.picothreads.transform.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.picothreads.transform.internal.analysis.MethodFlow;
import org.picothreads.transform.internal.analysis.MethodPlan;
import org.picothreads.transform.internal.analysis.MethodPlan.PinnedSite;
import org.picothreads.transform.internal.analysis.MethodPlanner;
import org.picothreads.transform.internal.analysis.SuspendabilityAnalysis;
import org.picothreads.transform.internal.analysis.SynchronizedRegions;
import org.picothreads.transform.internal.emit.CaptureWeaver;
import org.picothreads.transform.internal.emit.CaughtExceptionTraces;
import org.picothreads.transform.internal.emit.ContinuationMethod;
import org.picothreads.transform.internal.emit.EntryCalls;
import org.picothreads.transform.internal.emit.ExclusionWeaver;
import org.picothreads.transform.internal.emit.FrameComputer;
import org.picothreads.transform.internal.emit.MonitorWeaver;
import org.picothreads.transform.internal.emit.NewMover;
import org.picothreads.transform.internal.emit.PinWeaver;
import org.picothreads.transform.internal.emit.SynchronizedMethodLowering;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.internal.hierarchy.MissingClassException;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.report.PinnedCallSite;

/**
 * Rewrites one method that can reach a blocking call by running {@link #PASSES} in order over its {@link MethodWork}:
 * the first passes prepare the code and analyse it into a {@link MethodPlan}, the others emit what the plan says. A
 * method that cannot reach a blocking call gets only the suspended-holder check ({@link #withHolderChecks}).
 */
public final class MethodRewriter {
    /** One step of a method's rewrite: it reads and extends the work, or asks to start again with every site pinned. */
    private interface Pass {
        void run(MethodWork work) throws StartAgainPinned;
    }

    /** The passes of a method's rewrite, in order: analysis and planning first, then emission. */
    private static final List<Pass> PASSES = List.of(
            // a method that can never be captured (constructor, class initializer, ...): plan every site pinned
            MethodRewriter::planWhenNeverCapturable,
            // turn a synchronized method into a synchronized block (SynchronizedMethodLowering)
            MethodRewriter::lowerSynchronizedMethod,
            // analyse frames, liveness and held monitors (MethodFlow)
            MethodRewriter::analyseFlow,
            // move object creations after constructor arguments that can suspend (NewMover), then analyse again
            MethodRewriter::moveCreations,
            // give runtime monitors to the regions around savable sites, their entry calls new sites (MonitorWeaver)
            MethodRewriter::convertMonitorRegions,
            // plan each site captured or pinned with its reason, its saved values, held monitors, temporaries
            MethodRewriter::planSites,
            // weave the normal path: capture handlers at captured sites, pinned regions, suspended-holder checks
            MethodRewriter::weaveNormalPath,
            // weave the continuation (restore code, pins, checks; its handlers complete caught exceptions' traces:
            // CaughtExceptionTraces), then the capture helpers (CaptureWeaver)
            MethodRewriter::weaveContinuation,
            // compute frames (FrameComputer), unless the class's final write computes them; too large after
            // rewriting or a type missing: start again pinned
            MethodRewriter::computeFrames);

    /**
     * The rewritten method with its frames, or null when it is left as it was; what was done; and whether the method
     * reaches a blocking call but got no capture code (too large after rewriting, or not analysable), so that the
     * class's marker must name it for the runtime's frame check never to capture through it.
     */
    public record Outcome(MethodNode method, MethodReport report, boolean notCapturable, MethodNode continuation,
            List<MethodNode> captureHelpers) {
        Outcome(MethodNode method, MethodReport report) {
            this(method, report, false, null, List.of());
        }

        Outcome(MethodNode method, MethodReport report, boolean notCapturable) {
            this(method, report, notCapturable, null, List.of());
        }
    }

    /** The state the passes share while rewriting one method. */
    private static final class MethodWork {
        final ClassNode owner;
        /** The method, changed in place by the preparing passes; it becomes the continuation when a site captures. */
        final MethodNode method;
        /** A copy of the method as it was given, from which the fallback starts again. */
        final MethodNode original;
        final ClassHierarchy hierarchy;
        /** The method's index among its class's methods that can reach a blocking call. */
        final int methodIndex;
        /** True when the class's final write computes the frames, so that the last pass leaves them out. */
        final boolean framesInClassWrite;
        /** The suspension call sites, in code order; the runtime monitors' entry calls are added last. */
        List<MethodInsnNode> sites;
        /** The positions of the original sites among the original's instructions, for the fallback. */
        final int[] siteIndices;
        /** Why the method can never be captured, or null. */
        String reasonNeverCapturable;
        MethodFlow flow;
        /** The regions given runtime monitors, with their lock locals. */
        Map<AbstractInsnNode, Integer> convertedRegions = Map.of();
        /** The regions that check for a suspended holder after their entry, with their lock locals. */
        Map<AbstractInsnNode, Integer> checkedRegions = Map.of();
        /** The converted regions that may lock an object JDK code also locks, in words. */
        Map<AbstractInsnNode, String> jdkLockedMonitors = Map.of();
        MethodPlan plan;
        /** The method as it is called: its normal path, without restore code. */
        MethodNode normal;
        MethodNode continuation;
        final List<MethodNode> captureHelpers = new ArrayList<>();
        MethodNode normalWithFrames;
        MethodNode continuationWithFrames;
        final List<MethodNode> captureHelpersWithFrames = new ArrayList<>();

        MethodWork(ClassNode owner, MethodNode method, List<MethodInsnNode> sites, ClassHierarchy hierarchy,
                int methodIndex, boolean framesInClassWrite) {
            this.owner = owner;
            this.method = method;
            this.original = copy(method);
            this.hierarchy = hierarchy;
            this.methodIndex = methodIndex;
            this.framesInClassWrite = framesInClassWrite;
            this.sites = sites;
            this.siteIndices = new int[sites.size()];
            for (int index = 0; index < siteIndices.length; index++) {
                siteIndices[index] = method.instructions.indexOf(sites.get(index));
            }
        }

        /** True when the method can never be captured: it is planned at once, and the preparing passes skip it. */
        boolean neverCapturable() {
            return reasonNeverCapturable != null;
        }
    }

    /** Raised by a pass that cannot go on: the method starts again from its original with every site pinned. */
    private static final class StartAgainPinned extends Exception {
        StartAgainPinned(String reason) {
            super(reason, null, false, false);
        }
    }

    private MethodRewriter() {
    }

    /**
     * Rewrites the method, or leaves it as it was when it cannot reach a blocking call.
     *
     * @param methodIndex        the method's index among its class's methods that can reach a blocking call, which
     *                           the class's resume entry dispatches on
     * @param framesInClassWrite true when the class's final write computes the frames of the methods returned
     *                           ({@link FrameComputer#writeWithFrames}); they come without frames, and neither a
     *                           method too large after rewriting nor a missing type is found here
     */
    public static Outcome rewrite(ClassNode owner, MethodNode method, SuspendabilityAnalysis analysis,
            ClassHierarchy hierarchy, int methodIndex, boolean framesInClassWrite) {
        List<MethodInsnNode> sites = suspensionSites(method, analysis);
        if (sites.isEmpty()) {
            return new Outcome(withHolderChecks(owner, method, hierarchy, framesInClassWrite), null);
        }
        MethodWork work = new MethodWork(owner, method, sites, hierarchy, methodIndex, framesInClassWrite);
        try {
            for (Pass pass : PASSES) {
                pass.run(work);
            }
        } catch (StartAgainPinned fallback) {
            return startAgainPinned(work, fallback.getMessage());
        }
        return outcome(work);
    }

    private static void planWhenNeverCapturable(MethodWork work) {
        work.reasonNeverCapturable = MethodPlanner.reasonNeverCapturable(work.owner, work.method, work.methodIndex);
        if (work.neverCapturable()) {
            work.plan = MethodPlanner.everySitePinned(work.owner, work.methodIndex, work.method, work.sites,
                    work.reasonNeverCapturable, work.reasonNeverCapturable);
        }
    }

    private static void lowerSynchronizedMethod(MethodWork work) {
        if (!work.neverCapturable() && SynchronizedRegions.canLowerMethod(work.owner, work.method)) {
            SynchronizedMethodLowering.lower(work.owner, work.method);
        }
    }

    private static void analyseFlow(MethodWork work) throws StartAgainPinned {
        if (!work.neverCapturable()) {
            work.flow = analyse(work);
        }
    }

    private static void moveCreations(MethodWork work) throws StartAgainPinned {
        if (!work.neverCapturable() && NewMover.moveCreations(work.method, work.flow, work.sites)) {
            work.flow = analyse(work);
        }
    }

    private static void convertMonitorRegions(MethodWork work) throws StartAgainPinned {
        if (work.neverCapturable()) {
            return;
        }
        work.convertedRegions = MethodPlanner.regionsToConvert(work.flow, work.sites);
        work.checkedRegions = SynchronizedRegions.needingHolderCheck(work.method, work.convertedRegions.keySet());
        try {
            work.jdkLockedMonitors = MethodPlanner.jdkLockedMonitors(work.owner, work.flow, work.convertedRegions,
                    work.hierarchy);
        } catch (MissingClassException exception) {
            throw cannotBeAnalysed(exception);
        }
        if (!work.convertedRegions.isEmpty()) {
            work.sites = new ArrayList<>(work.sites);
            work.sites.addAll(MonitorWeaver.weave(work.method, work.flow, work.convertedRegions));
            work.flow = analyse(work);
        }
    }

    private static void planSites(MethodWork work) {
        if (!work.neverCapturable()) {
            work.plan = MethodPlanner.plan(work.owner, work.methodIndex, work.method, work.flow, work.sites,
                    work.convertedRegions, work.checkedRegions, work.jdkLockedMonitors,
                    MethodPlanner.programCalls(work.hierarchy, work.sites));
        }
    }

    /**
     * Weaves the method as it is called: when a site captures, into a copy (the method itself becomes the
     * continuation), with a capture handler at each captured site; pinned regions and suspended-holder checks always.
     */
    private static void weaveNormalPath(MethodWork work) {
        MethodPlan plan = work.plan;
        if (!plan.captures()) {
            work.normal = work.method;
            pinAndCheck(work.method, plan.pinned(), plan.checkedRegions());
            return;
        }
        work.normal = copy(work.method);
        PositionMap positions = new PositionMap(work.method, work.normal);
        CaptureWeaver.weaveNormalPath(work.normal, positions.calls(plan.capturedCalls()), plan);
        List<PinnedSite> pinned = new ArrayList<>();
        for (PinnedSite site : plan.pinned()) {
            pinned.add(new PinnedSite(positions.call(site.call()), site.reason()));
        }
        pinAndCheck(work.normal, pinned, positions.regions(plan.checkedRegions()));
    }

    /**
     * Weaves the continuation into the method itself, with the same pinned regions and checks as the normal path,
     * makes a copy of it the continuation ({@link ContinuationMethod}), and makes the capture helpers.
     */
    private static void weaveContinuation(MethodWork work) {
        MethodPlan plan = work.plan;
        if (!plan.captures()) {
            return;
        }
        CaptureWeaver.weaveContinuation(work.method, plan, work.framesInClassWrite);
        pinAndCheck(work.method, plan.pinned(), plan.checkedRegions());
        EntryCalls.lowerForOldClassFile(work.method, work.owner.version);
        // A copy takes the continuation's name and descriptor: the class's own method keeps them for the analysis.
        work.continuation = copy(work.method);
        ContinuationMethod.convert(work.owner.name, work.continuation);
        CaughtExceptionTraces.weave(work.continuation, plan.key());
        work.captureHelpers.addAll(CaptureWeaver.captureHelpers(plan));
        for (MethodNode helper : work.captureHelpers) {
            EntryCalls.lowerForOldClassFile(helper, work.owner.version);
        }
    }

    private static void computeFrames(MethodWork work) throws StartAgainPinned {
        if (work.framesInClassWrite) {
            work.normalWithFrames = work.normal;
            work.continuationWithFrames = work.continuation;
            work.captureHelpersWithFrames.addAll(work.captureHelpers);
            return;
        }
        try {
            work.normalWithFrames = FrameComputer.withFrames(work.owner, work.normal, work.hierarchy);
            if (work.continuation != null) {
                work.continuationWithFrames = FrameComputer.withFrames(work.owner, work.continuation, work.hierarchy);
            }
            for (MethodNode helper : work.captureHelpers) {
                work.captureHelpersWithFrames.add(FrameComputer.withFrames(work.owner, helper, work.hierarchy));
            }
        } catch (MethodTooLargeException exception) {
            throw new StartAgainPinned("would exceed 64 KB of bytecode after rewriting");
        } catch (MissingClassException exception) {
            throw new StartAgainPinned("cannot compute frames: " + exception.getMessage());
        }
    }

    /** The method's flow, or the fallback when its code cannot be analysed. */
    private static MethodFlow analyse(MethodWork work) throws StartAgainPinned {
        try {
            return MethodFlow.analyze(work.owner, work.method, work.hierarchy);
        } catch (AnalyzerException | MissingClassException exception) {
            throw cannotBeAnalysed(exception);
        }
    }

    private static StartAgainPinned cannotBeAnalysed(Exception exception) {
        return new StartAgainPinned("cannot be analysed: " + exception.getMessage());
    }

    /** Weaves a pinned region around each pinned site, then the suspended-holder check after each region's entry. */
    private static void pinAndCheck(MethodNode method, List<PinnedSite> pinned,
            Map<AbstractInsnNode, Integer> checkedRegions) {
        for (PinnedSite site : pinned) {
            PinWeaver.pin(method, site.call());
        }
        ExclusionWeaver.weave(method, checkedRegions);
    }

    private static Outcome outcome(MethodWork work) {
        MethodPlan plan = work.plan;
        return new Outcome(work.normalWithFrames, new MethodReport(work.original.name, work.original.desc,
                plan.captures(), plan.reasonNoCapture(), plan.points(), report(plan.pinned()),
                plan.sharedMonitorRegions()), false, work.continuationWithFrames, work.captureHelpersWithFrames);
    }

    /**
     * The fallback: the original method with every suspension site pinned for {@code reason}, reported untransformed;
     * when even that does not fit, the method exactly as it was.
     */
    private static Outcome startAgainPinned(MethodWork work, String reason) {
        MethodNode method = copy(work.original);
        List<MethodInsnNode> sites = new ArrayList<>();
        for (int index : work.siteIndices) {
            sites.add((MethodInsnNode) method.instructions.get(index));
        }
        MethodPlan plan = MethodPlanner.everySitePinned(work.owner, work.methodIndex, method, sites, reason, null);
        pinAndCheck(method, plan.pinned(), plan.checkedRegions());
        List<PinnedSite> pinned = plan.pinned();
        MethodNode withFrames;
        try {
            withFrames = FrameComputer.withFrames(work.owner, method, work.hierarchy);
        } catch (RuntimeException exception) {
            // Even pinning does not fit, or its frames need the missing class too: the method stays exactly as it
            // was, and only the marker keeps the frame check from capturing through it.
            withFrames = null;
            List<PinnedSite> pinnedAtRunTime = new ArrayList<>();
            for (PinnedSite site : pinned) {
                pinnedAtRunTime.add(new PinnedSite(site.call(), reason + UNPINNABLE));
            }
            pinned = pinnedAtRunTime;
        }
        return new Outcome(withFrames, new MethodReport(work.original.name, work.original.desc, false,
                withFrames == null ? reason + UNPINNABLE : reason, List.of(), report(pinned)), true);
    }

    /**
     * A copy of a method that cannot reach a blocking call with the suspended-holder check after the entry of each
     * synchronized region (a synchronized method is lowered to a block first), or null when it has none or the
     * check does not fit, in which case the method stays as it was. With {@code framesInClassWrite}, the copy comes
     * without frames, for the class's final write to compute, and whether it fits is not checked here.
     */
    public static MethodNode withHolderChecks(ClassNode owner, MethodNode method, ClassHierarchy hierarchy,
            boolean framesInClassWrite) {
        if ((method.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0
                || !SynchronizedRegions.mayNeedHolderCheck(method)) {
            return null;
        }
        MethodNode checked = copy(method);
        if (SynchronizedRegions.canLowerMethod(owner, checked)) {
            SynchronizedMethodLowering.lower(owner, checked);
        }
        Map<AbstractInsnNode, Integer> regions = SynchronizedRegions.needingHolderCheck(checked, Set.of());
        if (regions.isEmpty()) {
            return null;
        }
        ExclusionWeaver.weave(checked, regions);
        if (framesInClassWrite) {
            return checked;
        }
        try {
            return FrameComputer.withFrames(owner, checked, hierarchy);
        } catch (MethodTooLargeException | MissingClassException exception) {
            return null;
        }
    }

    /** Finds, in a copy of a method made instruction for instruction, the instruction at an original's position. */
    private static final class PositionMap {
        private final Map<AbstractInsnNode, Integer> positions = new HashMap<>();
        private final AbstractInsnNode[] copied;

        PositionMap(MethodNode original, MethodNode copy) {
            AbstractInsnNode[] instructions = original.instructions.toArray();
            for (int index = 0; index < instructions.length; index++) {
                positions.put(instructions[index], index);
            }
            copied = copy.instructions.toArray();
        }

        MethodInsnNode call(MethodInsnNode call) {
            return (MethodInsnNode) copied[positions.get(call)];
        }

        List<MethodInsnNode> calls(List<MethodInsnNode> calls) {
            List<MethodInsnNode> mapped = new ArrayList<>();
            for (MethodInsnNode call : calls) {
                mapped.add(call(call));
            }
            return mapped;
        }

        Map<AbstractInsnNode, Integer> regions(Map<AbstractInsnNode, Integer> regions) {
            Map<AbstractInsnNode, Integer> mapped = new LinkedHashMap<>();
            regions.forEach((enter, lock) -> mapped.put(copied[positions.get(enter)], lock));
            return mapped;
        }
    }

    private static List<MethodInsnNode> suspensionSites(MethodNode method, SuspendabilityAnalysis analysis) {
        List<MethodInsnNode> sites = new ArrayList<>();
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof MethodInsnNode call && analysis.isSuspendableCall(call)) {
                sites.add(call);
            }
        }
        return sites;
    }

    /** Said of a method left exactly as it was, whose blocking calls the runtime pins. */
    private static final String UNPINNABLE = "; left as it was (its pins would not fit or need the same classes),"
            + " so the runtime's frame check pins every blocking call below it";

    private static List<PinnedCallSite> report(List<PinnedSite> pinned) {
        List<PinnedCallSite> sites = new ArrayList<>();
        for (PinnedSite site : pinned) {
            MethodInsnNode call = site.call();
            sites.add(new PinnedCallSite(Instructions.lineOf(call),
                    Redirects.table().describeCall(call.owner, call.name, call.desc),
                    site.reason()));
        }
        return sites;
    }

    /** A deep copy of the method, instruction for instruction (labels are cloned). */
    static MethodNode copy(MethodNode method) {
        MethodNode copy = new MethodNode(RuntimeNames.ASM_API, method.access, method.name, method.desc,
                method.signature, method.exceptions == null ? null : method.exceptions.toArray(new String[0]));
        method.accept(copy);
        return copy;
    }
}
