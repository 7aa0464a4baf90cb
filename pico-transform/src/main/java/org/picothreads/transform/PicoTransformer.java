package org.picothreads.transform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.internal.ClassRewriter;
import org.picothreads.transform.internal.IndependentWork;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.SocketUse;
import org.picothreads.transform.internal.analysis.ForeignCallbackAnalysis;
import org.picothreads.transform.internal.analysis.SuspendabilityAnalysis;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.TransformReport;

/**
 * The one entry point to the transformer: rewrites a set of classes so that the threads they start are
 * PicoThreads. The command line, the Maven plugin and the agent are thin wrappers around it.
 *
 * <p>The passes of a run, in order, are the steps of {@code transform(inputs, hierarchy, picoNetAtRunTime)} just
 * below, with the per-method passes they run for each method that can reach a blocking call. Only those methods are
 * rewritten; classes that need no change come back as the very input bytes.
 */
public final class PicoTransformer {
    private final List<Path> classpath;
    /** True when the program runs with pico-net whatever the classpath holds, so the redirects to it always apply. */
    private final boolean picoNetAtRunTime;

    private PicoTransformer(List<Path> classpath, boolean picoNetAtRunTime) {
        this.classpath = List.copyOf(classpath);
        this.picoNetAtRunTime = picoNetAtRunTime;
    }

    /**
     * Transforms the classes of a program together, in passes: the program-level ones below, each a step of
     * {@code ProgramRewrite}, and for each method that can reach a blocking call the per-method passes of
     * {@link org.picothreads.transform.internal.MethodRewriter MethodRewriter} (lower a synchronized method, analyse
     * its flow, move creations, convert monitor regions, plan the sites, weave the normal path, weave the
     * continuation, compute frames).
     */
    private static TransformResult transform(List<ClassInput> inputs, ClassHierarchy hierarchy,
            boolean picoNetAtRunTime) throws TransformException {
        ProgramRewrite program = new ProgramRewrite(inputs, hierarchy);
        // read every input's header and choose its treatment; a file that is not a readable class file is refused
        program.readHeaders();
        // the redirects to pico-net apply only to a program that has it (among its classes or classpath, or promised)
        program.chooseNetRedirects(picoNetAtRunTime);
        // register the hierarchy as it will be after the rewrite
        program.registerRewrittenHierarchy();
        // read the classes to rewrite, their references redirected and subroutines inlined (ClassRewriter)
        program.readClasses();
        // decide which calls can suspend across all the classes before the first is rewritten (SuspendabilityAnalysis)
        program.decideSuspendableCalls();
        // write each class, its blocking methods rewritten by MethodRewriter's passes (ClassRewriter), in parallel
        return program.writeClasses();
    }

    /** The state of one run over a program's classes, as its steps build it up; each class has its own index. */
    private static final class ProgramRewrite {
        private final List<ClassInput> inputs;
        private final ClassHierarchy hierarchy;
        private final int count;
        private final ClassHierarchy.ClassInfo[] headers;
        private final Treatment[] treatments;
        private final ClassRewriter.ParsedClass[] parsed;
        /** The classes being rewritten, read for the analysis and then rewritten in place. */
        private final List<ClassNode> rewriting = new ArrayList<>();
        /** The classes an earlier run rewrote, read for the analysis alone. */
        private final List<ClassNode> alreadyRewritten = new ArrayList<>();
        private SuspendabilityAnalysis analysis;
        private ForeignCallbackAnalysis callbacks;
        /** The chain by which each suspending call reaches a blocking primitive, for the report. */
        private Map<String, List<String>> chains;

        ProgramRewrite(List<ClassInput> inputs, ClassHierarchy hierarchy) {
            this.inputs = inputs;
            this.hierarchy = hierarchy;
            this.count = inputs.size();
            this.headers = new ClassHierarchy.ClassInfo[count];
            this.treatments = new Treatment[count];
            this.parsed = new ClassRewriter.ParsedClass[count];
        }

        void readHeaders() throws TransformException {
            TransformException[] unreadable = new TransformException[count];
            IndependentWork.forEachIndex(count, index -> {
                try {
                    headers[index] = readHeader(inputs.get(index));
                    treatments[index] = treatment(headers[index].name(), inputs.get(index).bytes());
                } catch (TransformException exception) {
                    unreadable[index] = exception;
                }
            });
            for (int index = 0; index < count; index++) {
                if (unreadable[index] != null) {
                    throw unreadable[index];
                }
            }
        }

        void chooseNetRedirects(boolean picoNetAtRunTime) {
            List<String> names = new ArrayList<>(count);
            for (ClassHierarchy.ClassInfo header : headers) {
                names.add(header.name());
            }
            hierarchy.useNet(hasPicoNet(picoNetAtRunTime, names, hierarchy));
        }

        void registerRewrittenHierarchy() {
            for (int index = 0; index < count; index++) {
                if (treatments[index] == Treatment.ALREADY_REWRITTEN) {
                    hierarchy.register(headers[index]);
                } else if (treatments[index] == Treatment.REWRITE) {
                    hierarchy.register(ClassRewriter.rewrittenHeader(headers[index], hierarchy));
                }
            }
        }

        /** Reads the classes to rewrite for the rewrite, and the ones already rewritten for the analysis alone. */
        void readClasses() throws TransformException {
            ClassNode[] alreadyRewrittenNodes = new ClassNode[count];
            RuntimeException[] failures = new RuntimeException[count];
            IndependentWork.forEachIndex(count, index -> {
                ClassInput input = inputs.get(index);
                try {
                    if (treatments[index] == Treatment.REWRITE) {
                        parsed[index] = ClassRewriter.parseForRewrite(input, hierarchy);
                    } else if (treatments[index] == Treatment.ALREADY_REWRITTEN) {
                        alreadyRewrittenNodes[index] = ClassRewriter.parsePlain(input);
                    }
                } catch (RuntimeException exception) {
                    failures[index] = exception;
                }
            });
            for (int index = 0; index < count; index++) {
                if (failures[index] != null) {
                    throw failure(inputs.get(index), headers[index].name(), "cannot be read by ASM", failures[index]);
                }
                if (parsed[index] != null) {
                    rewriting.add(parsed[index].node());
                } else if (alreadyRewrittenNodes[index] != null) {
                    alreadyRewritten.add(alreadyRewrittenNodes[index]);
                }
            }
        }

        /**
         * Decides every method before the first is rewritten in place, so that the analysis never reads rewritten
         * code.
         */
        void decideSuspendableCalls() {
            analysis = SuspendabilityAnalysis.analyze(rewriting, alreadyRewritten, hierarchy);
            // what each call may reach, found for every call in parallel; the decisions below only look it up
            analysis.findCallTargets(rewriting);
            for (ClassNode classNode : rewriting) {
                for (MethodNode method : classNode.methods) {
                    analysis.reachesBlockingCall(method);
                }
            }
            callbacks = new ForeignCallbackAnalysis(analysis, hierarchy);
            chains = analysis.blockingChains(rewriting);
        }

        /**
         * Writes each class from its own reading and the decided analysis alone, so the classes are written in
         * parallel; each lands at its own index, and the output is the same as written one after the other.
         */
        TransformResult writeClasses() throws TransformException {
            ClassOutput[] outputs = new ClassOutput[count];
            ClassReport[] reports = new ClassReport[count];
            RuntimeException[] failures = new RuntimeException[count];
            IndependentWork.forEachIndex(count, index -> {
                ClassInput input = inputs.get(index);
                String name = headers[index].name();
                if (treatments[index] != Treatment.REWRITE) {
                    outputs[index] = new ClassOutput(input.source(), name, input.bytes(), false);
                    reports[index] = new ClassReport(name, input.source(), false,
                            treatments[index] == Treatment.ALREADY_REWRITTEN, List.of(), 0);
                    return;
                }
                try {
                    ClassRewriter.Written written = ClassRewriter.write(parsed[index], analysis, callbacks, hierarchy);
                    outputs[index] = written.output();
                    reports[index] = written.report();
                } catch (RuntimeException exception) {
                    failures[index] = exception;
                }
            });
            for (int index = 0; index < count; index++) {
                if (failures[index] != null) {
                    throw failure(inputs.get(index), headers[index].name(), "cannot be rewritten", failures[index]);
                }
            }
            return new TransformResult(List.of(outputs), new TransformReport(List.of(reports), chains));
        }
    }

    /**
     * A transformer that resolves the classes the input refers to (for the class hierarchy) from the given
     * jars and directories, then from the running JDK. Classes are read as files, never loaded.
     *
     * @throws TransformException when a classpath entry does not exist
     */
    public static PicoTransformer withClasspath(List<Path> classpath) throws TransformException {
        for (Path entry : classpath) {
            if (!Files.exists(entry)) {
                throw new TransformException("classpath entry " + entry + " does not exist");
            }
        }
        return new PicoTransformer(classpath, false);
    }

    /**
     * This transformer for a program that will run with pico-net on its class path: sockets and java.io's
     * decorators are redirected to pico-net even when neither the input nor the classpath holds it. Without this,
     * they are redirected only when one of them does.
     */
    public PicoTransformer withPicoNetAtRunTime() {
        return new PicoTransformer(classpath, true);
    }

    /** Transforms the classes together: which methods can block is decided across all of them. */
    public TransformResult transform(List<ClassInput> inputs) throws TransformException {
        try (ClassHierarchy hierarchy = new ClassHierarchy(classpath)) {
            return transform(inputs, hierarchy, picoNetAtRunTime);
        } catch (IOException exception) {
            throw new TransformException("cannot read the classpath: " + exception.getMessage(), exception);
        } catch (UncheckedIOException exception) {
            throw new TransformException(exception.getMessage(), exception);
        }
    }

    /**
     * The binary name of the first of {@code classes} that refers to a JDK socket type when the redirects to pico-net
     * do not apply to them (pico-net is neither among the classes nor on the classpath, nor promised by
     * {@link #withPicoNetAtRunTime}), or null: such a class's socket calls block the carrier thread, and every
     * PicoThread waits with them. The agent and the Maven plugin warn with it.
     */
    public String socketUserWithoutPicoNet(List<ClassInput> classes) throws TransformException {
        String socketUser = SocketUse.firstUser(classes);
        if (socketUser == null) {
            return null;
        }
        List<String> names = new ArrayList<>(classes.size());
        for (ClassInput input : classes) {
            try {
                names.add(new ClassReader(input.bytes()).getClassName());
            } catch (RuntimeException notAClass) {
                // The transformer names a class file it cannot read; it is not pico-net.
            }
        }
        try (ClassHierarchy hierarchy = new ClassHierarchy(classpath)) {
            return hasPicoNet(picoNetAtRunTime, names, hierarchy) ? null : socketUser;
        } catch (IOException exception) {
            throw new TransformException("cannot read the classpath: " + exception.getMessage(), exception);
        } catch (UncheckedIOException exception) {
            throw new TransformException(exception.getMessage(), exception);
        }
    }

    /**
     * True when the program has pico-net at run time, so that the redirects to it apply: promised, among the
     * classes being transformed ({@code classNames}, internal names) or on the classpath.
     */
    private static boolean hasPicoNet(boolean picoNetAtRunTime, List<String> classNames, ClassHierarchy hierarchy) {
        return picoNetAtRunTime || classNames.contains(RuntimeNames.NET_PROBE)
                || hierarchy.find(RuntimeNames.NET_PROBE) != null;
    }

    /** True when the class file was already rewritten by PicoThreads. */
    public static boolean isTransformed(byte[] classFile) {
        return ClassRewriter.isRewritten(classFile);
    }

    private enum Treatment { REWRITE, ALREADY_REWRITTEN, PASS_THROUGH }

    private static Treatment treatment(String name, byte[] classFile) {
        if (name.equals("module-info") || name.endsWith("/module-info") || name.endsWith("package-info")
                || RuntimeNames.isRuntimeClass(name)) {
            return Treatment.PASS_THROUGH;
        }
        return isTransformed(classFile) ? Treatment.ALREADY_REWRITTEN : Treatment.REWRITE;
    }

    /**
     * A transformer for a program whose classes are rewritten one at a time as it loads them (the agent): the
     * classes of this transformer's classpath that {@code program} accepts (internal names) make up the program, read
     * only as far as the loaded classes' calls reach. Closing it closes the classpath's jars.
     *
     * @throws TransformException when the classpath cannot be read
     */
    public Loading forLoading(Predicate<String> program) throws TransformException {
        try {
            return new Loading(new ClassHierarchy(classpath), program);
        } catch (IOException exception) {
            throw new TransformException("cannot read the classpath: " + exception.getMessage(), exception);
        }
    }

    /**
     * Rewrites the classes of a program one at a time as it loads them, with the analysis of the program kept from
     * one class to the next: which calls of a class can suspend is decided from what they reach on the classpath,
     * read then (never loaded). A virtual or interface call may reach the override of any class of the classpath:
     * the first such call reads every class header of the classpath once, to know which classes declare what.
     */
    public final class Loading implements AutoCloseable {
        private final ClassHierarchy hierarchy;
        private final Predicate<String> program;
        private final SuspendabilityAnalysis analysis;
        private final ForeignCallbackAnalysis callbacks;
        /** Whether the program has pico-net, so that its redirects apply. */
        private final boolean withNet;
        /** The program's classes that declare each method, read from every class header once a call dispatches. */
        private Map<String, List<String>> declaringClasses;

        private Loading(ClassHierarchy hierarchy, Predicate<String> program) {
            this.hierarchy = hierarchy;
            this.program = program;
            this.withNet = hasPicoNet(picoNetAtRunTime, List.of(), hierarchy);
            hierarchy.useNet(withNet);
            hierarchy.rewriteHeadersOf(name -> program.test(name) && !RuntimeNames.isRuntimeClass(name));
            this.analysis = SuspendabilityAnalysis.onDemand(hierarchy, this::readForAnalysis,
                    method -> declaringClasses().getOrDefault(method, List.of()));
            this.callbacks = new ForeignCallbackAnalysis(analysis, hierarchy);
        }

        /**
         * Transforms one class as it loads. A class of the program is rewritten with what the analysis knows of the
         * program; a class whose bytes are not those of the classpath (another class loader's) is transformed alone.
         */
        public synchronized TransformResult transform(ClassInput input) throws TransformException {
            ClassHierarchy.ClassInfo header = readHeader(input);
            String name = header.name();
            byte[] onTheClasspath;
            try {
                onTheClasspath = program.test(name) ? hierarchy.classFile(name) : null;
            } catch (UncheckedIOException unreadable) {
                onTheClasspath = null;
            }
            if (onTheClasspath == null || !Arrays.equals(onTheClasspath, input.bytes())) {
                return PicoTransformer.this.transform(List.of(input));
            }
            Treatment treatment = treatment(name, input.bytes());
            if (treatment != Treatment.REWRITE) {
                return new TransformResult(List.of(new ClassOutput(input.source(), name, input.bytes(), false)),
                        new TransformReport(List.of(new ClassReport(name, input.source(), false,
                                treatment == Treatment.ALREADY_REWRITTEN, List.of(), 0))));
            }
            try {
                ClassNode analysed = analysis.programClass(name);
                if (analysed != null) {
                    analysis.include(analysed);
                }
                // The analysis keeps its own reading of the class; the rewrite changes this one in place.
                // No blocking chains: the analysis grows with every class, and the chains would be searched again.
                ClassRewriter.ParsedClass parsed = ClassRewriter.parseForRewrite(input, hierarchy);
                ClassRewriter.Written written = ClassRewriter.write(parsed, analysis, callbacks, hierarchy);
                return new TransformResult(List.of(written.output()), new TransformReport(List.of(written.report())));
            } catch (UncheckedIOException exception) {
                throw new TransformException(exception.getMessage(), exception);
            } catch (RuntimeException exception) {
                throw failure(input, name, "cannot be rewritten", exception);
            }
        }

        /**
         * The binary name of the class when it refers to a JDK socket type and the program has no pico-net, so that
         * its socket calls block the carrier; otherwise null.
         */
        public String socketUserWithoutPicoNet(ClassInput input) {
            return withNet ? null : SocketUse.firstUser(List.of(input));
        }

        private Map<String, List<String>> declaringClasses() {
            if (declaringClasses == null) {
                declaringClasses = hierarchy.declaringClassesByMethod(
                        name -> program.test(name) && !RuntimeNames.isRuntimeClass(name));
            }
            return declaringClasses;
        }

        /** The program's class of this name from the classpath, read and redirected for the analysis, or null. */
        private ClassNode readForAnalysis(String name) {
            if (!program.test(name) || RuntimeNames.isRuntimeClass(name)) {
                return null;
            }
            try {
                byte[] classFile = hierarchy.classFile(name);
                if (classFile == null) {
                    return null;
                }
                ClassInput input = new ClassInput(name + ".class", classFile);
                return switch (treatment(name, classFile)) {
                    case PASS_THROUGH -> null;
                    case ALREADY_REWRITTEN -> ClassRewriter.parsePlain(input);
                    case REWRITE -> ClassRewriter.parseForRewrite(input, hierarchy).node();
                };
            } catch (RuntimeException unreadable) {
                // A class file the analysis cannot read is not the program's to it; the class fails when it loads.
                return null;
            }
        }

        @Override
        public void close() throws TransformException {
            try {
                hierarchy.close();
            } catch (IOException exception) {
                throw new TransformException("cannot close the classpath: " + exception.getMessage(), exception);
            }
        }
    }

    private static ClassHierarchy.ClassInfo readHeader(ClassInput input) throws TransformException {
        byte[] bytes = input.bytes();
        if (bytes.length < 10 || (bytes[0] & 0xFF) != 0xCA || (bytes[1] & 0xFF) != 0xFE
                || (bytes[2] & 0xFF) != 0xBA || (bytes[3] & 0xFF) != 0xBE) {
            throw new TransformException(input.source() + ": not a class file (no 0xCAFEBABE header)");
        }
        try {
            ClassHierarchy.ClassInfo header = ClassHierarchy.parse(bytes);
            if (header == null || header.name() == null) {
                throw new TransformException(input.source() + ": truncated or corrupt class file");
            }
            return header;
        } catch (IllegalArgumentException exception) {
            String message = exception.getMessage();
            if (message != null && message.startsWith("Unsupported class file major version")) {
                throw new TransformException(input.source() + ": " + message.toLowerCase(java.util.Locale.ROOT)
                        + " (newer than this transformer's ASM supports)", exception);
            }
            throw new TransformException(input.source() + ": truncated or corrupt class file", exception);
        } catch (RuntimeException exception) {
            throw new TransformException(input.source() + ": truncated or corrupt class file", exception);
        }
    }

    private static TransformException failure(ClassInput input, String className, String what,
            RuntimeException cause) {
        String detail = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new TransformException(input.source() + ": class " + className.replace('/', '.') + " " + what
                + ": " + detail, cause);
    }
}
