package org.picothreads.transform.internal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.picothreads.transform.report.SharedMonitorRegion;
import org.picothreads.transform.report.SuspensionPoint;

/**
 * What the rewrite of one method emits, decided from its analysed code by {@link MethodPlanner} before any capture
 * code is woven: each suspension call site captured (with the values it saves, the monitors it holds and their lock
 * locals) or pinned (with its reason), the temporaries the captured sites spill their stacks to, the regions a restore
 * enters again, and the regions whose entries check for a suspended holder. The weavers only follow it.
 */
public final class MethodPlan {
    /** A call site that blocks in place instead of suspending, with the reason the report gives. */
    public record PinnedSite(MethodInsnNode call, String reason) {
    }

    /** A synchronized region held at a site: its MONITORENTER and the local holding its lock object. */
    public record HeldMonitor(AbstractInsnNode enter, int lock) {
    }

    /**
     * One value saved at a site: where it lives (a local, or the temporary a stack entry spills to), its kind and,
     * for references, its type; for a stack entry that a constant produced, that constant instruction (the entry is
     * pushed again, never saved); whether the restore gives it the zero or null of its kind instead of a saved value
     * (an argument of a runtime entry that ignores its arguments when invoked again; it is still spilled, as any
     * stack entry, on the continuation's path).
     */
    public record SavedSlot(int local, SavedKind kind, Type type, AbstractInsnNode constant,
            boolean restoredAsDefault) {
        /** A slot whose restore takes its saved value, or its constant, or a known null. */
        public SavedSlot(int local, SavedKind kind, Type type, AbstractInsnNode constant) {
            this(local, kind, type, constant, false);
        }

        /**
         * True when the value goes into the saved frame: not a known null, not a constant pushed again, not restored as
         * a default.
         */
        public boolean isSaved() {
            return kind != SavedKind.NULL && constant == null && !restoredAsDefault;
        }

        /** True when the restore stores the zero or null of the slot's kind: a known null, or a default. */
        public boolean restoresDefault() {
            return constant == null && (kind == SavedKind.NULL || restoredAsDefault);
        }
    }

    /**
     * What one captured call site saves: its values in the order the capture pushes them (held regions' locks, live
     * locals, the stack below the arguments, then the arguments), its stack entries with the temporaries they spill
     * to, the regions it holds (outermost first), the exception table entries covering its call, and what the report
     * says of it.
     *
     * @param point          the site's resume point, its index among the method's captured sites
     * @param siteCode       the site as the capture helper passes it to the runtime: method index, point and flags
     * @param continuedCount  the number of {@code slots} restored to continue after the call (all but the arguments)
     * @param belowCount      the number of {@code stackSlots} below the call's receiver and arguments
     * @param savesArguments  whether the site saves its call's receiver and arguments: false when the call enters a
     *                        method of the same class bound at compile time, or can reach only the program's own code
     *                        (a method declared by a class neither the JDK's nor PicoThreads', whose overrides are the
     *                        program's too), so that the activation is never the innermost one of a capture (which
     *                        alone invokes its call again) and its resume point {@code 2 * point} does not exist;
     *                        {@code slots} then ends with the values below them
     * @param entersOwnMethod whether the call is of a method of the same class bound at compile time, whose
     *                        continuation the method's continuation may enter fresh
     * @param keepsReceiver   whether the capture saves the receiver of an instance method: only when the continuation
     *                        reads local 0 after the site, or loads it again for a stack entry it restores; otherwise
     *                        the handler does not read it, so that it need not live across the call, and the resume
     *                        entry passes null to the continuation, which is static
     */
    public record CapturedSite(MethodInsnNode call, int point, int siteCode, List<SavedSlot> slots,
            int continuedCount, List<SavedSlot> stackSlots, int belowCount, boolean savesArguments,
            boolean entersOwnMethod, boolean keepsReceiver, List<HeldMonitor> held, List<TryCatchBlockNode> covering,
            SuspensionPoint report) {
        /** The saved values restored to continue after the call: all but the call's receiver and arguments. */
        public List<SavedSlot> continuedSlots() {
            return slots.subList(0, continuedCount);
        }

        /** The saved receiver and arguments of the call, which only the innermost activation saves. */
        public List<SavedSlot> argumentSlots() {
            return slots.subList(continuedCount, slots.size());
        }

        /** The stack entries below the call's receiver and arguments, pushed again before its result. */
        public List<SavedSlot> belowSlots() {
            return stackSlots.subList(0, belowCount);
        }
    }

    /**
     * A synchronized region that the restore code of a site inside it enters again, through the region's own
     * {@code ALOAD lock; MONITORENTER}.
     *
     * @param locks       the lock locals of this region and of the enclosing ones, outermost first
     * @param entryLocals the locals the region's entry reads later, each with the kind of value the normal path has
     *                    there (the restoring path gives them a zero or null of that kind)
     */
    public record Reentry(AbstractInsnNode enter, int[] locks, List<SavedSlot> entryLocals) {
    }

    /** The class's internal name. */
    private final String owner;
    private final boolean ownerIsInterface;
    /** The method as the runtime names it: owner, name and descriptor. */
    private final String key;
    /** The method's index among its class's capturing methods, which the resume entry dispatches on. */
    private final int methodIndex;
    private final boolean isStatic;
    /** The captured sites, in resume point order. */
    private final List<CapturedSite> captured;
    private final List<PinnedSite> pinned;
    /** The first local past the method's own, where every captured site's spilled stack starts. */
    private final int firstTemporary;
    /** The largest number of local slots a captured site's spilled stack takes. */
    private final int temporarySize;
    /** The regions a restore enters again, outermost of each site first, in the order the sites need them. */
    private final List<Reentry> reentries;
    /** The regions that check for a suspended holder after their entry: the lock local of each, by MONITORENTER. */
    private final Map<AbstractInsnNode, Integer> checkedRegions;
    private final List<SharedMonitorRegion> sharedMonitorRegions;
    /** Why the method can never be captured (every site is then pinned), or null. */
    private final String reasonNeverCapturable;

    MethodPlan(String owner, boolean ownerIsInterface, String key, int methodIndex, boolean isStatic,
            List<CapturedSite> captured, List<PinnedSite> pinned, int firstTemporary, int temporarySize,
            List<Reentry> reentries, Map<AbstractInsnNode, Integer> checkedRegions,
            List<SharedMonitorRegion> sharedMonitorRegions, String reasonNeverCapturable) {
        this.owner = owner;
        this.ownerIsInterface = ownerIsInterface;
        this.key = key;
        this.methodIndex = methodIndex;
        this.isStatic = isStatic;
        this.captured = List.copyOf(captured);
        this.pinned = List.copyOf(pinned);
        this.firstTemporary = firstTemporary;
        this.temporarySize = temporarySize;
        this.reentries = List.copyOf(reentries);
        this.checkedRegions = checkedRegions;
        this.sharedMonitorRegions = List.copyOf(sharedMonitorRegions);
        this.reasonNeverCapturable = reasonNeverCapturable;
    }

    public String owner() {
        return owner;
    }

    public boolean ownerIsInterface() {
        return ownerIsInterface;
    }

    public String key() {
        return key;
    }

    public int methodIndex() {
        return methodIndex;
    }

    public boolean isStatic() {
        return isStatic;
    }

    public List<CapturedSite> captured() {
        return captured;
    }

    public List<PinnedSite> pinned() {
        return pinned;
    }

    public int firstTemporary() {
        return firstTemporary;
    }

    public int temporarySize() {
        return temporarySize;
    }

    public List<Reentry> reentries() {
        return reentries;
    }

    public Map<AbstractInsnNode, Integer> checkedRegions() {
        return checkedRegions;
    }

    public List<SharedMonitorRegion> sharedMonitorRegions() {
        return sharedMonitorRegions;
    }

    /** True when at least one site is captured, so that the method gets capture and restore code. */
    public boolean captures() {
        return !captured.isEmpty();
    }

    /** The local of the continuation that keeps the frame it was restored from: past the temporaries. */
    public int frameLocal() {
        return firstTemporary + temporarySize;
    }

    /** The local of the continuation that keeps the resume point while it restores, when it reenters monitors. */
    public int resumePointLocal() {
        return frameLocal() + 1;
    }

    /** The calls of the captured sites, in resume point order. */
    public List<MethodInsnNode> capturedCalls() {
        List<MethodInsnNode> calls = new ArrayList<>();
        for (CapturedSite site : captured) {
            calls.add(site.call());
        }
        return calls;
    }

    /** The report of each suspension point, in resume point order. */
    public List<SuspensionPoint> points() {
        List<SuspensionPoint> points = new ArrayList<>();
        for (CapturedSite site : captured) {
            points.add(site.report());
        }
        return points;
    }

    /** Why the method captures nothing, for the report, or null when it captures. */
    public String reasonNoCapture() {
        if (captures()) {
            return null;
        }
        if (reasonNeverCapturable != null) {
            return reasonNeverCapturable;
        }
        return pinned.isEmpty() ? "its suspension call sites are unreachable" : pinned.get(0).reason();
    }
}
