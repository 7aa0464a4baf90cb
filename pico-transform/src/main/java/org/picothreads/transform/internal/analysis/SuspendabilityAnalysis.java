package org.picothreads.transform.internal.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.picothreads.transform.internal.IndependentWork;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.Redirects;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Decides which methods of a program can reach a blocking call and which call instructions can therefore suspend
 * the calling thread, on demand: a question about one method explores only what its calls can reach, reading the
 * program's classes as it meets them, and every answer is kept.
 *
 * <p>It runs on the classes after their Thread references were redirected, so the blocking calls are the
 * runtime's primitives. A call can suspend when it reaches a primitive, or when one of the methods it may
 * dispatch to (class-hierarchy analysis over the program's classes known to it, including lambda bodies bound by
 * invokedynamic) can suspend. A method that reaches a blocking call but can never be captured (a constructor, a
 * class initializer) blocks in place, so it does not make its callers suspendable.
 *
 * <p>Whether a call suspends depends only on its opcode and target ({@link CallKey}). A question about a call
 * explores the graph below it: each target method not yet decided, then every call of that method, until every
 * call reached is decided or explored; then the explored part is solved at once by propagating backwards from the
 * calls that reach a primitive (the least solution, so a cycle of calls that reaches nothing blocking stays
 * non-blocking), and its answers are kept:
 * <pre>
 *   call key --targets--&gt; method --contains--&gt; call key --targets--&gt; ... --&gt; PRIMITIVE
 *   solve: PRIMITIVE marks its keys; a marked key marks the methods containing it; a marked method that can be
 *          captured marks the keys that target it
 * </pre>
 *
 * <p>With a fixed set of classes ({@link #analyze}, the command line and the plugin) the answers are those of a
 * whole-program analysis. Reading a class path as classes load ({@link #onDemand}, the agent), the dispatch targets
 * are those among the classes read so far: an override in a class read later is not seen by the answers already
 * kept (the runtime's frame check pins there).
 */
public final class SuspendabilityAnalysis {
    /**
     * One method of the input: its class and its node. Equality and hash code are written out, the same as a record's
     * (the nodes by identity): a record's own go through method handles, which the quick compiler alone (the command
     * line's short run) leaves slow.
     */
    public record MethodReference(ClassNode owner, MethodNode method) {
        @Override
        public boolean equals(Object other) {
            return other instanceof MethodReference reference && reference.owner == owner
                    && reference.method == method;
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(owner) + Objects.hashCode(method);
        }
    }

    /** An invokedynamic LambdaMetafactory site: the functional interface it creates and what it calls. */
    private record LambdaBinding(String interfaceType, String methodName, List<String> methodDescriptors,
            Handle implementation) {
    }

    private static final Object PRIMITIVE = new Object();

    private final ClassHierarchy hierarchy;
    /** Reads a class of the program by internal name (redirected, for analysis only), or answers null. */
    private final Function<String, ClassNode> reader;
    /**
     * For a method ({@code name+descriptor}), the program's classes that declare it, by internal name, when the
     * program is read on demand; null for a fixed set of classes, which are all known.
     */
    private final Function<String, List<String>> declaringClasses;
    /** The program's classes known so far, by internal name; null values for names the reader does not know. */
    private final Map<String, ClassNode> inputs = new HashMap<>();
    private final Map<String, List<MethodReference>> methodsByNameAndDescriptor = new HashMap<>();
    /** The lambda sites bound so far, by the name of the interface method they implement, in the order met. */
    private final Map<String, List<LambdaBinding>> lambdaBindings = new HashMap<>();
    private final Map<CallKey, List<Object>> callTargetsCache = new HashMap<>();
    /**
     * Whether a type is a subtype of another, by the type and then the other; concurrent, for
     * {@link #findCallTargets}.
     */
    private final Map<String, Map<String, Boolean>> subtypeCache = new ConcurrentHashMap<>();
    /**
     * Each type with its supertypes ({@link ClassHierarchy#supertypesOf}), for a fixed set of classes, which asks
     * whether one type is a subtype of another for every override of every dispatched call; concurrent, for
     * {@link #findCallTargets}.
     */
    private final Map<String, Set<String>> supertypesCache = new ConcurrentHashMap<>();

    /** The classes an earlier run rewrote, by internal name. */
    private final Set<String> alreadyRewrittenClasses = new HashSet<>();
    /** The methods of classes an earlier run rewrote, with whether each can capture. */
    private final Map<MethodNode, Boolean> alreadyRewrittenMethods = new IdentityHashMap<>();
    /** Decided calls: true when a call with this key can suspend. */
    private final Map<CallKey, Boolean> decidedCalls = new HashMap<>();
    /** The next step of every call that can suspend, as far as decided when computed, for {@link #blockingChain}. */
    private Map<CallKey, NextStep> nextSteps;
    /** Decided methods: true when the method contains a call that can suspend. */
    private final Map<MethodNode, Boolean> decidedMethods = new IdentityHashMap<>();
    /**
     * The calls each method makes, read once from its code as the analysis first met it: every question (the call
     * targets found up front, each decision, the blocking chains) asks again for the same method, and a method of
     * the input is rewritten in place after the decisions, when its calls must still be read as they were.
     */
    private final Map<MethodNode, Set<CallKey>> callKeysOf = new IdentityHashMap<>();

    private SuspendabilityAnalysis(ClassHierarchy hierarchy, Function<String, ClassNode> reader,
            Function<String, List<String>> declaringClasses) {
        this.hierarchy = hierarchy;
        this.reader = reader;
        this.declaringClasses = declaringClasses;
    }

    /**
     * The analysis of a fixed set of classes, the whole program as far as dispatch goes.
     *
     * @param classes            the classes to rewrite, already redirected
     * @param alreadyRewritten   classes of the input that an earlier run rewrote: they are not changed again,
     *                           but calls into their suspendable methods can suspend
     */
    public static SuspendabilityAnalysis analyze(List<ClassNode> classes, List<ClassNode> alreadyRewritten,
            ClassHierarchy hierarchy) {
        SuspendabilityAnalysis analysis = new SuspendabilityAnalysis(hierarchy, name -> null, null);
        // each class's calls and lambda sites read from its code on every processor; indexing only records them
        MethodCode[][] code = new MethodCode[classes.size()][];
        IndependentWork.forEachIndex(classes.size(), index -> code[index] = MethodCode.of(classes.get(index)));
        for (int index = 0; index < classes.size(); index++) {
            analysis.index(classes.get(index), code[index]);
        }
        for (ClassNode classNode : alreadyRewritten) {
            analysis.indexAlreadyRewritten(classNode);
        }
        return analysis;
    }

    /**
     * An analysis that reads the program's classes from {@code reader} as it meets them (a class path as the
     * agent sees it); {@link #include} adds a class before its methods are asked about.
     *
     * @param reader           the program's class by internal name, redirected, or null when the name is not the
     *                         program's
     * @param declaringClasses for a method ({@code name+descriptor}), the program's classes that declare it, asked
     *                         when a virtual or interface call is met: the overrides among them are read then
     */
    public static SuspendabilityAnalysis onDemand(ClassHierarchy hierarchy, Function<String, ClassNode> reader,
            Function<String, List<String>> declaringClasses) {
        // a null one would make this the analysis of a fixed set of classes, which never reads one
        return new SuspendabilityAnalysis(hierarchy, reader, Objects.requireNonNull(declaringClasses));
    }

    /**
     * Makes the class, and the classes its methods create instances of, known to the analysis (the types a program
     * can instantiate are the ones whose overrides a call may reach), unless they are known already.
     */
    public synchronized void include(ClassNode classNode) {
        if (!inputs.containsKey(classNode.name)) {
            index(classNode);
        }
        for (MethodNode method : classNode.methods) {
            for (AbstractInsnNode instruction : method.instructions) {
                if (instruction.getOpcode() == Opcodes.NEW) {
                    programClass(((TypeInsnNode) instruction).desc);
                }
            }
        }
    }

    /** The program's class of this name known to the analysis, reading it when needed, or null. */
    public synchronized ClassNode programClass(String internalName) {
        return knownClass(internalName);
    }

    /**
     * {@link #programClass} for the analysis's own steps, which hold the lock already or, for a fixed set of classes
     * (all known from the start, nothing read), need none: there it only looks the class up.
     */
    private ClassNode knownClass(String internalName) {
        if (declaringClasses == null || inputs.containsKey(internalName)) {
            return inputs.get(internalName);
        }
        ClassNode read = reader.apply(internalName);
        if (read == null) {
            inputs.put(internalName, null);
            return null;
        }
        if (isAlreadyRewritten(read)) {
            indexAlreadyRewritten(read);
        } else {
            index(read);
        }
        return read;
    }

    /** The class of this name that is to be rewritten (of the program, not rewritten by an earlier run), or null. */
    public synchronized ClassNode classToRewrite(String internalName) {
        ClassNode classNode = programClass(internalName);
        return classNode == null || alreadyRewrittenClasses.contains(internalName) ? null : classNode;
    }

    /**
     * Finds, on every processor, what each call of the classes may reach, before any call is decided: for a fixed set
     * of classes ({@link #analyze}) this depends on no other answer, and deciding then only looks it up. Each call's
     * targets are found by the same steps, in the same order, as when found on demand. Does nothing for an analysis
     * that reads its classes as it goes.
     */
    public void findCallTargets(List<ClassNode> classes) {
        if (declaringClasses != null) {
            return;
        }
        Set<CallKey> distinct = new LinkedHashSet<>();
        synchronized (this) {
            for (ClassNode classNode : classes) {
                for (MethodNode method : classNode.methods) {
                    distinct.addAll(callKeys(method));
                }
            }
        }
        List<CallKey> keys = new ArrayList<>(distinct);
        List<?>[] targets = new List<?>[keys.size()];
        IndependentWork.forEachIndex(keys.size(), index -> targets[index] = computeCallTargets(keys.get(index)));
        synchronized (this) {
            for (int index = 0; index < targets.length; index++) {
                @SuppressWarnings("unchecked")
                List<Object> found = (List<Object>) targets[index];
                callTargetsCache.putIfAbsent(keys.get(index), found);
            }
        }
    }

    /** True when the call instruction can suspend the thread that executes it. */
    public synchronized boolean isSuspendableCall(AbstractInsnNode instruction) {
        return instruction instanceof MethodInsnNode call && decide(CallKey.of(call));
    }

    /**
     * The chain by which each call of the classes that can suspend reaches a blocking primitive ({@link
     * #blockingChain}), by the called method as the report names it; the first call so named, in the order of the
     * classes, their methods and their code, stands for the others. Asked before the classes are rewritten.
     */
    public synchronized Map<String, List<String>> blockingChains(List<ClassNode> classes) {
        Map<String, CallKey> suspendingCalls = new TreeMap<>();
        for (ClassNode classNode : classes) {
            for (MethodNode method : classNode.methods) {
                if (!reachesBlockingCall(method)) {
                    continue;
                }
                for (CallKey call : callKeys(method)) {
                    if (decide(call)) {
                        String target = Redirects.table().describeCall(call.owner(), call.name(), call.desc());
                        suspendingCalls.putIfAbsent(target, call);
                    }
                }
            }
        }
        // Every call is decided now, so the chains are searched once for all.
        Map<String, List<String>> chains = new TreeMap<>();
        suspendingCalls.forEach((target, call) -> chains.put(target, blockingChain(call)));
        return chains;
    }

    /**
     * Why the call can suspend: the shortest chain of calls from it down to a blocking primitive, as the call itself,
     * then for each step the method entered (when dispatch chose another than the one called) and the call it makes
     * next, the primitive last (or the last method entered, when an earlier
     * run rewrote it), each {@code owner.name+descriptor}, a call redirected to the runtime named as the JDK member
     * it stands for. Empty when the call cannot suspend.
     */
    private List<String> blockingChain(CallKey start) {
        if (!decide(start)) {
            return List.of();
        }
        if (nextSteps == null || !nextSteps.containsKey(start)) {
            nextSteps = shortestNextSteps();
        }
        List<String> chain = new ArrayList<>();
        chain.add(describe(start));
        for (CallKey key = start; ; ) {
            NextStep step = nextSteps.get(key);
            if (step == null || step == PRIMITIVE_STEP) {
                return chain;
            }
            String entered = describe(step.entered());
            if (!entered.equals(chain.get(chain.size() - 1))) {
                chain.add(entered);
            }
            if (step.call() == null) {
                return chain;
            }
            chain.add(describe(step.call()));
            key = step.call();
        }
    }

    /**
     * The next step from a call that can suspend towards the nearest primitive: the method it enters and the call
     * that method makes next; the call is null when the method is one an earlier run rewrote; no step at all when
     * the call itself is a primitive.
     */
    private record NextStep(MethodReference entered, CallKey call) {
    }

    /** The step of a call that is a primitive itself: the chain ends there. */
    private static final NextStep PRIMITIVE_STEP = new NextStep(null, null);

    /** The next step of every decided call that can suspend, by a breadth-first search back from the primitives. */
    private Map<CallKey, NextStep> shortestNextSteps() {
        Map<CallKey, List<NextStep>> callersOf = new HashMap<>();
        Map<CallKey, NextStep> next = new HashMap<>();
        Deque<CallKey> reached = new ArrayDeque<>();
        Set<CallKey> done = new HashSet<>();
        for (Map.Entry<CallKey, Boolean> decided : decidedCalls.entrySet()) {
            if (!decided.getValue()) {
                continue;
            }
            CallKey key = decided.getKey();
            NextStep terminal = null;
            boolean primitive = false;
            for (Object target : callTargets(key)) {
                if (target == PRIMITIVE) {
                    primitive = true;
                    continue;
                }
                MethodReference reference = (MethodReference) target;
                if (Boolean.TRUE.equals(alreadyRewrittenMethods.get(reference.method()))) {
                    terminal = new NextStep(reference, null);
                    continue;
                }
                if (!isCapturable(reference.method())) {
                    continue;
                }
                for (CallKey inside : callKeys(reference.method())) {
                    if (Boolean.TRUE.equals(decidedCalls.get(inside))) {
                        callersOf.computeIfAbsent(inside, unused -> new ArrayList<>())
                                .add(new NextStep(reference, key));
                    }
                }
            }
            if (primitive || terminal != null) {
                next.put(key, primitive ? PRIMITIVE_STEP : terminal);
                done.add(key);
                reached.add(key);
            }
        }
        while (!reached.isEmpty()) {
            CallKey key = reached.poll();
            for (NextStep caller : callersOf.getOrDefault(key, List.of())) {
                // caller.call() is the calling key; from it, the next step enters caller.entered() and calls key.
                if (done.add(caller.call())) {
                    next.put(caller.call(), new NextStep(caller.entered(), key));
                    reached.add(caller.call());
                }
            }
        }
        return next;
    }

    private String describe(CallKey call) {
        return hierarchy.redirects().describeCall(call.owner(), call.name(), call.desc());
    }

    private static String describe(MethodReference reference) {
        return reference.owner().name + "." + reference.method().name + reference.method().desc;
    }

    /** True when the method contains at least one call that can suspend. */
    public synchronized boolean reachesBlockingCall(MethodNode method) {
        Boolean decided = decidedMethods.get(method);
        if (decided != null) {
            return decided;
        }
        boolean reaches = false;
        for (CallKey key : callKeys(method)) {
            if (decide(key)) {
                reaches = true;
                break;
            }
        }
        decidedMethods.put(method, reaches);
        return reaches;
    }

    /** True when a thread can be captured inside this method, so calls to it can suspend. */
    public synchronized boolean isCapturable(MethodNode method) {
        Boolean rewrittenEarlier = alreadyRewrittenMethods.get(method);
        if (rewrittenEarlier != null) {
            return rewrittenEarlier;
        }
        return canBeCaptured(method) && reachesBlockingCall(method);
    }

    /**
     * Whether a thread can be captured inside a method with these properties at all. A synchronized method
     * can: the rewrite turns its monitor into a runtime monitor held across the suspension.
     */
    public static boolean canBeCaptured(MethodNode method) {
        return !method.name.equals("<init>") && !method.name.equals("<clinit>")
                && (method.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0;
    }

    private static boolean isAlreadyRewritten(ClassNode classNode) {
        if (classNode.visibleAnnotations != null) {
            for (var annotation : classNode.visibleAnnotations) {
                if (annotation.desc.equals(RuntimeNames.REWRITTEN_MARKER)) {
                    return true;
                }
            }
        }
        return false;
    }

    private void index(ClassNode classNode) {
        index(classNode, MethodCode.of(classNode));
    }

    /** Makes the class known with its methods' code as read ({@code code[i]} of its {@code i}th method). */
    private void index(ClassNode classNode, MethodCode[] code) {
        inputs.put(classNode.name, classNode);
        for (int index = 0; index < code.length; index++) {
            MethodNode method = classNode.methods.get(index);
            methodsByNameAndDescriptor.computeIfAbsent(method.name + method.desc, key -> new ArrayList<>())
                    .add(new MethodReference(classNode, method));
            for (InvokeDynamicInsnNode dynamic : code[index].dynamicCalls()) {
                recordLambda(dynamic);
            }
            callKeysOf.putIfAbsent(method, code[index].calls());
        }
        callTargetsCache.clear();
    }

    /**
     * What the analysis reads of one method's code, in one pass: the distinct keys of its calls and its
     * {@code invokedynamic} instructions, each in the order of the code.
     */
    private record MethodCode(Set<CallKey> calls, List<InvokeDynamicInsnNode> dynamicCalls) {
        static MethodCode[] of(ClassNode classNode) {
            MethodCode[] code = new MethodCode[classNode.methods.size()];
            for (int index = 0; index < code.length; index++) {
                code[index] = of(classNode.methods.get(index));
            }
            return code;
        }

        static MethodCode of(MethodNode method) {
            Set<CallKey> calls = new LinkedHashSet<>();
            List<InvokeDynamicInsnNode> dynamicCalls = List.of();
            for (AbstractInsnNode instruction : method.instructions) {
                if (instruction instanceof MethodInsnNode call) {
                    calls.add(CallKey.of(call));
                } else if (instruction instanceof InvokeDynamicInsnNode dynamic) {
                    if (dynamicCalls.isEmpty()) {
                        dynamicCalls = new ArrayList<>();
                    }
                    dynamicCalls.add(dynamic);
                }
            }
            return new MethodCode(calls, dynamicCalls);
        }
    }

    private void indexAlreadyRewritten(ClassNode classNode) {
        alreadyRewrittenClasses.add(classNode.name);
        index(classNode);
        Set<String> capturing = ClassHierarchy.header(classNode).capturingMethods();
        for (MethodNode method : classNode.methods) {
            alreadyRewrittenMethods.put(method, capturing.contains(method.name + method.desc));
        }
    }

    private void recordLambda(InvokeDynamicInsnNode dynamic) {
        if (!RuntimeNames.isLambdaBootstrap(dynamic.bsm.getOwner())
                || dynamic.bsmArgs.length < 3 || !(dynamic.bsmArgs[1] instanceof Handle implementation)) {
            return;
        }
        List<String> descriptors = new ArrayList<>();
        descriptors.add(((Type) dynamic.bsmArgs[0]).getDescriptor());
        if (dynamic.bsm.getName().equals("altMetafactory") && dynamic.bsmArgs.length > 3) {
            int flags = (Integer) dynamic.bsmArgs[3];
            int next = 4;
            if ((flags & 2) != 0) { // FLAG_MARKERS
                next += 1 + (Integer) dynamic.bsmArgs[next];
            }
            if ((flags & 4) != 0) { // FLAG_BRIDGES
                int bridges = (Integer) dynamic.bsmArgs[next];
                for (int index = 0; index < bridges; index++) {
                    descriptors.add(((Type) dynamic.bsmArgs[next + 1 + index]).getDescriptor());
                }
            }
        }
        lambdaBindings.computeIfAbsent(dynamic.name, name -> new ArrayList<>()).add(new LambdaBinding(
                Type.getReturnType(dynamic.desc).getInternalName(), dynamic.name, descriptors, implementation));
    }

    /** The distinct keys of the method's calls, in order. */
    private Set<CallKey> callKeys(MethodNode method) {
        Set<CallKey> known = callKeysOf.get(method);
        if (known != null) {
            return known;
        }
        Set<CallKey> keys = MethodCode.of(method).calls();
        callKeysOf.put(method, keys);
        return keys;
    }

    /** Whether calls with this key can suspend: decided before, or now with everything below them. */
    private boolean decide(CallKey start) {
        Boolean decided = decidedCalls.get(start);
        if (decided != null) {
            return decided;
        }
        // Explore: every call key and method reachable from the start that is not decided yet.
        Map<CallKey, List<MethodNode>> exploredCalls = new HashMap<>();
        Map<MethodNode, Set<CallKey>> exploredMethods = new IdentityHashMap<>();
        Map<MethodNode, List<CallKey>> callersOf = new IdentityHashMap<>();
        Map<CallKey, List<MethodNode>> containersOf = new HashMap<>();
        Deque<CallKey> marked = new ArrayDeque<>();
        Deque<CallKey> pending = new ArrayDeque<>();
        pending.add(start);
        while (!pending.isEmpty()) {
            CallKey key = pending.poll();
            if (decidedCalls.containsKey(key) || exploredCalls.containsKey(key)) {
                continue;
            }
            List<MethodNode> targets = new ArrayList<>();
            exploredCalls.put(key, targets);
            boolean reachesPrimitive = false;
            for (Object target : callTargets(key)) {
                if (target == PRIMITIVE) {
                    reachesPrimitive = true;
                    continue;
                }
                MethodNode method = ((MethodReference) target).method();
                targets.add(method);
                if (alreadyRewrittenMethods.containsKey(method) || decidedMethods.containsKey(method)) {
                    reachesPrimitive |= isCapturable(method);
                    continue;
                }
                callersOf.computeIfAbsent(method, unused -> new ArrayList<>()).add(key);
                if (!exploredMethods.containsKey(method)) {
                    Set<CallKey> keys = callKeys(method);
                    exploredMethods.put(method, keys);
                    for (CallKey callKey : keys) {
                        containersOf.computeIfAbsent(callKey, unused -> new ArrayList<>()).add(method);
                        Boolean known = decidedCalls.get(callKey);
                        if (known == null) {
                            pending.add(callKey);
                        } else if (known) {
                            marked.add(callKey);
                        }
                    }
                }
            }
            if (reachesPrimitive) {
                marked.add(key);
            }
        }
        // Solve: propagate backwards from the calls that reach a primitive.
        Set<CallKey> suspending = new HashSet<>();
        Set<MethodNode> reaching = Collections.newSetFromMap(new IdentityHashMap<>());
        while (!marked.isEmpty()) {
            CallKey key = marked.poll();
            if (!suspending.add(key)) {
                continue;
            }
            for (MethodNode container : containersOf.getOrDefault(key, List.of())) {
                if (reaching.add(container) && canBeCaptured(container)) {
                    marked.addAll(callersOf.getOrDefault(container, List.of()));
                }
            }
        }
        exploredCalls.keySet().forEach(key -> decidedCalls.put(key, suspending.contains(key)));
        exploredMethods.keySet().forEach(method -> decidedMethods.put(method, reaching.contains(method)));
        return decidedCalls.get(start);
    }

    /** The methods of the input a call may reach, and {@link #PRIMITIVE} when it is a blocking primitive. */
    private List<Object> callTargets(CallKey call) {
        List<Object> targets = callTargetsCache.get(call);
        if (targets == null) {
            targets = computeCallTargets(call);
            callTargetsCache.put(call, targets);
        }
        return targets;
    }

    private List<Object> computeCallTargets(CallKey call) {
        if (Redirects.table().isBlockingTarget(call.owner(), call.name(), call.desc())) {
            return List.of(PRIMITIVE);
        }
        String original = Redirects.table().transparentOriginal(call.owner(), call.name(), call.desc());
        if (original != null) {
            // a runtime method that only forwards a call: it reaches what that call reaches (dispatched either way)
            int dot = original.indexOf('.');
            int parameters = original.indexOf('(');
            return computeCallTargets(new CallKey(Opcodes.INVOKEINTERFACE, original.substring(0, dot),
                    original.substring(dot + 1, parameters), original.substring(parameters)));
        }
        String member = call.name() + call.desc();
        List<Object> targets = new ArrayList<>();
        boolean threadRun = member.equals("run()V") && (call.owner().equals(RuntimeNames.PICO_THREAD)
                || isSubtype(call.owner(), RuntimeNames.THREAD));
        if (RuntimeNames.isRuntimeClass(call.owner()) && !threadRun) {
            return List.of();
        }
        if (call.name().equals("<init>") || call.name().equals("<clinit>")) {
            return List.of();
        }
        MethodReference resolved = resolve(call.owner(), member);
        if (resolved != null) {
            targets.add(resolved);
        } else if (capturesOnTheClasspath(call.owner(), member)) {
            // Code an earlier run rewrote (a jar on the classpath): its frames capture and restore themselves.
            targets.add(PRIMITIVE);
        }
        boolean dispatched = call.opcode() == Opcodes.INVOKEVIRTUAL || call.opcode() == Opcodes.INVOKEINTERFACE;
        if (dispatched) {
            addOverrides(call.owner(), member, targets);
            addLambdas(call.owner(), call.name(), call.desc(), targets);
        }
        if (threadRun) {
            // PicoThread.run() runs its Runnable target, and a Thread's run() may be any subclass's override.
            addOverrides(RuntimeNames.RUNNABLE, member, targets);
            addLambdas(RuntimeNames.RUNNABLE, call.name(), call.desc(), targets);
        }
        return targets;
    }

    private void addOverrides(String owner, String member, List<Object> targets) {
        if (declaringClasses != null) {
            for (String declaring : declaringClasses.apply(member)) {
                if (!inputs.containsKey(declaring) && isSubtype(declaring, owner)) {
                    knownClass(declaring);
                }
            }
        }
        for (MethodReference candidate : methodsByNameAndDescriptor.getOrDefault(member, List.of())) {
            if ((candidate.method().access & Opcodes.ACC_STATIC) == 0 && isSubtype(candidate.owner().name, owner)
                    && !targets.contains(candidate)) {
                targets.add(candidate);
            }
        }
    }

    private void addLambdas(String owner, String name, String descriptor, List<Object> targets) {
        // By index, the list looked up again each time: resolving an implementation may read a class, whose lambda
        // sites are added as this runs.
        for (int index = 0; index < lambdaBindings.getOrDefault(name, List.of()).size(); index++) {
            LambdaBinding binding = lambdaBindings.get(name).get(index);
            if (!binding.methodDescriptors().contains(descriptor)
                    || !isSubtype(binding.interfaceType(), owner)) {
                continue;
            }
            Handle implementation = binding.implementation();
            if (Redirects.table().isBlockingTarget(implementation.getOwner(), implementation.getName(),
                    implementation.getDesc())) {
                targets.add(PRIMITIVE);
                continue;
            }
            MethodReference target = resolve(implementation.getOwner(),
                    implementation.getName() + implementation.getDesc());
            if (target != null && !targets.contains(target)) {
                targets.add(target);
            }
        }
    }

    /** The input method a call to {@code owner.member} resolves to, or null when it resolves outside the input. */
    private MethodReference resolve(String owner, String member) {
        for (String type = owner; type != null; ) {
            ClassNode input = knownClass(type);
            if (input != null) {
                MethodNode method = declared(input, member);
                if (method != null) {
                    return new MethodReference(input, method);
                }
                type = input.superName;
            } else {
                ClassHierarchy.ClassInfo info = hierarchy.find(type);
                if (info == null || info.methodAccess(member) != null) {
                    break;
                }
                type = info.superName();
            }
        }
        return resolveDefaultMethod(owner, member, new ArrayList<>());
    }

    /**
     * True when {@code owner.member} resolves to a method of a class outside the input that an earlier run rewrote
     * and whose marker lists the method as able to capture: calling it can suspend, through frames that are all
     * rewritten. Overrides in other classes outside the input are not looked for, as for any code outside it.
     */
    private boolean capturesOnTheClasspath(String owner, String member) {
        for (String type = owner; type != null && knownClass(type) == null; ) {
            ClassHierarchy.ClassInfo info = hierarchy.find(type);
            if (info == null) {
                return false;
            }
            if (info.methodAccess(member) != null) {
                return info.capturingMethods().contains(member);
            }
            type = info.superName();
        }
        return false;
    }

    private MethodReference resolveDefaultMethod(String type, String member, List<String> visited) {
        if (type == null || visited.contains(type)) {
            return null;
        }
        visited.add(type);
        ClassNode input = knownClass(type);
        List<String> supertypes = new ArrayList<>();
        if (input != null) {
            MethodNode method = declared(input, member);
            if (method != null && (input.access & Opcodes.ACC_INTERFACE) != 0
                    && (method.access & Opcodes.ACC_ABSTRACT) == 0) {
                return new MethodReference(input, method);
            }
            supertypes.addAll(input.interfaces);
            supertypes.add(input.superName);
        } else {
            ClassHierarchy.ClassInfo info = hierarchy.find(type);
            if (info == null) {
                return null;
            }
            supertypes.addAll(info.interfaces());
            supertypes.add(info.superName());
        }
        for (String supertype : supertypes) {
            MethodReference found = resolveDefaultMethod(supertype, member, visited);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /**
     * A call instruction's opcode and target: what decides whether it can suspend. Equality and hash code are written
     * out, with the values a record's own give (so maps keyed by it iterate in the same order), for the reason
     * {@link MethodReference} gives.
     */
    private record CallKey(int opcode, String owner, String name, String desc) {
        static CallKey of(MethodInsnNode call) {
            return new CallKey(call.getOpcode(), call.owner, call.name, call.desc);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof CallKey key && key.opcode == opcode && key.owner.equals(owner)
                    && key.name.equals(name) && key.desc.equals(desc);
        }

        @Override
        public int hashCode() {
            return ((opcode * 31 + owner.hashCode()) * 31 + name.hashCode()) * 31 + desc.hashCode();
        }
    }

    private static MethodNode declared(ClassNode classNode, String member) {
        for (MethodNode method : classNode.methods) {
            if (member.length() == method.name.length() + method.desc.length() && member.startsWith(method.name)
                    && member.endsWith(method.desc)) {
                return method;
            }
        }
        return null;
    }

    private boolean isSubtype(String type, String ancestor) {
        if (declaringClasses == null) {
            // a fixed set of classes, whose hierarchy is complete before the analysis and never changes after
            Set<String> supertypes = supertypesCache.get(type);
            if (supertypes == null) {
                supertypes = hierarchy.supertypesOf(type);
                supertypesCache.put(type, supertypes);
            }
            return ancestor.equals(RuntimeNames.OBJECT) || supertypes.contains(ancestor);
        }
        Map<String, Boolean> ancestors = subtypeCache.computeIfAbsent(type, unused -> new ConcurrentHashMap<>());
        Boolean cached = ancestors.get(ancestor);
        if (cached == null) {
            cached = hierarchy.isSubtypeOf(type, ancestor);
            ancestors.put(ancestor, cached);
        }
        return cached;
    }
}
