package org.picothreads.transform.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.JSRInlinerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.internal.analysis.ForeignCallbackAnalysis;
import org.picothreads.transform.internal.analysis.SuspendabilityAnalysis;
import org.picothreads.transform.internal.emit.CaptureWeaver;
import org.picothreads.transform.internal.emit.FrameComputer;
import org.picothreads.transform.internal.emit.ReferenceRedirector;
import org.picothreads.transform.internal.emit.ResumeEntryWeaver;
import org.picothreads.transform.internal.emit.ThreadEntryLinks;
import org.picothreads.transform.internal.Redirects;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.report.PinnedCallSite;
import org.picothreads.transform.report.SuspensionPoint;

/**
 * Reads one class for the transformation (redirecting its references to the JDK members in Redirects and inlining jsr/ret
 * subroutines as it goes) and, once the whole-program analysis is done, writes it back. The class file
 * is rebuilt from the original with ASM's ClassReader/ClassWriter pair, so a method that needs no change
 * is copied byte for byte and the original constant pool keeps its order; only rewritten methods are re-encoded.
 *
 * <p>The frames of the rewritten methods are computed in that final write ({@link FrameComputer#writeWithFrames}).
 * When a rewritten method might not fit in 32 KB or a type its frames need is missing, the class is written again
 * from its input with each method's frames computed alone first ({@link FrameComputer#withFrames}), so that a method
 * too large after rewriting, or whose frames cannot be computed, starts again pinned on its own.
 */
public final class ClassRewriter {
    /** One class read for transformation. */
    public static final class ParsedClass {
        final ClassInput input;
        final ClassNode node;
        /** Number of redirected Thread references per method, by {@code name+descriptor}. */
        final Map<String, Integer> redirectsByMethod;
        /** Whether the class extended a replaced JDK type (such as Thread) and now extends its runtime subclass. */
        final boolean superclassRedirected;

        ParsedClass(ClassInput input, ClassNode node, Map<String, Integer> redirectsByMethod,
                boolean superclassRedirected) {
            this.input = input;
            this.node = node;
            this.redirectsByMethod = redirectsByMethod;
            this.superclassRedirected = superclassRedirected;
        }

        public ClassNode node() {
            return node;
        }
    }

    /** A thread's run method, by name and descriptor. */
    private static final String RUN = "run()V";
    /** A {@code Callable}'s {@code call}, as its interface declares it (a covariant one's bridge). */
    private static final String CALL = "call()Ljava/lang/Object;";
    /** The most methods (and fields) a class file holds: their count is an unsigned 16-bit number. */
    private static final int MOST_MEMBERS = 0xFFFF;
    /** Why a class whose rewrite would not fit in a class file is left as it was, given the size it would have. */
    private static final String TOO_LARGE = "the class would have %s after rewriting, more than a class file holds, so"
            + " it is left as it was (not rewritten): a blocking call under its methods blocks its carrier (pinned)";

    /** A written class with its report. */
    public record Written(ClassOutput output, ClassReport report) {
    }

    private ClassRewriter() {
    }

    /** The header of a class as it will be after the rewrite, for the hierarchy. */
    public static ClassHierarchy.ClassInfo rewrittenHeader(ClassHierarchy.ClassInfo header, ClassHierarchy hierarchy) {
        return hierarchy.rewritten(header);
    }

    /** Reads the class with its Thread references redirected and its subroutines inlined. */
    public static ParsedClass parseForRewrite(ClassInput input, ClassHierarchy hierarchy) {
        Map<String, int[]> counters = new HashMap<>();
        ClassNode node = new ClassNode(RuntimeNames.ASM_API) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                MethodVisitor target = super.visitMethod(access, name, descriptor, signature, exceptions);
                int[] counter = new int[1];
                counters.put(name + descriptor, counter);
                if (mayHaveSubroutines(version)) {
                    // the inliner holds the whole method in a tree of its own before handing it on
                    target = new JSRInlinerAdapter(target, access, name, descriptor, signature, exceptions);
                }
                return new ReferenceRedirector(target, hierarchy, this.name, counter);
            }
        };
        new ClassReader(input.bytes()).accept(node, ClassReader.SKIP_FRAMES);
        boolean superclassRedirected = false;
        String replacement = hierarchy.redirects().replacementType(String.valueOf(node.superName));
        if (replacement != null && (node.access & Opcodes.ACC_INTERFACE) == 0 && !replacement.equals(node.name)) {
            node.superName = replacement;
            superclassRedirected = true;
        }
        Map<String, Integer> redirects = new HashMap<>();
        counters.forEach((method, counter) -> redirects.put(method, counter[0]));
        return new ParsedClass(input, node, redirects, superclassRedirected);
    }

    /**
     * Whether a class file of this version may hold jsr and ret instructions: the JVM refuses them from version 51
     * (Java 7) on.
     */
    private static boolean mayHaveSubroutines(int classVersion) {
        return (classVersion & 0xFFFF) < Opcodes.V1_7;
    }

    /** Reads a class that is analysed but not rewritten (already rewritten by an earlier run). */
    public static ClassNode parsePlain(ClassInput input) {
        ClassNode node = new ClassNode(RuntimeNames.ASM_API);
        new ClassReader(input.bytes()).accept(node, ClassReader.SKIP_FRAMES);
        return node;
    }

    /**
     * Rewrites the class's blocking methods and writes the class file, in the steps below, each a step of a
     * {@code ClassWrite}.
     */
    public static Written write(ParsedClass parsed, SuspendabilityAnalysis analysis,
            ForeignCallbackAnalysis callbacks, ClassHierarchy hierarchy) {
        try {
            Written inOneWrite = write(parsed, analysis, callbacks, hierarchy, true);
            if (inOneWrite != null) {
                return inOneWrite;
            }
            // The rewrite above changed the class's methods in place: start again from the input.
            return write(parseForRewrite(parsed.input, hierarchy), analysis, callbacks, hierarchy, false);
        } finally {
            releaseCopies(parsed.node);
        }
    }

    /**
     * Unlinks the class's methods from the copies the rewrite made of them: copying a method (ASM's
     * {@code MethodNode.accept}) leaves each of its labels pointing at the copy's, and through them at the whole
     * copy with the frames and edges its class writer computed, which the analysis, keeping this tree until the
     * last class is written, would otherwise keep alive with it.
     */
    private static void releaseCopies(ClassNode node) {
        for (MethodNode method : node.methods) {
            method.instructions.resetLabels();
        }
    }

    /**
     * The steps of {@link #write(ParsedClass, SuspendabilityAnalysis, ForeignCallbackAnalysis, ClassHierarchy)}; with
     * {@code framesInClassWrite}, the frames are computed in the final write, and the answer is null when a rewritten
     * method might not fit in {@link FrameComputer#SAFE_CODE_SIZE} or the final write fails.
     */
    private static Written write(ParsedClass parsed, SuspendabilityAnalysis analysis,
            ForeignCallbackAnalysis callbacks, ClassHierarchy hierarchy, boolean framesInClassWrite) {
        ClassWrite write = new ClassWrite(parsed, hierarchy, framesInClassWrite);
        // rewrite each method that can reach a blocking call (MethodRewriter's passes); check holders in the others
        write.rewriteMethods(analysis, callbacks);
        // the capturing methods a new thread's (or a pool task's) first activation may run in, entered fresh: an
        // instance run(), the body of a Runnable or Callable lambda of the class, whose creation then links through
        // the runtime (ThreadEntryLinks)
        write.chooseThreadEntries();
        // a continuation enters its class's capturing methods' continuations fresh: back to the method where one has
        // none, and a continuation that none enters fresh drops its fresh entry (CaptureWeaver)
        write.unlinkFreshEntries();
        // count the references to replaced JDK types that were redirected as the class was read
        write.countRedirects();
        // list the capturing methods in the marker with their resume lines, then their continuations with the same
        write.listCapturingMethods();
        // make the resume entry that re-enters the capturing methods through their continuations (ResumeEntryWeaver)
        write.makeResumeEntry();
        // assemble the class file from the original, with its marker, then add the site keys to it (SiteKeys)
        return write.assemble();
    }

    /** The state of one class's write, as its steps build it up. */
    private static final class ClassWrite {
        private final ParsedClass parsed;
        private final ClassNode node;
        private final ClassHierarchy hierarchy;
        /** True when the frames are computed in the final write ({@link ClassRewriter#assemble}). */
        private final boolean framesInClassWrite;
        /** The methods written in place of the original's, by name and descriptor, continuations included. */
        private final Map<String, MethodNode> replacements = new HashMap<>();
        private final List<MethodReport> reports = new ArrayList<>();
        /** The methods that reach a blocking call but got no capture code, for the marker, by name and descriptor. */
        private final List<String> notCapturable = new ArrayList<>();
        /** The methods that capture, by the index the class's resume entry dispatches on. */
        private final SortedMap<Integer, MethodNode> capturing = new TreeMap<>();
        /** Each capturing method's continuation, which the resume entry calls, by the method's name and descriptor. */
        private final Map<String, MethodNode> continuations = new HashMap<>();
        /** The methods the class gains after its own: continuations and capture helpers. */
        private final List<MethodNode> added = new ArrayList<>();
        /** The methods the marker lists as capturing, by name and descriptor, then their continuations. */
        private final List<String> capturingMethods = new ArrayList<>();
        /** The suspension points' lines of each method of {@link #capturingMethods}, comma-separated. */
        private final List<String> resumeLines = new ArrayList<>();
        private int redirects;
        private MethodNode resumeEntry;
        /** The bodies of the class's Runnable and Callable lambdas that are thread entries, by name and descriptor. */
        private final Set<String> lambdaEntries = new TreeSet<>();
        /**
         * The methods the marker lists as thread entries: the lambda bodies, an instance run(), and a Callable's
         * call().
         */
        private final Set<String> threadEntries = new TreeSet<>();
        /** The methods copied from the input that create a lambda of {@link #lambdaEntries}, by name and descriptor. */
        private final Set<String> linkingMethods = new HashSet<>();

        ClassWrite(ParsedClass parsed, ClassHierarchy hierarchy, boolean framesInClassWrite) {
            this.parsed = parsed;
            this.node = parsed.node;
            this.hierarchy = hierarchy;
            this.framesInClassWrite = framesInClassWrite;
        }

        void rewriteMethods(SuspendabilityAnalysis analysis, ForeignCallbackAnalysis callbacks) {
            int methodIndex = 0;
            for (MethodNode method : node.methods) {
                List<PinnedCallSite> pinnedCallbacks = callbacks.pinnedCallbacks(node, method);
                MethodReport report = null;
                if (analysis.reachesBlockingCall(method)) {
                    report = rewriteMethod(method, analysis, methodIndex++);
                } else {
                    MethodNode checked = MethodRewriter.withHolderChecks(node, method, hierarchy, framesInClassWrite);
                    if (checked != null) {
                        replacements.put(method.name + method.desc, checked);
                    }
                }
                if (!pinnedCallbacks.isEmpty()) {
                    report = withCallbacks(method, report, pinnedCallbacks);
                }
                if (report != null) {
                    reports.add(report);
                }
            }
        }

        /** Rewrites a method that can reach a blocking call as the {@code index}th of the class; its report. */
        private MethodReport rewriteMethod(MethodNode method, SuspendabilityAnalysis analysis, int index) {
            MethodRewriter.Outcome outcome = MethodRewriter.rewrite(node, method, analysis, hierarchy, index,
                    framesInClassWrite);
            if (outcome.method() != null) {
                replacements.put(method.name + method.desc, outcome.method());
            }
            if (outcome.notCapturable()) {
                notCapturable.add(method.name + method.desc);
            }
            MethodReport report = outcome.report();
            if (report != null && report.rewritten()) {
                capturing.put(index, outcome.continuation());
                continuations.put(method.name + method.desc, outcome.continuation());
                added.add(outcome.continuation());
                added.addAll(outcome.captureHelpers());
            }
            return report;
        }

        void chooseThreadEntries() {
            if (!framesInClassWrite) {
                return; // woven without fresh entries (CaptureWeaver.weaveContinuation)
            }
            if (continuations.isEmpty()) {
                return; // every thread entry is a method with a continuation
            }
            Map<String, MethodNode> declared = new HashMap<>();
            for (MethodNode method : node.methods) {
                declared.put(method.name + method.desc, method);
            }
            if (isCapturingInstanceMethod(declared.get(RUN))) {
                threadEntries.add(RUN);
            }
            // a runtime pool's future enters a Callable's call() as it enters a Callable lambda's body
            if (isCapturingInstanceMethod(declared.get(CALL))
                    && hierarchy.isSubtypeOf(node.name, RuntimeNames.CALLABLE)) {
                threadEntries.add(CALL);
            }
            Function<String, MethodNode> declaredMethod = declared::get;
            for (MethodNode method : node.methods) {
                for (AbstractInsnNode instruction : method.instructions) {
                    String body = ThreadEntryLinks.lambdaBody(instruction, node.name, declaredMethod);
                    if (body != null && continuations.containsKey(body)) {
                        lambdaEntries.add(body);
                        threadEntries.add(body);
                        linkingMethods.add(method.name + method.desc);
                    }
                }
            }
        }

        /** True when {@code method} is an instance method of the class that got a continuation. */
        private boolean isCapturingInstanceMethod(MethodNode method) {
            return method != null && (method.access & Opcodes.ACC_STATIC) == 0
                    && continuations.containsKey(method.name + method.desc);
        }

        void unlinkFreshEntries() {
            if (!framesInClassWrite) {
                return; // woven without fresh entries (CaptureWeaver.weaveContinuation)
            }
            // the runtime enters a thread entry's continuation fresh
            Set<String> entered = new HashSet<>(threadEntries);
            for (MethodNode continuation : continuations.values()) {
                CaptureWeaver.unlinkFreshEntries(continuation, node.name, continuations::containsKey);
                entered.addAll(CaptureWeaver.freshlyEntered(continuation, node.name));
            }
            for (Map.Entry<String, MethodNode> continuation : continuations.entrySet()) {
                if (!entered.contains(continuation.getKey())) {
                    CaptureWeaver.dropFreshEntry(continuation.getValue());
                }
            }
        }

        void countRedirects() {
            redirects = parsed.superclassRedirected ? 1 : 0;
            for (int count : parsed.redirectsByMethod.values()) {
                redirects += count;
            }
        }

        /**
         * The marker lists the continuations after the methods, with the same lines, so that the frame check knows
         * their frames (a resumed activation runs in one) and the methods keep their indices.
         */
        void listCapturingMethods() {
            for (MethodReport report : reports) {
                if (report.rewritten()) {
                    capturingMethods.add(report.name() + report.descriptor());
                    StringBuilder lines = new StringBuilder();
                    for (SuspensionPoint point : report.suspensionPoints()) {
                        lines.append(lines.length() == 0 ? "" : ",").append(point.line());
                    }
                    resumeLines.add(lines.toString());
                }
            }
            int methodCount = capturingMethods.size();
            for (int index = 0; index < methodCount; index++) {
                MethodNode continuation = continuations.get(capturingMethods.get(index));
                capturingMethods.add(continuation.name + continuation.desc);
                resumeLines.add(resumeLines.get(index));
                replacements.put(continuation.name + continuation.desc, continuation);
            }
        }

        void makeResumeEntry() {
            resumeEntry = resumeEntry(node, capturing, hierarchy, framesInClassWrite);
        }

        private ThreadEntryPlan threadEntryPlan() {
            return new ThreadEntryPlan(List.copyOf(threadEntries), lambdaEntries, linkingMethods);
        }

        /**
         * The class file, or the input's very bytes when nothing changed or when the rewritten class would not fit in
         * a class file (then reported left as it was, see {@link #leftAsItWas}), with its report.
         */
        Written assemble() {
            boolean changed = !replacements.isEmpty() || redirects > 0;
            if (!changed) {
                return written(parsed.input.bytes(), false, reports, redirects, null);
            }
            int methodCount = node.methods.size() + added.size() + (resumeEntry == null ? 0 : 1);
            if (methodCount > MOST_MEMBERS) {
                return leftAsItWas(methodCount + " methods");
            }
            try {
                Assembled assembled;
                if (!framesInClassWrite) {
                    assembled = ClassRewriter.assemble(parsed, replacements, added, capturingMethods, resumeLines,
                            notCapturable, resumeEntry, threadEntryPlan(), hierarchy, false);
                } else if (!fitInOneWrite(replacements.values(), added, resumeEntry)) {
                    return null;
                } else {
                    try {
                        assembled = ClassRewriter.assemble(parsed, replacements, added, capturingMethods, resumeLines,
                                notCapturable, resumeEntry, threadEntryPlan(), hierarchy, true);
                    } catch (RuntimeException missingTypeOrTooLarge) {
                        // written again the per-method way, which pins what cannot be written, or leaves it as it was
                        return null;
                    }
                }
                return written(SiteKeys.addTo(assembled.classFile(), capturingMethods, assembled.sites()), true,
                        reports, redirects, null);
            } catch (ClassTooLargeException tooLarge) {
                return leftAsItWas(tooLarge.getConstantPoolCount() + " constant pool entries");
            }
        }

        /**
         * The class exactly as it was, because its rewrite would have {@code size} (methods, or constant pool entries),
         * more than a class file holds: each method that can reach a blocking call is reported left as it was, its
         * suspension points pinned. With no marker, the class's frames are not rewritten ones to the runtime's frame
         * check, which pins any blocking call under them; a caller rewritten to suspend at a call into the class
         * then pins there too, and no frame is lost.
         */
        private Written leftAsItWas(String size) {
            String reason = TOO_LARGE.formatted(size);
            List<MethodReport> unrewritten = new ArrayList<>();
            for (MethodReport report : reports) {
                List<PinnedCallSite> pinned = new ArrayList<>(report.pinnedCallSites());
                for (SuspensionPoint point : report.suspensionPoints()) {
                    pinned.add(new PinnedCallSite(point.line(), point.target(), reason));
                }
                unrewritten.add(new MethodReport(report.name(), report.descriptor(), false,
                        report.rewritten() ? reason : report.reason(), List.of(), pinned));
            }
            return written(parsed.input.bytes(), false, unrewritten, 0, reason);
        }

        private Written written(byte[] bytes, boolean changed, List<MethodReport> methods, int redirected,
                String leftUnrewritten) {
            return new Written(new ClassOutput(parsed.input.source(), node.name, bytes, changed),
                    new ClassReport(node.name, parsed.input.source(), changed, false, methods, redirected,
                            leftUnrewritten));
        }
    }

    /**
     * The class's resume entry for its capturing methods, or null when it has none or the entry would not fit in
     * 64 KB; without one, the runtime's frame check finds the class's frames not capturable and pins.
     */
    private static MethodNode resumeEntry(ClassNode node, SortedMap<Integer, MethodNode> capturing,
            ClassHierarchy hierarchy, boolean framesInClassWrite) {
        if (capturing.isEmpty()) {
            return null;
        }
        if (framesInClassWrite) {
            return ResumeEntryWeaver.entry(node, capturing);
        }
        try {
            return FrameComputer.withFrames(node, ResumeEntryWeaver.entry(node, capturing), hierarchy);
        } catch (MethodTooLargeException tooLarge) {
            return null;
        }
    }

    /** The method's report with the call sites that hand blocking callbacks to foreign code added. */
    private static MethodReport withCallbacks(MethodNode method, MethodReport report, List<PinnedCallSite> callbacks) {
        if (report == null) {
            return new MethodReport(method.name, method.desc, false,
                    "it hands callbacks that can block to code that is not rewritten", List.of(), callbacks);
        }
        List<PinnedCallSite> pinned = new ArrayList<>(report.pinnedCallSites());
        pinned.addAll(callbacks);
        return new MethodReport(report.name(), report.descriptor(), report.rewritten(), report.reason(),
                report.suspensionPoints(), pinned, report.sharedMonitorRegions());
    }

    /** True when every method the final write would compute frames for is small enough to be written in one pass. */
    private static boolean fitInOneWrite(Iterable<MethodNode> replacements, List<MethodNode> added,
            MethodNode resumeEntry) {
        List<MethodNode> written = new ArrayList<>(added);
        replacements.forEach(written::add);
        if (resumeEntry != null) {
            written.add(resumeEntry);
        }
        for (MethodNode method : written) {
            if (FrameComputer.maximumCodeSize(method) > FrameComputer.SAFE_CODE_SIZE) {
                return false;
            }
        }
        return true;
    }

    /**
     * The thread entries the marker lists, the lambda bodies among them, and the methods copied from the input that
     * create one of those lambdas (whose creation {@link ThreadEntryLinks} links through the runtime).
     */
    private record ThreadEntryPlan(List<String> threadEntries, Set<String> lambdaEntries,
            Set<String> linkingMethods) {
    }

    /** A class file as assembled, with the sites of each capturing method as its marker lists them. */
    private record Assembled(byte[] classFile, List<String> sites) {
    }

    /**
     * The class file: the input's methods copied, or replaced by their rewritten forms, the added methods, the resume
     * entry and the marker; with {@code computeFrames}, the frames of every method written from a tree are computed as
     * it is written.
     */
    private static Assembled assemble(ParsedClass parsed, Map<String, MethodNode> replacements,
            List<MethodNode> added, List<String> capturingMethods, List<String> resumeLines, List<String> notCapturable,
            MethodNode resumeEntry, ThreadEntryPlan entries, ClassHierarchy hierarchy, boolean computeFrames) {
        ClassReader reader = new ClassReader(parsed.input.bytes());
        ClassWriter writer = FrameComputer.classWriter(reader, hierarchy);
        int classVersion = parsed.node.version;
        List<String> siteOffsets = new ArrayList<>(capturingMethods.size());
        reader.accept(new ClassVisitor(RuntimeNames.ASM_API, writer) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName,
                    String[] interfaces) {
                super.visit(version, access, name, signature, parsed.node.superName, interfaces);
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                MethodNode replacement = replacements.get(name + descriptor);
                if (replacement != null) {
                    write(replacement);
                    return null;
                }
                MethodVisitor target = super.visitMethod(access, name, descriptor, signature, exceptions);
                if (entries.linkingMethods().contains(name + descriptor)) {
                    target = ThreadEntryLinks.linking(target, parsed.node.name, entries.lambdaEntries());
                }
                if (parsed.redirectsByMethod.getOrDefault(name + descriptor, 0) > 0) {
                    return new ReferenceRedirector(target, hierarchy, parsed.node.name, new int[1]);
                }
                return target;
            }

            @Override
            public void visitEnd() {
                for (MethodNode method : added) {
                    write(method);
                }
                if (resumeEntry != null) {
                    write(resumeEntry);
                }
                AnnotationVisitor marker = super.visitAnnotation(RuntimeNames.REWRITTEN_MARKER, true);
                AnnotationVisitor methods = marker.visitArray("value");
                for (String method : capturingMethods) {
                    methods.visit(null, method);
                }
                methods.visitEnd();
                AnnotationVisitor lines = marker.visitArray("lines");
                for (String line : resumeLines) {
                    lines.visit(null, line);
                }
                lines.visitEnd();
                AnnotationVisitor sites = marker.visitArray(RuntimeNames.SITES_ELEMENT);
                for (String method : capturingMethods) {
                    siteOffsets.add(suspensionSiteOffsets(replacements.get(method)));
                    sites.visit(null, siteOffsets.get(siteOffsets.size() - 1));
                }
                sites.visitEnd();
                if (!entries.threadEntries().isEmpty()) {
                    AnnotationVisitor threadEntries = marker.visitArray(RuntimeNames.THREAD_ENTRIES_ELEMENT);
                    for (String method : entries.threadEntries()) {
                        threadEntries.visit(null, method);
                    }
                    threadEntries.visitEnd();
                }
                if (!notCapturable.isEmpty()) {
                    AnnotationVisitor uncapturable = marker.visitArray(RuntimeNames.NOT_CAPTURABLE_ELEMENT);
                    for (String method : notCapturable) {
                        uncapturable.visit(null, method);
                    }
                    uncapturable.visitEnd();
                }
                marker.visitEnd();
                super.visitEnd();
            }

            private void write(MethodNode method) {
                if (!entries.lambdaEntries().isEmpty()) {
                    ThreadEntryLinks.link(method, parsed.node.name, entries.lambdaEntries());
                }
                if (computeFrames) {
                    FrameComputer.writeWithFrames(writer, classVersion, method);
                } else {
                    method.accept(writer);
                }
            }
        }, 0);
        return new Assembled(writer.toByteArray(), siteOffsets);
    }

    /**
     * The bytecode offsets of a written method's suspension call sites, ascending and comma-separated: the starts of
     * its capture handlers' ranges, each right before its call, resolved now that the class writer has placed the
     * method's code.
     */
    private static String suspensionSiteOffsets(MethodNode written) {
        List<Integer> offsets = new ArrayList<>();
        for (TryCatchBlockNode entry : written.tryCatchBlocks) {
            if (RuntimeNames.CAPTURE.equals(entry.type)) {
                offsets.add(entry.start.getLabel().getOffset());
            }
        }
        offsets.sort(null);
        StringBuilder text = new StringBuilder();
        for (int offset : offsets) {
            text.append(text.length() == 0 ? "" : ",").append(offset);
        }
        return text.toString();
    }

    /** True when the class file carries the marker of a class PicoThreads already rewrote. */
    public static boolean isRewritten(byte[] classFile) {
        boolean[] marked = new boolean[1];
        new ClassReader(classFile).accept(new ClassVisitor(RuntimeNames.ASM_API) {
            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                if (descriptor.equals(RuntimeNames.REWRITTEN_MARKER)) {
                    marked[0] = true;
                }
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return marked[0];
    }
}
