package org.picothreads.transform.internal.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.emit.Redirects;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * Decides, across all the classes of one transformation, which methods can reach a blocking call and
 * which call instructions can therefore suspend the calling thread.
 *
 * <p>It runs on the classes after their Thread references were redirected, so the blocking calls are the
 * runtime's primitives. A call can suspend when it reaches a primitive, or when one of the methods it may
 * dispatch to (class-hierarchy analysis over the inputs, including lambda bodies bound by invokedynamic)
 * can suspend. A method that reaches a blocking call but can never be captured (a constructor, a class
 * initializer) blocks in place, so it does not make its callers suspendable.
 */
public final class SuspendabilityAnalysis {
    /** One method of the input: its class and its node. */
    public record MethodReference(ClassNode owner, MethodNode method) {
    }

    /** An invokedynamic LambdaMetafactory site: the functional interface it creates and what it calls. */
    private record LambdaBinding(String interfaceType, String methodName, List<String> methodDescriptors,
            Handle implementation) {
    }

    private static final Object PRIMITIVE = new Object();

    private final ClassHierarchy hierarchy;
    private final Map<String, ClassNode> inputs = new HashMap<>();
    private final Map<String, List<MethodReference>> methodsByNameAndDescriptor = new HashMap<>();
    private final List<LambdaBinding> lambdaBindings = new ArrayList<>();
    private final Map<CallKey, List<Object>> callTargetsCache = new HashMap<>();
    private final Map<String, Boolean> subtypeCache = new HashMap<>();

    private final Set<AbstractInsnNode> suspendableCalls = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MethodNode> blockingMethods = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MethodNode> propagatingMethods = Collections.newSetFromMap(new IdentityHashMap<>());

    private SuspendabilityAnalysis(ClassHierarchy hierarchy) {
        this.hierarchy = hierarchy;
    }

    /**
     * Analyses the classes together.
     *
     * @param classes            the classes to rewrite, already redirected
     * @param alreadyRewritten   classes of the input that an earlier run rewrote: they are not changed again,
     *                           but calls into their suspendable methods can suspend
     */
    public static SuspendabilityAnalysis analyze(List<ClassNode> classes, List<ClassNode> alreadyRewritten,
            ClassHierarchy hierarchy) {
        SuspendabilityAnalysis analysis = new SuspendabilityAnalysis(hierarchy);
        analysis.index(classes);
        analysis.index(alreadyRewritten);
        analysis.propagate(classes, alreadyRewritten);
        return analysis;
    }

    /** True when the call instruction can suspend the thread that executes it. */
    public boolean isSuspendableCall(AbstractInsnNode instruction) {
        return suspendableCalls.contains(instruction);
    }

    /** True when the method contains at least one call that can suspend. */
    public boolean reachesBlockingCall(MethodNode method) {
        return blockingMethods.contains(method);
    }

    /** True when a thread can be captured inside this method, so calls to it can suspend. */
    public boolean isCapturable(MethodNode method) {
        return propagatingMethods.contains(method);
    }

    /**
     * Whether a thread can be captured inside a method with these properties at all. A synchronized method
     * can: the rewrite turns its monitor into a runtime monitor held across the suspension.
     */
    public static boolean canBeCaptured(MethodNode method) {
        return !method.name.equals("<init>") && !method.name.equals("<clinit>")
                && (method.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0;
    }

    private void index(List<ClassNode> classes) {
        for (ClassNode classNode : classes) {
            inputs.put(classNode.name, classNode);
            for (MethodNode method : classNode.methods) {
                methodsByNameAndDescriptor.computeIfAbsent(method.name + method.desc, key -> new ArrayList<>())
                        .add(new MethodReference(classNode, method));
                for (AbstractInsnNode instruction : method.instructions) {
                    if (instruction instanceof InvokeDynamicInsnNode dynamic) {
                        recordLambda(dynamic);
                    }
                }
            }
        }
    }

    private void recordLambda(InvokeDynamicInsnNode dynamic) {
        if (!dynamic.bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory")
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
        lambdaBindings.add(new LambdaBinding(Type.getReturnType(dynamic.desc).getInternalName(), dynamic.name,
                descriptors, implementation));
    }

    private void propagate(List<ClassNode> classes, List<ClassNode> alreadyRewritten) {
        Map<MethodNode, List<Caller>> callers = new IdentityHashMap<>();
        Deque<MethodNode> worklist = new ArrayDeque<>();
        for (ClassNode classNode : alreadyRewritten) {
            for (MethodNode method : classNode.methods) {
                if (hierarchy.find(classNode.name).capturingMethods().contains(method.name + method.desc)) {
                    propagatingMethods.add(method);
                    worklist.add(method);
                }
            }
        }
        for (ClassNode classNode : classes) {
            for (MethodNode method : classNode.methods) {
                for (AbstractInsnNode instruction : method.instructions) {
                    if (!(instruction instanceof MethodInsnNode call)) {
                        continue;
                    }
                    for (Object target : callTargets(call)) {
                        if (target == PRIMITIVE) {
                            markSuspendable(call, method, worklist);
                        } else {
                            callers.computeIfAbsent(((MethodReference) target).method(), key -> new ArrayList<>())
                                    .add(new Caller(call, method));
                        }
                    }
                }
            }
        }
        while (!worklist.isEmpty()) {
            MethodNode callee = worklist.poll();
            for (Caller caller : callers.getOrDefault(callee, List.of())) {
                markSuspendable(caller.call(), caller.method(), worklist);
            }
        }
    }

    private record Caller(MethodInsnNode call, MethodNode method) {
    }

    private void markSuspendable(MethodInsnNode call, MethodNode method, Deque<MethodNode> worklist) {
        suspendableCalls.add(call);
        blockingMethods.add(method);
        if (canBeCaptured(method) && propagatingMethods.add(method)) {
            worklist.add(method);
        }
    }

    /** The methods of the input a call may reach, and {@link #PRIMITIVE} when it is a blocking primitive. */
    private List<Object> callTargets(MethodInsnNode call) {
        CallKey cacheKey = new CallKey(call.getOpcode(), call.owner, call.name, call.desc);
        List<Object> targets = callTargetsCache.get(cacheKey);
        if (targets == null) {
            targets = computeCallTargets(call);
            callTargetsCache.put(cacheKey, targets);
        }
        return targets;
    }

    private List<Object> computeCallTargets(MethodInsnNode call) {
        if (Redirects.table().isBlockingTarget(call.owner, call.name, call.desc)) {
            return List.of(PRIMITIVE);
        }
        String member = call.name + call.desc;
        List<Object> targets = new ArrayList<>();
        boolean threadRun = member.equals("run()V") && (call.owner.equals(RuntimeNames.PICO_THREAD)
                || isSubtype(call.owner, RuntimeNames.THREAD));
        if (RuntimeNames.isRuntimeClass(call.owner) && !threadRun) {
            return List.of();
        }
        if (call.name.equals("<init>") || call.name.equals("<clinit>")) {
            return List.of();
        }
        MethodReference resolved = resolve(call.owner, member);
        if (resolved != null) {
            targets.add(resolved);
        } else if (capturesOnTheClasspath(call.owner, member)) {
            // Code an earlier run rewrote (a jar on the classpath): its frames capture and restore themselves.
            targets.add(PRIMITIVE);
        }
        boolean dispatched = call.getOpcode() == Opcodes.INVOKEVIRTUAL || call.getOpcode() == Opcodes.INVOKEINTERFACE;
        if (dispatched) {
            addOverrides(call.owner, member, targets);
            addLambdas(call.owner, call.name, call.desc, targets);
        }
        if (threadRun) {
            // PicoThread.run() runs its Runnable target, and a Thread's run() may be any subclass's override.
            addOverrides(RuntimeNames.RUNNABLE, member, targets);
            addLambdas(RuntimeNames.RUNNABLE, call.name, call.desc, targets);
        }
        return targets;
    }

    private void addOverrides(String owner, String member, List<Object> targets) {
        for (MethodReference candidate : methodsByNameAndDescriptor.getOrDefault(member, List.of())) {
            if ((candidate.method().access & Opcodes.ACC_STATIC) == 0 && isSubtype(candidate.owner().name, owner)
                    && !targets.contains(candidate)) {
                targets.add(candidate);
            }
        }
    }

    private void addLambdas(String owner, String name, String descriptor, List<Object> targets) {
        for (LambdaBinding binding : lambdaBindings) {
            if (!binding.methodName().equals(name) || !binding.methodDescriptors().contains(descriptor)
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
            ClassNode input = inputs.get(type);
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
        for (String type = owner; type != null && !inputs.containsKey(type); ) {
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
        ClassNode input = inputs.get(type);
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

    /** A call instruction's opcode and target, the key of the call-target cache (no string built per call). */
    private record CallKey(int opcode, String owner, String name, String descriptor) {
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
        String key = type + " " + ancestor;
        Boolean cached = subtypeCache.get(key);
        if (cached == null) {
            cached = hierarchy.isSubtypeOf(type, ancestor);
            subtypeCache.put(key, cached);
        }
        return cached;
    }
}
