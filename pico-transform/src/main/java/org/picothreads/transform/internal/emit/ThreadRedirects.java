package org.picothreads.transform.internal.emit;

import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * The table of java.lang.Thread members that rewritten code reaches through the runtime instead: the
 * static methods (sleep, yield, currentThread, interrupted) and the final instance methods (join,
 * isAlive, setDaemon), which a subclass cannot override. Each maps to a static method of
 * {@code org.picothreads.runtime.internal.ThreadCalls}; final instance methods gain the thread as their
 * first parameter.
 */
public final class ThreadRedirects {
    /** One redirected member: its runtime name and descriptor, and whether it can block. */
    public record Redirect(String runtimeName, String runtimeDescriptor, boolean blocking) {
    }

    private static final Map<String, Redirect> STATIC_METHODS = Map.of(
            "currentThread()Ljava/lang/Thread;", new Redirect("currentThread", "()Ljava/lang/Thread;", false),
            "sleep(J)V", new Redirect("sleep", "(J)V", true),
            "sleep(JI)V", new Redirect("sleep", "(JI)V", true),
            "sleep(Ljava/time/Duration;)V", new Redirect("sleep", "(Ljava/time/Duration;)V", true),
            "yield()V", new Redirect("yieldNow", "()V", true),
            "interrupted()Z", new Redirect("interrupted", "()Z", false));

    private static final Map<String, Redirect> FINAL_INSTANCE_METHODS = Map.of(
            "join()V", new Redirect("join", "(Ljava/lang/Thread;)V", true),
            "join(J)V", new Redirect("join", "(Ljava/lang/Thread;J)V", true),
            "join(JI)V", new Redirect("join", "(Ljava/lang/Thread;JI)V", true),
            "join(Ljava/time/Duration;)Z", new Redirect("join", "(Ljava/lang/Thread;Ljava/time/Duration;)Z", true),
            "isAlive()Z", new Redirect("isAlive", "(Ljava/lang/Thread;)Z", false),
            "setDaemon(Z)V", new Redirect("setDaemon", "(Ljava/lang/Thread;Z)V", false));

    /** The runtime methods that can block, as {@code name+descriptor}. */
    private static final Set<String> BLOCKING_RUNTIME_METHODS = blockingRuntimeMethods();

    private ThreadRedirects() {
    }

    /**
     * The redirect for a call instruction, or null when the call does not reach one of the redirected
     * members of java.lang.Thread. {@code owner} may be a subclass of Thread that inherits the member.
     */
    public static Redirect forCall(int opcode, String owner, String name, String descriptor,
            ClassHierarchy hierarchy) {
        Map<String, Redirect> table;
        if (opcode == Opcodes.INVOKESTATIC) {
            table = STATIC_METHODS;
        } else if (opcode == Opcodes.INVOKEVIRTUAL || opcode == Opcodes.INVOKESPECIAL) {
            table = FINAL_INSTANCE_METHODS;
        } else {
            return null;
        }
        Redirect redirect = table.get(name + descriptor);
        if (redirect == null || !resolvesToThread(owner, name + descriptor, hierarchy)) {
            return null;
        }
        return redirect;
    }

    /** True when the runtime method {@code ThreadCalls.name+descriptor} can block. */
    public static boolean isBlockingPrimitive(String owner, String name, String descriptor) {
        return owner.equals(RuntimeNames.THREAD_CALLS) && BLOCKING_RUNTIME_METHODS.contains(name + descriptor);
    }

    /** The runtime type a NEW of {@code type} creates instead, or {@code type} itself. */
    public static String replacementType(String type) {
        return type.equals(RuntimeNames.THREAD) ? RuntimeNames.PICO_THREAD : type;
    }

    /** Whether {@code owner.member} is java.lang.Thread's own member rather than one a subclass redeclared. */
    private static boolean resolvesToThread(String owner, String member, ClassHierarchy hierarchy) {
        if (owner.equals(RuntimeNames.THREAD)) {
            return true;
        }
        for (ClassHierarchy.ClassInfo info : hierarchy.superclassChain(owner)) {
            if (info.name().equals(RuntimeNames.THREAD)) {
                return true;
            }
            if (info.methodAccess(member) != null) {
                return false;
            }
        }
        return false;
    }

    private static Set<String> blockingRuntimeMethods() {
        java.util.HashSet<String> methods = new java.util.HashSet<>();
        for (Redirect redirect : STATIC_METHODS.values()) {
            if (redirect.blocking()) {
                methods.add(redirect.runtimeName() + redirect.runtimeDescriptor());
            }
        }
        for (Redirect redirect : FINAL_INSTANCE_METHODS.values()) {
            if (redirect.blocking()) {
                methods.add(redirect.runtimeName() + redirect.runtimeDescriptor());
            }
        }
        return Set.copyOf(methods);
    }
}
