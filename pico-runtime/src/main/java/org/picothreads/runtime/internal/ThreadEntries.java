package org.picothreads.runtime.internal;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaConversionException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.picothreads.runtime.PicoThread;

/**
 * Enters a new PicoThread's first activation as a continuation, fresh, so that the thread never needs the frame
 * check's walk ({@link CaptureSafety}) for the blocking calls its first activation makes into the runtime, nor for those
 * of the helpers of its class that activation calls (which it enters fresh in turn, {@link Frame#requestFreshEntry()}).
 *
 * <p>Without this, the driver ({@link DispatchFrame}) starts a thread through {@code thread.run()}: PicoThread's
 * {@code run} calls its target's, which for a lambda is the proxy's, which calls the lambda's body. None of those
 * frames is a continuation, so the thread's first capture walks its stack to find out that nothing foreign stands in
 * the way; for a program that starts many short threads that block once (a million threads that each sleep), the walk
 * and the garbage it leaves are most of what a thread costs. Yet those frames only forward: the driver may call the
 * continuation of the method they lead to directly, with the same receiver and values, and what stands below it is
 * then the driver's own, as below a lazily resumed activation.
 *
 * <p>The driver does so on a thread's first dispatch when the method its {@code run} leads to is one the
 * transformer listed as a thread entry ({@link Rewritten#threadEntries()}, whose continuation keeps the entry that runs
 * it from its start) in a class with a resume entry:
 * <ul>
 * <li>the {@code run()} of a rewritten subclass of Thread, on the thread itself;</li>
 * <li>the {@code run()} of the thread's target, when the thread's own {@code run} is PicoThread's;</li>
 * <li>the body of the target's lambda, when the target is a lambda proxy whose creation the transformer linked through
 *     {@link #metafactory} (a {@code Runnable} made from a method of its own class): the bootstrap makes the real
 *     lambda with {@link LambdaMetafactory} and records, for the proxy's class, a handle that reads the proxy's captured
 *     values and calls the body's continuation with them. It records nothing, and the lambda starts through its proxy,
 *     when the caller is not a class's own lookup, the class's marker does not list the body, or the proxy does not
 *     hold its values as the JDK's proxies do.</li>
 * </ul>
 * The handle is called with a fresh entry requested; its continuation runs the method from its start, and a capture
 * in it ends by returning to the driver, which then finds the capture under way.
 *
 * <p>A runtime pool's worker runs each task given to {@code execute} the same way ({@link #freshEntry}), as does the
 * wrapper of a {@code Runnable} given to {@code submit}; a runtime future runs a {@code Callable} given to
 * {@code submit} so too ({@link #freshCallEntry}): a lambda, whose entry the bootstrap records as it records a
 * {@code Runnable}'s, or an object of a class whose {@code call()} the transformer listed as a thread entry. What
 * stands below the task's first activation is then the worker's loop and the future, which
 * follow the capture protocol by hand, and the driver's frames, so a task's first capture needs no walk either.
 */
public final class ThreadEntries {
    /** A class's run entry: for a lambda proxy, set by {@link #metafactory}; otherwise computed from the marker. */
    private static final ClassValue<Entry> ENTRIES = new ClassValue<>() {
        @Override
        protected Entry computeValue(Class<?> type) {
            return CaptureSafety.isLambdaProxy(type) ? new Entry(null, null)
                    : new Entry(runEntry(type), callEntry(type));
        }
    };

    /** Whether a thread class's {@code run} is PicoThread's own, which calls its target's. */
    private static final ClassValue<Boolean> RUNS_TARGET = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("run").getDeclaringClass() == PicoThread.class;
            } catch (NoSuchMethodException | SecurityException unknown) {
                return false;
            }
        }
    };

    /** The type of every entry's handle: the receiver, the thread or its target. */
    private static final MethodType ENTRY_TYPE = MethodType.methodType(void.class, Object.class);
    /** The type of a {@code Callable} lambda's entry: the receiver, the proxy; the body's value. */
    private static final MethodType CALL_ENTRY_TYPE = MethodType.methodType(Object.class, Object.class);
    private static final String RUN_KEY = "run()V";
    /** A {@code Callable}'s {@code call}, as its interface declares it. */
    private static final String CALL_KEY = "call()Ljava/lang/Object;";

    private ThreadEntries() {
    }

    /** How the driver enters the first activation of a receiver of one class. */
    private static final class Entry {
        /** Of type {@link #ENTRY_TYPE}, or null when the class's run cannot be entered fresh. */
        volatile MethodHandle handle;
        /**
         * Of type {@link #CALL_ENTRY_TYPE} for a {@code Callable} whose call can be: a lambda's proxy, or a class whose
         * {@code call()} the marker lists; otherwise null.
         */
        volatile MethodHandle call;

        Entry(MethodHandle handle, MethodHandle call) {
            this.handle = handle;
            this.call = call;
        }
    }

    /**
     * The bootstrap the transformer gives the invokedynamic that creates a {@code Runnable} or {@code Callable} lambda
     * whose body is a thread entry of the calling class, in place of {@link LambdaMetafactory#metafactory} with the same
     * arguments: the lambda is the one the JDK makes, and the driver may enter its body fresh when a PicoThread runs it
     * (a {@code Runnable}), a runtime pool's worker or future when it runs it as a task (either).
     */
    public static CallSite metafactory(MethodHandles.Lookup caller, String interfaceMethodName, MethodType factoryType,
            MethodType interfaceMethodType, MethodHandle implementation, MethodType dynamicMethodType)
            throws LambdaConversionException {
        CallSite site = LambdaMetafactory.metafactory(caller, interfaceMethodName, factoryType, interfaceMethodType,
                implementation, dynamicMethodType);
        try {
            recordLambda(caller, factoryType, interfaceMethodType, implementation, site);
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable notEnterable) {
            // the lambda is the JDK's all the same; a thread running it starts through its run()
        }
        return site;
    }

    private static void recordLambda(MethodHandles.Lookup caller, MethodType factoryType,
            MethodType interfaceMethodType, MethodHandle implementation, CallSite site) throws Throwable {
        Class<?> host = caller.lookupClass();
        boolean runnable = factoryType.returnType() == Runnable.class
                && interfaceMethodType.equals(MethodType.methodType(void.class));
        boolean callable = factoryType.returnType() == Callable.class
                && interfaceMethodType.equals(MethodType.methodType(Object.class));
        if ((caller.lookupModes() & MethodHandles.Lookup.ORIGINAL) == 0 || !runnable && !callable) {
            return;
        }
        MethodHandleInfo body = caller.revealDirect(implementation);
        String key = body.getName() + body.getMethodType().toMethodDescriptorString();
        if (body.getDeclaringClass() != host || !listsThreadEntry(host, key)) {
            return;
        }
        MethodType bodyType = body.getMethodType();
        MethodHandle continuation = switch (body.getReferenceKind()) {
            case MethodHandleInfo.REF_invokeStatic -> caller.findStatic(host, body.getName(),
                    bodyType.appendParameterTypes(Frame.class));
            case MethodHandleInfo.REF_invokeSpecial, MethodHandleInfo.REF_invokeVirtual,
                    MethodHandleInfo.REF_invokeInterface -> Modifier.isPrivate(body.getModifiers())
                            ? caller.findStatic(host, body.getName(), instanceContinuationType(host, bodyType)) : null;
            default -> null;
        };
        if (continuation == null) {
            return;
        }
        // the continuation's last parameter is always null; the others are exactly the values the lambda captures
        continuation = MethodHandles.insertArguments(continuation, continuation.type().parameterCount() - 1,
                (Object) null);
        Class<?> value = continuation.type().returnType();
        if (!continuation.type().parameterList().equals(factoryType.parameterList())
                || (runnable ? value != void.class : value.isPrimitive())) {
            return;
        }
        Object probe = site.getTarget().invokeWithArguments(defaultValues(factoryType));
        Class<?> proxy = probe.getClass();
        if (!CaptureSafety.isLambdaProxy(proxy) || proxy.getNestHost() != host.getNestHost()) {
            return;
        }
        int captured = factoryType.parameterCount();
        MethodHandle entry;
        if (captured == 0) {
            entry = MethodHandles.dropArguments(continuation, 0, proxy);
        } else {
            // the JDK's proxy holds the captured values in the fields arg$1, arg$2, ... in order
            MethodHandle[] values = new MethodHandle[captured];
            for (int index = 0; index < captured; index++) {
                values[index] = caller.findGetter(proxy, "arg$" + (index + 1), factoryType.parameterType(index));
            }
            entry = MethodHandles.permuteArguments(MethodHandles.filterArguments(continuation, 0, values),
                    MethodType.methodType(value, proxy), new int[captured]);
        }
        if (runnable) {
            ENTRIES.get(proxy).handle = entry.asType(ENTRY_TYPE);
        } else {
            ENTRIES.get(proxy).call = entry.asType(CALL_ENTRY_TYPE);
        }
    }

    /** The zero or null of each parameter of {@code type}, for a probe of the proxy's class. */
    private static Object[] defaultValues(MethodType type) throws Throwable {
        Object[] values = new Object[type.parameterCount()];
        for (int index = 0; index < values.length; index++) {
            values[index] = MethodHandles.zero(type.parameterType(index)).invoke();
        }
        return values;
    }

    /** The {@code run()V} entry of a class, declared by it or inherited, when the marker lists it; else null. */
    private static MethodHandle runEntry(Class<?> type) {
        try {
            Method run = type.getMethod("run");
            Class<?> declaring = run.getDeclaringClass();
            if (run.getReturnType() != void.class || Modifier.isStatic(run.getModifiers())
                    || !listsThreadEntry(declaring, RUN_KEY)) {
                return null;
            }
            return freshInstanceEntry(declaring, "run", MethodType.methodType(void.class)).asType(ENTRY_TYPE);
        } catch (ReflectiveOperationException | IllegalArgumentException | SecurityException notThere) {
            return null;
        }
    }

    /**
     * The {@code call()} entry of a {@code Callable} class, of type {@link #CALL_ENTRY_TYPE}: the {@code Object call()}
     * that {@code Callable.call} dispatches to (a covariant {@code call}'s bridge), declared by the class or inherited,
     * when the marker of the class declaring it lists it; else null.
     */
    private static MethodHandle callEntry(Class<?> type) {
        if (!Callable.class.isAssignableFrom(type)) {
            return null;
        }
        try {
            MethodType callType = MethodType.methodType(Object.class);
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            Class<?> declaring = lookup.revealDirect(lookup.findVirtual(type, "call", callType)).getDeclaringClass();
            if (declaring.isInterface() || !listsThreadEntry(declaring, CALL_KEY)) {
                return null;
            }
            return freshInstanceEntry(declaring, "call", callType).asType(CALL_ENTRY_TYPE);
        } catch (ReflectiveOperationException | IllegalArgumentException | SecurityException notThere) {
            return null;
        }
    }

    /**
     * The continuation of the parameterless instance method {@code name} of {@code type} that {@code declaring}
     * declares, found through a private lookup in it, with its unused last argument given: a handle that takes the
     * receiver.
     */
    private static MethodHandle freshInstanceEntry(Class<?> declaring, String name, MethodType type)
            throws ReflectiveOperationException {
        MethodHandle continuation = MethodHandles.privateLookupIn(declaring, MethodHandles.lookup())
                .findStatic(declaring, name, instanceContinuationType(declaring, type));
        return MethodHandles.insertArguments(continuation, 1, (Object) null);
    }

    /**
     * The type of the continuation of an instance method of {@code owner} of {@code type}: static, the receiver first,
     * then the method's parameters and the unused {@link Continuation} (see the transformer's
     * {@code ContinuationMethod}).
     */
    private static MethodType instanceContinuationType(Class<?> owner, MethodType type) {
        return type.insertParameterTypes(0, owner).appendParameterTypes(Continuation.class);
    }

    /** True when {@code type}'s marker lists {@code method} as a thread entry and the class has a resume entry. */
    private static boolean listsThreadEntry(Class<?> type, String method) {
        Rewritten marker = type.getAnnotation(Rewritten.class);
        return marker != null && Arrays.asList(marker.threadEntries()).contains(method)
                && DispatchFrame.hasResumeEntry(type);
    }

    /**
     * For an activation that follows the capture protocol by hand and runs tasks (a runtime pool's worker): the handle,
     * of type {@code (Object)void}, that enters {@code task}'s first activation fresh, as the driver enters a thread's,
     * with the fresh entry already requested; null, and nothing requested, when {@code task} is not a thread entry or
     * the caller is not a carrier running a PicoThread (it then calls {@code task.run()}). The caller invokes the handle
     * itself, so that no other frame stands between it and the task's, and then asks {@link #capturedByReturn()}.
     */
    public static MethodHandle freshEntry(Runnable task) {
        return requestedFresh(entry(task));
    }

    /**
     * {@link #freshEntry} for a {@code Callable} task (a runtime future's): the handle, of type
     * {@code (Object)Object}, that enters the first activation of a {@code Callable} lambda's body, or of a rewritten
     * class's {@code call()}, fresh, answering its value (null when captured), with the fresh entry already
     * requested; null, and nothing requested, otherwise (the caller then calls {@code task.call()}).
     */
    public static MethodHandle freshCallEntry(Callable<?> task) {
        return requestedFresh(task == null ? null : ENTRIES.get(task.getClass()).call);
    }

    /** {@code entry} with a fresh entry requested on this carrier's frame; null when null or not on a carrier's task. */
    private static MethodHandle requestedFresh(MethodHandle entry) {
        Carrier carrier = entry == null ? null : Carrier.here();
        if (carrier == null || carrier.frame.task() == null) {
            return null;
        }
        carrier.frame.requestFreshEntry();
        return entry;
    }

    /**
     * True, after a {@link #freshEntry} handle returned, when the task's activations were captured and the capture
     * ended by returning: the caller then captures its own activation and throws {@link Capture#SIGNAL} on.
     */
    public static boolean capturedByReturn() {
        Carrier carrier = Carrier.here();
        return carrier != null && carrier.frame.capturing();
    }

    /**
     * The object whose {@code run} a new thread's first dispatch runs: the thread itself when its class overrides
     * PicoThread's {@code run}, else its target (null when it has none).
     */
    static Object firstReceiver(Task task) {
        Thread thread = task.thread;
        return RUNS_TARGET.get(thread.getClass()) ? task.target() : thread;
    }

    /**
     * The handle, of type {@code (Object)void}, that enters the first activation of {@code receiver}'s {@code run}
     * as a continuation, after a fresh entry is requested; null when that activation cannot be entered so.
     */
    static MethodHandle entry(Object receiver) {
        return receiver == null ? null : ENTRIES.get(receiver.getClass()).handle;
    }
}
