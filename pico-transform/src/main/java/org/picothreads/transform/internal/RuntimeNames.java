package org.picothreads.transform.internal;

import java.util.Set;
import org.objectweb.asm.Opcodes;

/**
 * The ASM API level and every internal name and descriptor of pico-runtime that rewritten code refers to.
 * A test checks these strings against the real runtime classes.
 */
public final class RuntimeNames {
    /** The ASM API version every visitor and interpreter uses. */
    public static final int ASM_API = Opcodes.ASM9;

    public static final String THREAD = "java/lang/Thread";
    public static final String RUNNABLE = "java/lang/Runnable";
    public static final String CALLABLE = "java/util/concurrent/Callable";
    public static final String OBJECT = "java/lang/Object";

    public static final String PICO_THREAD = "org/picothreads/runtime/PicoThread";
    public static final String THREAD_CALLS = "org/picothreads/runtime/internal/ThreadCalls";
    public static final String CONCURRENT_CALLS = "org/picothreads/runtime/concurrent/ConcurrentCalls";
    public static final String CONTINUATION = "org/picothreads/runtime/internal/Continuation";
    public static final String FRAME = "org/picothreads/runtime/internal/Frame";
    public static final String CAPTURE = "org/picothreads/runtime/internal/Capture";
    public static final String MONITORS = "org/picothreads/runtime/internal/Monitors";
    /**
     * Static field of {@link #MONITORS}: how many PicoThreads are suspended owning a runtime monitor; read after the
     * MONITORENTER of each region that cannot suspend, which asks {@link #MUST_BACK_OFF} only when it is not zero.
     */
    public static final String SUSPENDED_HOLDERS_FIELD = "suspendedHolders";
    public static final String SUSPENDED_HOLDERS_DESCRIPTOR = "I";
    /** Monitors method: must a region that cannot suspend leave the JVM monitor it has just entered? */
    public static final String MUST_BACK_OFF = "mustBackOff";
    public static final String MUST_BACK_OFF_DESCRIPTOR = "(Ljava/lang/Object;)Z";
    /** Monitors method: blocks, after such a region has left the JVM monitor, until the runtime monitor is free. */
    public static final String AWAIT_UNOWNED = "awaitUnowned";
    public static final String AWAIT_UNOWNED_DESCRIPTOR = "(Ljava/lang/Object;)V";
    public static final String CALLER_TOKEN = "org/picothreads/runtime/internal/CallerToken";
    /**
     * Static method of {@link #CALLER_TOKEN} that stores the token, called before each call that can suspend into the
     * runtime's package (never before other calls: the store would cost every call of a method that can suspend).
     */
    public static final String PASS_TOKEN = "pass";
    public static final String PASS_TOKEN_DESCRIPTOR = "(Ljava/lang/Object;)V";
    /**
     * Static method of {@link #CALLER_TOKEN} with which a continuation stores its restored frame as the token, saying
     * that it tests for a capture under way after the call ({@link #CAPTURE_UNDER_WAY}), so the runtime may end a
     * capture by returning to it.
     */
    public static final String PASS_CHECKING_TOKEN = "passChecking";
    /** {@link #FRAME} method a continuation calls after a call into the runtime: true when it must save itself. */
    public static final String CAPTURE_UNDER_WAY = "captureUnderWay";
    public static final String CAPTURE_UNDER_WAY_DESCRIPTOR = "()Z";

    /** Package prefix of pico-net, whose types and methods some redirects lead to. */
    public static final String NET_PACKAGE = "org/picothreads/net/";
    /**
     * A class of pico-net that every pico-net jar holds: when the classes being transformed or their classpath hold
     * it, the program has pico-net at run time and the java.net and java.io redirects to pico-net apply; otherwise
     * they are left out, so that the rewritten program needs only pico-runtime.
     */
    public static final String NET_PROBE = "org/picothreads/net/ChannelCalls";
    /** pico-net's blocking primitive, which its rewritten streams and sockets call to wait for a channel. */
    public static final String NET_IO_WAIT = "org/picothreads/net/internal/IoWait";

    /** Package prefix of the runtime, which is never rewritten. */
    public static final String RUNTIME_PACKAGE = "org/picothreads/runtime/";

    /** Class annotation that marks a class file rewritten by PicoThreads and lists its capturing methods. */
    public static final String REWRITTEN_MARKER = "Lorg/picothreads/runtime/internal/Rewritten;";
    /**
     * Element of {@link #REWRITTEN_MARKER} naming the methods that reach a blocking call but were left without capture
     * code: the runtime's frame check never captures through their frames.
     */
    public static final String NOT_CAPTURABLE_ELEMENT = "notCapturable";
    /**
     * Element of {@link #REWRITTEN_MARKER} giving, per capturing method, the bytecode offsets of its suspension call
     * sites: the frame check accepts a frame that called a lambda proxy only at one of them.
     */
    public static final String SITES_ELEMENT = "sites";
    /**
     * Element of {@link #REWRITTEN_MARKER} giving, per capturing method, one letter per suspension call site saying
     * what of a frame the frame check must read to know it is stopped there: the offset, the name, or the descriptor
     * too (see SiteKeys).
     */
    public static final String SITE_KEYS_ELEMENT = "siteKeys";

    /**
     * Continuation's bootstrap of the invokedynamic instructions that reach {@link #RESUME} and {@link #CAPTURE_METHOD},
     * with the calling method's key as its one static argument.
     */
    public static final String LINK = "link";
    public static final String LINK_DESCRIPTOR = "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
            + "Ljava/lang/invoke/MethodType;Ljava/lang/String;)Ljava/lang/invoke/CallSite;";
    /** The invokedynamic name and type of the resume entry: the key is bound by {@link #LINK}. */
    public static final String RESUME = "resume";
    public static final String RESUME_DESCRIPTOR = "()L" + FRAME + ";";
    /**
     * The invokedynamic name and type of the capture entry: the receiver (null in a static method), the site and the
     * counts; the method's key and class are bound by {@link #LINK}.
     */
    public static final String CAPTURE_METHOD = "capture";
    public static final String CAPTURE_DESCRIPTOR = "(Ljava/lang/Object;IJ)L" + FRAME + ";";
    /** The checked entries that class files too old for invokedynamic call, with their own lookup after the key. */
    public static final String RESUME_CHECKED = "resumeChecked";
    public static final String RESUME_CHECKED_DESCRIPTOR = "(Ljava/lang/String;Ljava/lang/invoke/MethodHandles$Lookup;)L"
            + FRAME + ";";
    public static final String CAPTURE_CHECKED = "captureChecked";
    public static final String CAPTURE_CHECKED_DESCRIPTOR =
            "(Ljava/lang/Object;IJLjava/lang/String;Ljava/lang/invoke/MethodHandles$Lookup;)L" + FRAME + ";";
    /** The JDK's MethodHandles.lookup(), which gives a class its own lookup. */
    public static final String METHOD_HANDLES = "java/lang/invoke/MethodHandles";
    public static final String LOOKUP = "lookup";
    public static final String LOOKUP_DESCRIPTOR = "()Ljava/lang/invoke/MethodHandles$Lookup;";
    /** Frame method asked by a capture handler: does this activation save its call's arguments (the innermost)? */
    public static final String SAVES_ARGUMENTS = "savesArguments";
    public static final String SAVES_ARGUMENTS_DESCRIPTOR = "()Z";
    /** The bit of a capture's site that marks a call site where JVM monitors are held. */
    public static final int SITE_HOLDS_MONITORS = 1 << 31;
    /** The largest index of a capturing method within its class, which a capture's site holds in 15 bits. */
    public static final int LARGEST_METHOD_INDEX = (1 << 15) - 1;
    /** The largest count of values of one kind a capture saves, which its counts hold in 16 bits each. */
    public static final int LARGEST_SAVED_COUNT = (1 << 16) - 1;

    /**
     * The resume entry of every class with capturing methods: a private static synthetic method through which the
     * runtime re-enters a saved activation, calling the method non-virtually with default arguments; it answers true
     * when the method was captured again (it stops the capture signal).
     */
    public static final String RESUME_ENTRY = "$picothreads$resume";
    public static final String RESUME_ENTRY_DESCRIPTOR = "(Ljava/lang/Object;I)Z";
    /**
     * The parameter a method's continuation adds after the method's own (the resume entry passes null): the copy of a
     * capturing method, private and synthetic, with the same name, that holds its restore code.
     */
    public static final String CONTINUATION_PARAMETER = "L" + FRAME + ";";
    /**
     * The parameter the continuation of an instance method adds after the method's own, in place of
     * {@link #CONTINUATION_PARAMETER}: such a continuation is static, and takes the receiver as its first parameter,
     * in local 0 as before, so that a site where the receiver is dead saves none (the resume entry passes null); the
     * other type keeps it apart from the continuation of a static method of the same name that takes the class first.
     */
    public static final String INSTANCE_CONTINUATION_PARAMETER = "L" + CONTINUATION + ";";
    /** The prefix of a capture helper's name, followed by the method's index, {@code $} and the site's resume point. */
    public static final String CAPTURE_HELPER_PREFIX = "$picothreads$capture$";
    /** The runtime class whose methods make the errors a continuation throws when its restore goes wrong. */
    public static final String RESUME_ERRORS = "org/picothreads/runtime/internal/ResumeErrors";
    public static final String INVALID_RESUME_POINT = "invalidResumePoint";
    public static final String INVALID_RESUME_POINT_DESCRIPTOR = "(Ljava/lang/String;)Ljava/lang/IllegalStateException;";
    /** The method that makes the error a continuation throws when called with no saved frame to restore. */
    public static final String CONTINUATION_REFUSED = "continuationRefused";
    public static final String CONTINUATION_REFUSED_DESCRIPTOR = "(Ljava/lang/String;)Ljava/lang/IllegalCallerException;";
    /** Continuation method called first by a resume entry, which refuses a call that is not the runtime's. */
    public static final String RESUME_ENTRY_CALLED = "resumeEntryCalled";
    /**
     * Continuation methods through which a resume entry hands over the value its continuation returned, or learns
     * that the continuation was captured again (its capture handler returns a default value instead of throwing the
     * signal into the entry): each answers the entry's own answer, true when captured.
     */
    public static final String RETURNED_UNLESS_CAPTURED = "returnedUnlessCaptured";
    public static final String RETURNED_UNLESS_CAPTURED_DESCRIPTOR = "(JC)Z";
    public static final String RETURNED_OBJECT_UNLESS_CAPTURED = "returnedObjectUnlessCaptured";
    public static final String RETURNED_OBJECT_UNLESS_CAPTURED_DESCRIPTOR = "(Ljava/lang/Object;)Z";
    public static final String RETURNED_NOTHING_UNLESS_CAPTURED = "returnedNothingUnlessCaptured";
    public static final String RETURNED_NOTHING_UNLESS_CAPTURED_DESCRIPTOR = "()Z";
    /**
     * Continuation method that each exception handler of a continuation calls with the exception it caught and the
     * method's key, so that an exception made since the lazy resume gets the saved activations in its stack trace.
     */
    public static final String CAUGHT_AFTER_RESUME = "caughtAfterResume";
    public static final String CAUGHT_AFTER_RESUME_DESCRIPTOR = "(Ljava/lang/Throwable;Ljava/lang/String;)V";
    public static final String PIN = "pin";
    public static final String UNPIN = "unpin";
    public static final String RESUME_POINT = "resumePoint";
    /**
     * {@link #FRAME} method a continuation calls right before it calls, bound at compile time, the continuation of a
     * capturing method of its own class, which then runs from its start as a restored activation would (resume point
     * -1): its calls into the runtime need no frame check, and its captures return to the caller.
     */
    public static final String REQUEST_FRESH_ENTRY = "requestFreshEntry";
    public static final String REQUEST_FRESH_ENTRY_DESCRIPTOR = "()V";
    public static final String RESUME_POINT_DESCRIPTOR = "()I";

    /**
     * Element of {@link #REWRITTEN_MARKER} naming the capturing methods whose continuations the runtime may enter fresh
     * as a new thread's or a pool task's first activation (an instance {@code run()V}, a {@code Runnable} or
     * {@code Callable} lambda's body).
     */
    public static final String THREAD_ENTRIES_ELEMENT = "threadEntries";
    /** The JDK's lambda bootstrap, which the runtime's {@link #THREAD_ENTRY_BOOTSTRAP} calls and stands in for. */
    public static final String LAMBDA_METAFACTORY = "java/lang/invoke/LambdaMetafactory";
    public static final String METAFACTORY = "metafactory";
    public static final String METAFACTORY_DESCRIPTOR = "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
            + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;"
            + "Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;";
    /**
     * The class whose {@link #METAFACTORY} (with {@link #METAFACTORY_DESCRIPTOR}) links the creation of a
     * {@code Runnable} or {@code Callable} lambda whose body is a thread entry: it makes the JDK's lambda and lets the
     * runtime enter the body fresh when a PicoThread, or a runtime pool, runs it.
     */
    public static final String THREAD_ENTRY_BOOTSTRAP = "org/picothreads/runtime/internal/ThreadEntries";

    /**
     * The runtime's blocking entries that, invoked again by the innermost activation of a resumed thread, read none of
     * their arguments: the sleeps {@code Thread.sleep} and {@code TimeUnit.sleep} are redirected to, which on that call
     * only complete the wait the runtime kept (its deadline is the task's; the {@code Duration} and {@code TimeUnit}
     * forms ask {@code Continuation.reinvoking()} before they read anything). A captured call of one saves no
     * arguments; the restore passes zeros and nulls.
     */
    private static final Set<String> REINVOKED_WITHOUT_ARGUMENTS = Set.of(
            THREAD_CALLS + ".sleep(J)V", THREAD_CALLS + ".sleep(JI)V", THREAD_CALLS + ".sleep(Ljava/time/Duration;)V",
            CONCURRENT_CALLS + ".sleep(Ljava/util/concurrent/TimeUnit;J)V");

    private RuntimeNames() {
    }

    /** True when {@code owner.name} is a bootstrap that makes lambdas: the JDK's, or the runtime's that calls it. */
    public static boolean isLambdaBootstrap(String owner) {
        return owner.equals(LAMBDA_METAFACTORY) || owner.equals(THREAD_ENTRY_BOOTSTRAP);
    }

    /**
     * Name of the Continuation method that gives a continuing activation the outcome of its call, for a call
     * returning the given type: "resultVoid", "resultInt" (for every int-like type), ..., "resultObject".
     */
    public static String result(org.objectweb.asm.Type returnType) {
        return switch (returnType.getSort()) {
            case org.objectweb.asm.Type.VOID -> "resultVoid";
            case org.objectweb.asm.Type.LONG -> "resultLong";
            case org.objectweb.asm.Type.FLOAT -> "resultFloat";
            case org.objectweb.asm.Type.DOUBLE -> "resultDouble";
            case org.objectweb.asm.Type.OBJECT, org.objectweb.asm.Type.ARRAY -> "resultObject";
            default -> "resultInt";
        };
    }

    /** Descriptor of the {@link #result} method for a call returning the given type. */
    public static String resultDescriptor(org.objectweb.asm.Type returnType) {
        return switch (returnType.getSort()) {
            case org.objectweb.asm.Type.VOID -> "()V";
            case org.objectweb.asm.Type.LONG -> "()J";
            case org.objectweb.asm.Type.FLOAT -> "()F";
            case org.objectweb.asm.Type.DOUBLE -> "()D";
            case org.objectweb.asm.Type.OBJECT, org.objectweb.asm.Type.ARRAY -> "()Ljava/lang/Object;";
            default -> "()I";
        };
    }

    /** Name of the Frame method that saves a value of the given sort ("Int", "Long", ...). */
    public static String framePush(String kind) {
        return "push" + kind;
    }

    /** Name of the Frame method that restores a value of the given sort. */
    public static String framePop(String kind) {
        return "pop" + kind;
    }

    /** True for classes of the runtime itself, which are never rewritten. */
    public static boolean isRuntimeClass(String internalName) {
        return internalName.startsWith(RUNTIME_PACKAGE);
    }

    /**
     * True when a call into {@code owner} that can suspend passes the caller token ({@code CallerToken}): the
     * runtime's classes, and pico-net's wait primitive ({@link #NET_IO_WAIT}), which takes the token as the runtime's
     * blocking entries do.
     */
    public static boolean takesCallerToken(String owner) {
        return isRuntimeClass(owner) || owner.equals(NET_IO_WAIT);
    }

    /** True when a call of {@code owner.name+descriptor} invoked again after a resume ignores its arguments. */
    public static boolean isReinvokedWithoutArguments(String owner, String name, String descriptor) {
        return REINVOKED_WITHOUT_ARGUMENTS.contains(owner + "." + name + descriptor);
    }
}
