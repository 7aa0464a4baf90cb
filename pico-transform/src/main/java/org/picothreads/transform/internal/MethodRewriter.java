package org.picothreads.transform.internal;

import java.util.ArrayList;
import java.util.Comparator;
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
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.picothreads.transform.internal.analysis.MethodFlow;
import org.picothreads.transform.internal.analysis.SuspendabilityAnalysis;
import org.picothreads.transform.internal.analysis.SynchronizedRegions;
import org.picothreads.transform.internal.emit.CaptureWeaver;
import org.picothreads.transform.internal.emit.ContinuationMethod;
import org.picothreads.transform.internal.emit.EntryCalls;
import org.picothreads.transform.internal.emit.ExclusionWeaver;
import org.picothreads.transform.internal.emit.FrameComputer;
import org.picothreads.transform.internal.emit.MonitorWeaver;
import org.picothreads.transform.internal.emit.NewMover;
import org.picothreads.transform.internal.emit.PinWeaver;
import org.picothreads.transform.internal.emit.Redirects;
import org.picothreads.transform.internal.emit.SynchronizedMethodLowering;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.internal.hierarchy.MissingClassException;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.report.PinnedCallSite;
import org.picothreads.transform.report.SharedMonitorRegion;
import org.picothreads.transform.report.SuspensionPoint;

/**
 * Rewrites one method that can reach a blocking call. The passes, in order:
 * <ol>
 * <li>find its suspension call sites (from the whole-program {@link SuspendabilityAnalysis});</li>
 * <li>pin every site when the method can never be captured (constructor, class initializer);</li>
 * <li>turn a synchronized method into a synchronized block ({@link SynchronizedMethodLowering});</li>
 * <li>analyse frames, liveness and held monitors ({@link MethodFlow});</li>
 * <li>move object creations after constructor arguments that can suspend ({@link NewMover}), then analyse again;</li>
 * <li>give the synchronized regions around the sites runtime monitors ({@link MonitorWeaver}), whose entry
 *     calls are new sites, then analyse again; the other regions are chosen for the suspended-holder check
 *     ({@link SynchronizedRegions});</li>
 * <li>pin sites that still have a value on the stack that cannot be saved, or sit in a region that could
 *     not be converted;</li>
 * <li>weave capture and restore code at the remaining sites ({@link CaptureWeaver}), its runtime entries linked by
 *     invokedynamic, or checked calls in a class file before Java 7 ({@link EntryCalls});</li>
 * <li>weave pinned regions around the pinned sites ({@link PinWeaver});</li>
 * <li>weave the suspended-holder check after the entry of each chosen region ({@link ExclusionWeaver});</li>
 * <li>compute frames ({@link FrameComputer}); if the method no longer fits in 64 KB or a type is missing,
 *     start again from the original with every site pinned, and report it untransformed.</li>
 * </ol>
 * A method that cannot reach a blocking call gets only the suspended-holder check ({@link #withHolderChecks}).
 */
public final class MethodRewriter {
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

    private MethodRewriter() {
    }

    /**
     * Rewrites the method, or leaves it as it was when it cannot reach a blocking call.
     *
     * @param methodIndex the method's index among its class's methods that can reach a blocking call, which the
     *                    class's resume entry dispatches on
     */
    public static Outcome rewrite(ClassNode owner, MethodNode method, SuspendabilityAnalysis analysis,
            ClassHierarchy hierarchy, int methodIndex) {
        List<MethodInsnNode> sites = suspensionSites(method, analysis);
        if (sites.isEmpty()) {
            return new Outcome(withHolderChecks(owner, method, hierarchy), null);
        }
        MethodNode original = copy(method);
        int[] siteIndices = new int[sites.size()];
        for (int index = 0; index < siteIndices.length; index++) {
            siteIndices[index] = method.instructions.indexOf(sites.get(index));
        }
        String reasonNotCapturable = reasonNeverCapturable(owner, method, methodIndex);
        List<MethodInsnNode> captured = new ArrayList<>();
        List<PinnedSite> pinned = new ArrayList<>();
        List<SuspensionPoint> points = List.of();
        CaptureWeaver.Plan plan = null;
        Map<AbstractInsnNode, Integer> checkedRegions = Map.of();
        List<SharedMonitorRegion> sharedMonitorRegions = new ArrayList<>();
        if (reasonNotCapturable != null) {
            for (MethodInsnNode site : sites) {
                pinned.add(new PinnedSite(site, reasonNotCapturable));
            }
            checkedRegions = SynchronizedRegions.needingHolderCheck(method, Set.of());
        } else {
            try {
                if (SynchronizedMethodLowering.canLower(owner, method)) {
                    SynchronizedMethodLowering.lower(owner, method);
                }
                MethodFlow flow = MethodFlow.analyze(owner, method, hierarchy);
                if (NewMover.moveCreations(method, flow, sites)) {
                    flow = MethodFlow.analyze(owner, method, hierarchy);
                }
                Map<AbstractInsnNode, Integer> regions = MonitorWeaver.plan(flow, savableSites(flow, sites));
                if (regions == null) {
                    regions = Map.of();
                }
                checkedRegions = SynchronizedRegions.needingHolderCheck(method, regions.keySet());
                Map<AbstractInsnNode, String> jdkLockedMonitors = jdkLockedMonitors(owner, flow, regions, hierarchy);
                if (!regions.isEmpty()) {
                    sites = new ArrayList<>(sites);
                    sites.addAll(MonitorWeaver.weave(method, flow, regions));
                    flow = MethodFlow.analyze(owner, method, hierarchy);
                }
                Map<MethodInsnNode, List<CaptureWeaver.HeldMonitor>> heldMonitors = new HashMap<>();
                classify(flow, sites, regions, captured, pinned, heldMonitors);
                sharedMonitorRegions = sharedMonitorRegions(jdkLockedMonitors, heldMonitors);
                if (!captured.isEmpty()) {
                    plan = CaptureWeaver.plan(owner, methodIndex, method, flow, captured, heldMonitors);
                }
            } catch (AnalyzerException | MissingClassException exception) {
                return pinnedEverywhere(owner, original, siteIndices, "cannot be analysed: " + exception.getMessage(),
                        hierarchy);
            }
        }
        MethodNode normal = method;
        MethodNode continuation = null;
        List<MethodNode> helpers = new ArrayList<>();
        if (plan != null) {
            // The method keeps its normal path; its copy, the continuation, gets the restore code.
            normal = copy(method);
            PositionMap positions = new PositionMap(method, normal);
            CaptureWeaver.weaveNormalPath(normal, positions.calls(plan.sites()), plan);
            for (PinnedSite site : pinned) {
                PinWeaver.pin(normal, positions.call(site.call()));
            }
            ExclusionWeaver.weave(normal, positions.regions(checkedRegions));
            points = CaptureWeaver.weaveContinuation(method, plan);
            for (PinnedSite site : pinned) {
                PinWeaver.pin(method, site.call());
            }
            ExclusionWeaver.weave(method, checkedRegions);
            EntryCalls.lowerForOldClassFile(method, owner.version);
            // A copy takes the continuation's name and descriptor: the class's own method keeps them for the analysis.
            continuation = copy(method);
            ContinuationMethod.convert(continuation);
            helpers.addAll(CaptureWeaver.captureHelpers(plan));
            for (MethodNode helper : helpers) {
                EntryCalls.lowerForOldClassFile(helper, owner.version);
            }
        } else {
            for (PinnedSite site : pinned) {
                PinWeaver.pin(method, site.call());
            }
            ExclusionWeaver.weave(method, checkedRegions);
        }
        MethodNode withFrames;
        MethodNode continuationWithFrames = null;
        List<MethodNode> helpersWithFrames = new ArrayList<>();
        try {
            withFrames = FrameComputer.withFrames(owner, normal, hierarchy);
            if (continuation != null) {
                continuationWithFrames = FrameComputer.withFrames(owner, continuation, hierarchy);
            }
            for (MethodNode helper : helpers) {
                helpersWithFrames.add(FrameComputer.withFrames(owner, helper, hierarchy));
            }
        } catch (MethodTooLargeException exception) {
            return pinnedEverywhere(owner, original, siteIndices, "would exceed 64 KB of bytecode after rewriting",
                    hierarchy);
        } catch (MissingClassException exception) {
            return pinnedEverywhere(owner, original, siteIndices, "cannot compute frames: " + exception.getMessage(),
                    hierarchy);
        }
        boolean rewritten = !captured.isEmpty();
        return new Outcome(withFrames, new MethodReport(original.name, original.desc, rewritten,
                rewritten ? null : reasonForNoCapture(reasonNotCapturable, pinned), points, report(pinned),
                sharedMonitorRegions), false, continuationWithFrames, helpersWithFrames);
    }

    /** The object JDK code also locks that each region may lock, in words, in the regions' order. */
    private static Map<AbstractInsnNode, String> jdkLockedMonitors(ClassNode owner, MethodFlow flow,
            Map<AbstractInsnNode, Integer> regions, ClassHierarchy hierarchy) {
        Map<AbstractInsnNode, String> monitors = new LinkedHashMap<>();
        for (AbstractInsnNode enter : regions.keySet()) {
            String monitor = SynchronizedRegions.jdkLockedMonitor(owner, flow, enter, hierarchy);
            if (monitor != null) {
                monitors.put(enter, monitor);
            }
        }
        return monitors;
    }

    /** The regions on an object JDK code also locks that are held at a site where the thread is captured. */
    private static List<SharedMonitorRegion> sharedMonitorRegions(Map<AbstractInsnNode, String> jdkLockedMonitors,
            Map<MethodInsnNode, List<CaptureWeaver.HeldMonitor>> heldMonitors) {
        List<AbstractInsnNode> suspending = new ArrayList<>();
        for (List<CaptureWeaver.HeldMonitor> held : heldMonitors.values()) {
            for (CaptureWeaver.HeldMonitor monitor : held) {
                if (jdkLockedMonitors.containsKey(monitor.enter()) && !suspending.contains(monitor.enter())) {
                    suspending.add(monitor.enter());
                }
            }
        }
        List<SharedMonitorRegion> regions = new ArrayList<>();
        for (AbstractInsnNode enter : jdkLockedMonitors.keySet()) {
            if (suspending.contains(enter)) {
                regions.add(new SharedMonitorRegion(CaptureWeaver.lineOf(enter), jdkLockedMonitors.get(enter)));
            }
        }
        regions.sort(Comparator.comparingInt(SharedMonitorRegion::line));
        return regions;
    }

    /**
     * A copy of a method that cannot reach a blocking call with the suspended-holder check after the entry of each
     * synchronized region (a synchronized method is lowered to a block first), or null when it has none or the
     * check does not fit, in which case the method stays as it was.
     */
    public static MethodNode withHolderChecks(ClassNode owner, MethodNode method, ClassHierarchy hierarchy) {
        if ((method.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0
                || !SynchronizedRegions.mayNeedHolderCheck(method)) {
            return null;
        }
        MethodNode checked = copy(method);
        if (SynchronizedMethodLowering.canLower(owner, checked)) {
            SynchronizedMethodLowering.lower(owner, checked);
        }
        Map<AbstractInsnNode, Integer> regions = SynchronizedRegions.needingHolderCheck(checked, Set.of());
        if (regions.isEmpty()) {
            return null;
        }
        ExclusionWeaver.weave(checked, regions);
        try {
            return FrameComputer.withFrames(owner, checked, hierarchy);
        } catch (MethodTooLargeException | MissingClassException exception) {
            return null;
        }
    }

    private record PinnedSite(MethodInsnNode call, String reason) {
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

    private static String reasonNeverCapturable(ClassNode owner, MethodNode method, int methodIndex) {
        if (method.name.equals("<init>")) {
            return "in a constructor, which cannot be re-entered";
        }
        if (method.name.equals("<clinit>")) {
            return "in a class initializer, which cannot be re-entered";
        }
        if ((method.access & Opcodes.ACC_SYNCHRONIZED) != 0 && !SynchronizedMethodLowering.canLower(owner, method)) {
            return "in a static synchronized method of a class file older than Java 5";
        }
        if (methodIndex > RuntimeNames.LARGEST_METHOD_INDEX) {
            return "in a class with more than " + RuntimeNames.LARGEST_METHOD_INDEX + " methods that can block";
        }
        if ((method.access & Opcodes.ACC_STATIC) == 0 && assignsLocalZero(method)) {
            return "in an instance method that assigns its local 0, which a resume must find holding the receiver";
        }
        return null;
    }

    /** True when the method stores into local 0 (in an instance method, the slot of {@code this}). */
    private static boolean assignsLocalZero(MethodNode method) {
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof org.objectweb.asm.tree.VarInsnNode variable && variable.var == 0
                    && variable.getOpcode() >= Opcodes.ISTORE && variable.getOpcode() <= Opcodes.ASTORE
                    || instruction instanceof org.objectweb.asm.tree.IincInsnNode increment && increment.var == 0) {
                return true;
            }
        }
        return false;
    }

    /** The reachable sites whose operand stack can be saved: the ones whose regions may need converting. */
    private static List<MethodInsnNode> savableSites(MethodFlow flow, List<MethodInsnNode> sites) {
        List<MethodInsnNode> savable = new ArrayList<>();
        for (MethodInsnNode site : sites) {
            Frame<BasicValue> frame = flow.frameBefore(site);
            if (frame != null && stackCanBeSaved(frame) && flow.monitorsBalanced()) {
                savable.add(site);
            }
        }
        return savable;
    }

    private static void classify(MethodFlow flow, List<MethodInsnNode> sites, Map<AbstractInsnNode, Integer> regions,
            List<MethodInsnNode> captured, List<PinnedSite> pinned,
            Map<MethodInsnNode, List<CaptureWeaver.HeldMonitor>> heldMonitors) {
        for (MethodInsnNode site : sites) {
            Frame<BasicValue> frame = flow.frameBefore(site);
            if (frame == null) {
                continue; // unreachable code: leave it alone
            }
            List<AbstractInsnNode> held = flow.heldMonitorsBefore(site);
            if (!flow.monitorsBalanced()) {
                pinned.add(new PinnedSite(site, "in a method whose monitors are not block-structured"));
            } else if (!regions.keySet().containsAll(held)) {
                pinned.add(new PinnedSite(site, "inside a synchronized block whose lock object is not kept in a local"));
            } else if (!stackCanBeSaved(frame)) {
                pinned.add(new PinnedSite(site, "an object under construction is on the operand stack"));
            } else if (frame.getLocals() + frame.getStackSize() > RuntimeNames.LARGEST_SAVED_COUNT) {
                pinned.add(new PinnedSite(site, "more than " + RuntimeNames.LARGEST_SAVED_COUNT
                        + " locals and stack entries, more than a saved activation counts"));
            } else {
                List<CaptureWeaver.HeldMonitor> monitors = new ArrayList<>();
                String reason = null;
                for (AbstractInsnNode enter : held) {
                    CaptureWeaver.HeldMonitor monitor = new CaptureWeaver.HeldMonitor(enter, regions.get(enter));
                    reason = reason != null ? reason : CaptureWeaver.whyNotReenterable(flow, monitor);
                    monitors.add(monitor);
                }
                if (reason != null) {
                    pinned.add(new PinnedSite(site, reason));
                } else {
                    heldMonitors.put(site, monitors);
                    captured.add(site);
                }
            }
        }
    }

    private static boolean stackCanBeSaved(Frame<BasicValue> frame) {
        for (int index = 0; index < frame.getStackSize(); index++) {
            BasicValue value = frame.getStack(index);
            if (value instanceof org.picothreads.transform.internal.analysis.UninitializedValue
                    || value == BasicValue.RETURNADDRESS_VALUE || value.getType() == null) {
                return false;
            }
        }
        return true;
    }

    /** The original method with every suspension site (given by instruction index) pinned. */
    private static Outcome pinnedEverywhere(ClassNode owner, MethodNode original, int[] siteIndices,
            String reason, ClassHierarchy hierarchy) {
        MethodNode method = copy(original);
        List<MethodInsnNode> sites = new ArrayList<>();
        for (int index : siteIndices) {
            sites.add((MethodInsnNode) method.instructions.get(index));
        }
        List<PinnedSite> pinned = new ArrayList<>();
        for (MethodInsnNode site : sites) {
            pinned.add(new PinnedSite(site, reason));
            PinWeaver.pin(method, site);
        }
        ExclusionWeaver.weave(method, SynchronizedRegions.needingHolderCheck(method, Set.of()));
        MethodNode withFrames;
        try {
            withFrames = FrameComputer.withFrames(owner, method, hierarchy);
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
        return new Outcome(withFrames, new MethodReport(original.name, original.desc, false,
                withFrames == null ? reason + UNPINNABLE : reason, List.of(), report(pinned)), true);
    }

    /** Said of a method left exactly as it was, whose blocking calls the runtime pins. */
    private static final String UNPINNABLE = "; left as it was (its pins would not fit or need the same classes),"
            + " so the runtime's frame check pins every blocking call below it";

    private static String reasonForNoCapture(String reasonNotCapturable, List<PinnedSite> pinned) {
        if (reasonNotCapturable != null) {
            return reasonNotCapturable;
        }
        return pinned.isEmpty() ? "its suspension call sites are unreachable" : pinned.get(0).reason();
    }

    private static List<PinnedCallSite> report(List<PinnedSite> pinned) {
        List<PinnedCallSite> sites = new ArrayList<>();
        for (PinnedSite site : pinned) {
            MethodInsnNode call = site.call();
            sites.add(new PinnedCallSite(CaptureWeaver.lineOf(call),
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
