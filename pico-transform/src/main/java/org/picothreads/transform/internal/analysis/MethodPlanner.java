package org.picothreads.transform.internal.analysis;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.picothreads.transform.internal.Instructions;
import org.picothreads.transform.internal.Redirects;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.analysis.MethodPlan.CapturedSite;
import org.picothreads.transform.internal.analysis.MethodPlan.HeldMonitor;
import org.picothreads.transform.internal.analysis.MethodPlan.PinnedSite;
import org.picothreads.transform.internal.analysis.MethodPlan.Reentry;
import org.picothreads.transform.internal.analysis.MethodPlan.SavedSlot;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.report.SavedValue;
import org.picothreads.transform.report.SharedMonitorRegion;
import org.picothreads.transform.report.SuspensionPoint;

/**
 * Decides, from a method's analysed code ({@link MethodFlow}), what its rewrite emits: whether it can be captured at
 * all, which synchronized regions get runtime monitors, and then the {@link MethodPlan}: each suspension call site
 * captured or pinned with its reason, and for each captured one the values it saves, the monitors it holds and the
 * temporaries its stack spills to. It changes no code.
 */
public final class MethodPlanner {
    private MethodPlanner() {
    }

    /** Why no site of the method can ever be captured, or null when its sites are planned one by one. */
    public static String reasonNeverCapturable(ClassNode owner, MethodNode method, int methodIndex) {
        if (method.name.equals("<init>")) {
            return "in a constructor, which cannot be re-entered";
        }
        if (method.name.equals("<clinit>")) {
            return "in a class initializer, which cannot be re-entered";
        }
        if ((method.access & Opcodes.ACC_SYNCHRONIZED) != 0 && !SynchronizedRegions.canLowerMethod(owner, method)) {
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
            if (instruction instanceof VarInsnNode variable && variable.var == 0
                    && variable.getOpcode() >= Opcodes.ISTORE && variable.getOpcode() <= Opcodes.ASTORE
                    || instruction instanceof IincInsnNode increment && increment.var == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The plan of a method whose every site is pinned for one reason, with the suspended-holder check on every region
     * of javac's shape: a method that can never be captured, or one started again from its original.
     *
     * @param reasonNeverCapturable the method's reason never to capture, or null when the sites only share a reason
     */
    public static MethodPlan everySitePinned(ClassNode owner, int methodIndex, MethodNode method,
            List<MethodInsnNode> sites, String reason, String reasonNeverCapturable) {
        List<PinnedSite> pinned = new ArrayList<>();
        for (MethodInsnNode site : sites) {
            pinned.add(new PinnedSite(site, reason));
        }
        return new MethodPlan(owner.name, isInterface(owner), key(owner, method), methodIndex, isStatic(method),
                List.of(), pinned, method.maxLocals, 0, List.of(),
                SynchronizedRegions.needingHolderCheck(method, java.util.Set.of()), List.of(), reasonNeverCapturable);
    }

    /**
     * The local holding the lock object of each region that must get a runtime monitor because it encloses a site
     * whose stack can be saved, by MONITORENTER instruction, in the order the sites meet them; empty when a region
     * enclosing such a site does not have javac's shape (its sites are then pinned).
     */
    public static Map<AbstractInsnNode, Integer> regionsToConvert(MethodFlow flow, List<MethodInsnNode> sites) {
        Map<AbstractInsnNode, Integer> regions = new LinkedHashMap<>();
        for (MethodInsnNode site : sites) {
            Frame<BasicValue> frame = flow.frameBefore(site);
            if (frame == null || !stackCanBeSaved(frame) || !flow.monitorsBalanced()) {
                continue;
            }
            for (AbstractInsnNode enter : flow.heldMonitorsBefore(site)) {
                if (!regions.containsKey(enter)) {
                    Integer lock = SynchronizedRegions.lockLocal(enter);
                    if (lock == null) {
                        return Map.of();
                    }
                    regions.put(enter, lock);
                }
            }
        }
        return regions;
    }

    /** The object JDK code also locks that each region may lock, in words, in the regions' order. */
    public static Map<AbstractInsnNode, String> jdkLockedMonitors(ClassNode owner, MethodFlow flow,
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

    /**
     * Plans every site of a method that can be captured, from its flow after its regions got their runtime monitors:
     * a site is captured when its monitors are block-structured and converted, its stack holds nothing that cannot be
     * saved, it saves no more values than a frame counts and each monitor it holds can be entered again; otherwise it
     * is pinned with the first of those reasons. An instance method never assigns its local 0 (see
     * {@link #reasonNeverCapturable}), so a stack entry loaded from it, the receiver, is loaded again instead of saved.
     *
     * @param sites             the suspension call sites, the runtime monitors' entry calls last
     * @param convertedRegions  the regions given runtime monitors, with their lock locals
     * @param checkedRegions    the regions that check for a suspended holder after their entry
     * @param jdkLockedMonitors the converted regions that may lock an object JDK code also locks
     */
    public static MethodPlan plan(ClassNode owner, int methodIndex, MethodNode method, MethodFlow flow,
            List<MethodInsnNode> sites, Map<AbstractInsnNode, Integer> convertedRegions,
            Map<AbstractInsnNode, Integer> checkedRegions, Map<AbstractInsnNode, String> jdkLockedMonitors) {
        return plan(owner, methodIndex, method, flow, sites, convertedRegions, checkedRegions, jdkLockedMonitors,
                Set.of());
    }

    /**
     * As {@link #plan(ClassNode, int, MethodNode, MethodFlow, List, Map, Map, Map)}, knowing which of the sites call
     * only the program's own code ({@link #callsOnlyProgramCode}): an activation stopped at one is never the innermost
     * of a capture, so it saves none of its call's arguments.
     */
    public static MethodPlan plan(ClassNode owner, int methodIndex, MethodNode method, MethodFlow flow,
            List<MethodInsnNode> sites, Map<AbstractInsnNode, Integer> convertedRegions,
            Map<AbstractInsnNode, Integer> checkedRegions, Map<AbstractInsnNode, String> jdkLockedMonitors,
            Set<MethodInsnNode> programCalls) {
        List<MethodInsnNode> captured = new ArrayList<>();
        List<PinnedSite> pinned = new ArrayList<>();
        Map<MethodInsnNode, List<HeldMonitor>> heldMonitors = new HashMap<>();
        for (MethodInsnNode site : sites) {
            Frame<BasicValue> frame = flow.frameBefore(site);
            if (frame == null) {
                continue; // unreachable code: leave it alone
            }
            List<HeldMonitor> held = new ArrayList<>();
            String reason = reasonPinned(flow, site, frame, convertedRegions, held);
            if (reason != null) {
                pinned.add(new PinnedSite(site, reason));
            } else {
                heldMonitors.put(site, held);
                captured.add(site);
            }
        }
        boolean isStatic = isStatic(method);
        int firstTemporary = method.maxLocals;
        int temporarySize = 0;
        List<CapturedSite> capturedSites = new ArrayList<>();
        for (int point = 0; point < captured.size(); point++) {
            CapturedSite site = capturedSite(owner, methodIndex, method, flow, captured.get(point), programCalls, point,
                    firstTemporary, heldMonitors.get(captured.get(point)));
            int spilled = 0;
            for (SavedSlot slot : site.stackSlots()) {
                spilled += slot.constant() == null ? slot.kind().size : 0;
            }
            temporarySize = Math.max(temporarySize, spilled);
            capturedSites.add(site);
        }
        Map<AbstractInsnNode, Reentry> reentries = new LinkedHashMap<>();
        for (CapturedSite site : capturedSites) {
            List<HeldMonitor> held = site.held();
            for (int depth = 0; depth < held.size(); depth++) {
                if (!reentries.containsKey(held.get(depth).enter())) {
                    reentries.put(held.get(depth).enter(), reentry(flow, held.subList(0, depth + 1), isStatic));
                }
            }
        }
        return new MethodPlan(owner.name, isInterface(owner), key(owner, method), methodIndex, isStatic,
                capturedSites, pinned, firstTemporary, temporarySize, new ArrayList<>(reentries.values()),
                checkedRegions, sharedMonitorRegions(jdkLockedMonitors, heldMonitors), null);
    }

    /**
     * Why the site must be pinned, or null when it can be captured, in which case {@code held} receives the regions
     * it holds, outermost first.
     */
    private static String reasonPinned(MethodFlow flow, MethodInsnNode site, Frame<BasicValue> frame,
            Map<AbstractInsnNode, Integer> convertedRegions, List<HeldMonitor> held) {
        List<AbstractInsnNode> enters = flow.heldMonitorsBefore(site);
        if (!flow.monitorsBalanced()) {
            return "in a method whose monitors are not block-structured";
        }
        if (!convertedRegions.keySet().containsAll(enters)) {
            return "inside a synchronized block whose lock object is not kept in a local";
        }
        if (!stackCanBeSaved(frame)) {
            return "an object under construction is on the operand stack";
        }
        if (frame.getLocals() + frame.getStackSize() > RuntimeNames.LARGEST_SAVED_COUNT) {
            return "more than " + RuntimeNames.LARGEST_SAVED_COUNT
                    + " locals and stack entries, more than a saved activation counts";
        }
        String reason = null;
        for (AbstractInsnNode enter : enters) {
            HeldMonitor monitor = new HeldMonitor(enter, convertedRegions.get(enter));
            reason = reason != null ? reason : whyNotReenterable(flow, monitor);
            held.add(monitor);
        }
        return reason;
    }

    /**
     * Why the restore code cannot enter the region's monitor again through its own MONITORENTER, or null when it
     * can: it needs the runtime monitor's {@code ALOAD lock; MONITORENTER} with nothing else on the stack, and a
     * value of the right kind for every local the region's entry reads later.
     */
    private static String whyNotReenterable(MethodFlow flow, HeldMonitor monitor) {
        AbstractInsnNode load = Instructions.previousInstruction(monitor.enter());
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

    private static boolean stackCanBeSaved(Frame<BasicValue> frame) {
        for (int index = 0; index < frame.getStackSize(); index++) {
            BasicValue value = frame.getStack(index);
            if (value instanceof UninitializedValue || value == BasicValue.RETURNADDRESS_VALUE
                    || value.getType() == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the call certainly enters a method that the class being rewritten declares: the owner is that class and
     * the method is bound at compile time (static, private, final, or of a final class; a constructor is never
     * captured). A capture can pass through a frame of a rewritten class only as one of its captured activations (the
     * frame check lets no other frame of such a class through; runtime.md), so the callee's activation is captured
     * first, the caller is never the innermost activation, and the caller never needs its call's arguments.
     */
    static boolean entersOwnMethod(ClassNode owner, MethodInsnNode call) {
        if (!call.owner.equals(owner.name) || call.name.equals("<init>")) {
            return false;
        }
        for (MethodNode callee : owner.methods) {
            if (callee.name.equals(call.name) && callee.desc.equals(call.desc)) {
                boolean isStatic = (callee.access & Opcodes.ACC_STATIC) != 0;
                return switch (call.getOpcode()) {
                    case Opcodes.INVOKESTATIC -> isStatic;
                    case Opcodes.INVOKESPECIAL -> !isStatic;
                    default -> !isStatic && ((callee.access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) != 0
                            || (owner.access & Opcodes.ACC_FINAL) != 0);
                };
            }
        }
        return false; // inherited, so bound to another class's method
    }

    /**
     * What a captured site saves: the held regions' locks first (the restore code takes them out one region at a
     * time), then the live locals but the receiver (the resume entry passes it again), then the stack entries, each
     * spilled to a temporary from {@code firstTemporary} on unless a constant or the receiver can push it again.
     */
    private static CapturedSite capturedSite(ClassNode owner, int methodIndex, MethodNode method, MethodFlow flow,
            MethodInsnNode site, Set<MethodInsnNode> programCalls, int point, int firstTemporary,
            List<HeldMonitor> held) {
        boolean isStatic = isStatic(method);
        Frame<BasicValue> frame = flow.frameBefore(site);
        BitSet live = flow.liveLocalsBefore(site);
        List<SavedSlot> slots = new ArrayList<>();
        List<SavedValue> reported = new ArrayList<>();
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
                continue;
            }
            slots.add(new SavedSlot(local, kind, value.getType(), null));
            reported.add(new SavedValue("local", local, localName(method, local, site), describe(value)));
        }
        int argumentCount = Type.getArgumentTypes(site.desc).length
                + (site.getOpcode() == Opcodes.INVOKESTATIC ? 0 : 1);
        int belowCount = frame.getStackSize() - argumentCount;
        boolean entersOwnMethod = entersOwnMethod(owner, site);
        // A call of the class's own method bound at compile time, or of the program's code, always has an activation
        // of its own above this one when a capture passes: this one never invokes the call again.
        boolean savesArguments = !entersOwnMethod && !programCalls.contains(site);
        // A runtime entry that ignores its arguments when invoked again gets zeros then: none of them is saved.
        boolean argumentsIgnored = RuntimeNames.isReinvokedWithoutArguments(site.owner, site.name, site.desc);
        int temporary = firstTemporary;
        List<SavedSlot> stackSlots = new ArrayList<>();
        for (int index = 0; index < frame.getStackSize(); index++) {
            BasicValue value = frame.getStack(index);
            SavedKind kind = SavedKind.of(value);
            AbstractInsnNode constant = flow.constantProducer(site, index);
            if (constant == null && !isStatic && flow.loadsReceiver(site, index)) {
                constant = new VarInsnNode(Opcodes.ALOAD, 0); // local 0 keeps the receiver: load it again
            }
            boolean restoredAsDefault = argumentsIgnored && index >= belowCount && constant == null;
            stackSlots.add(new SavedSlot(temporary, kind, value.getType(), constant, restoredAsDefault));
            if (constant == null) {
                if (index < belowCount || savesArguments && !restoredAsDefault) {
                    reported.add(new SavedValue("stack", index, null, describe(value)));
                }
                temporary += kind.size;
            }
        }
        slots.addAll(stackSlots.subList(0, belowCount));
        int continuedCount = slots.size();
        if (savesArguments) {
            slots.addAll(stackSlots.subList(belowCount, stackSlots.size()));
        }
        int siteCode = methodIndex << 16 | point | (held.isEmpty() ? 0 : RuntimeNames.SITE_HOLDS_MONITORS);
        boolean keepsReceiver = !isStatic && (live.get(0) || reloadsReceiver(slots));
        return new CapturedSite(site, point, siteCode, slots, continuedCount, stackSlots, belowCount, savesArguments,
                entersOwnMethod, keepsReceiver, held, coveringEntries(method, site),
                new SuspensionPoint(point, Instructions.lineOf(site),
                        Redirects.table().describeCall(site.owner, site.name, site.desc), reported));
    }

    /** The sites among {@code sites} that call only the program's own code ({@link #callsOnlyProgramCode}). */
    public static Set<MethodInsnNode> programCalls(ClassHierarchy hierarchy, List<MethodInsnNode> sites) {
        Set<MethodInsnNode> calls = new HashSet<>();
        for (MethodInsnNode site : sites) {
            if (callsOnlyProgramCode(hierarchy, site)) {
                calls.add(site);
            }
        }
        return calls;
    }

    /**
     * True when {@code call} can reach only the program's own code: a static, special or virtual call of a method of a
     * class (not an interface) that the class or a superclass declares, the declaring class being neither the JDK's
     * nor PicoThreads'. Every method it may run is then that declaration or an override in a subclass of its class,
     * the program's code too: rewritten, it captures its own activation above the caller's; not rewritten, the frame
     * check pins below it. So the caller's activation is never the innermost of a capture, the one that invokes its
     * call again. A declaration not found in the superclass chain (a default method, a class missing) does not count.
     */
    public static boolean callsOnlyProgramCode(ClassHierarchy hierarchy, MethodInsnNode call) {
        int opcode = call.getOpcode();
        if (call.itf || opcode == Opcodes.INVOKEINTERFACE || call.name.startsWith("<")) {
            return false;
        }
        String method = call.name + call.desc;
        for (ClassHierarchy.ClassInfo declaring : hierarchy.superclassChain(call.owner)) {
            if (declaring.methods().containsKey(method)) {
                String name = declaring.name();
                return !RuntimeNames.isRuntimeClass(name) && !name.startsWith(RuntimeNames.NET_PACKAGE)
                        && !hierarchy.isJdkClass(name);
            }
        }
        return false;
    }

    /** True when a restored entry is pushed by loading local 0 again, which then must hold the receiver. */
    private static boolean reloadsReceiver(List<SavedSlot> slots) {
        for (SavedSlot slot : slots) {
            if (slot.constant() instanceof VarInsnNode load && load.var == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The reentry of the innermost of {@code chain}, a site's held regions from the outermost, in a static method or
     * not.
     */
    private static Reentry reentry(MethodFlow flow, List<HeldMonitor> chain, boolean isStatic) {
        int[] locks = new int[chain.size()];
        BitSet lockLocals = new BitSet();
        for (int depth = 0; depth < chain.size(); depth++) {
            locks[depth] = chain.get(depth).lock();
            lockLocals.set(chain.get(depth).lock());
        }
        AbstractInsnNode enter = chain.get(chain.size() - 1).enter();
        AbstractInsnNode load = Instructions.previousInstruction(enter);
        Frame<BasicValue> entry = flow.frameBefore(load);
        BitSet live = flow.liveLocalsBefore(load);
        List<SavedSlot> entryLocals = new ArrayList<>();
        for (int local = live.nextSetBit(0); local >= 0; local = live.nextSetBit(local + 1)) {
            // The receiver is never reset: the resume entry passed it, and it is not saved.
            if (!lockLocals.get(local) && local < entry.getLocals() && (isStatic || local != 0)) {
                BasicValue value = entry.getLocal(local);
                entryLocals.add(new SavedSlot(local, SavedKind.of(value), value.getType(), null));
            }
        }
        return new Reentry(enter, locks, entryLocals);
    }

    /** The regions on an object JDK code also locks that are held at a site where the thread is captured. */
    private static List<SharedMonitorRegion> sharedMonitorRegions(Map<AbstractInsnNode, String> jdkLockedMonitors,
            Map<MethodInsnNode, List<HeldMonitor>> heldMonitors) {
        List<AbstractInsnNode> suspending = new ArrayList<>();
        for (List<HeldMonitor> held : heldMonitors.values()) {
            for (HeldMonitor monitor : held) {
                if (jdkLockedMonitors.containsKey(monitor.enter()) && !suspending.contains(monitor.enter())) {
                    suspending.add(monitor.enter());
                }
            }
        }
        List<SharedMonitorRegion> regions = new ArrayList<>();
        for (AbstractInsnNode enter : jdkLockedMonitors.keySet()) {
            if (suspending.contains(enter)) {
                regions.add(new SharedMonitorRegion(Instructions.lineOf(enter), jdkLockedMonitors.get(enter)));
            }
        }
        regions.sort(Comparator.comparingInt(SharedMonitorRegion::line));
        return regions;
    }

    /** The entries of the method's exception table that cover the call, in their order. */
    private static List<TryCatchBlockNode> coveringEntries(MethodNode method, AbstractInsnNode site) {
        int position = method.instructions.indexOf(site);
        List<TryCatchBlockNode> covering = new ArrayList<>();
        for (TryCatchBlockNode entry : method.tryCatchBlocks) {
            if (method.instructions.indexOf(entry.start) < position
                    && position < method.instructions.indexOf(entry.end)) {
                covering.add(entry);
            }
        }
        return covering;
    }

    private static String describe(BasicValue value) {
        Type type = value.getType();
        if (type == null) {
            return "?";
        }
        return type.getSort() == Type.OBJECT && type.getInternalName().equals("null") ? "null" : type.getDescriptor();
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

    private static boolean isStatic(MethodNode method) {
        return (method.access & Opcodes.ACC_STATIC) != 0;
    }

    private static boolean isInterface(ClassNode owner) {
        return (owner.access & Opcodes.ACC_INTERFACE) != 0;
    }

    private static String key(ClassNode owner, MethodNode method) {
        return owner.name + "." + method.name + method.desc;
    }
}
