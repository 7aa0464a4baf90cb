package org.picothreads.transform.internal.emit;

import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.internal.RuntimeNames;

/**
 * Links the creation of a {@code Runnable} or {@code Callable} lambda whose body is a capturing method of its own class
 * through the runtime's bootstrap ({@code ThreadEntries.metafactory}) instead of the JDK's
 * {@code LambdaMetafactory.metafactory}, with the same arguments: the lambda is the JDK's all the same, and when a
 * PicoThread runs a {@code Runnable} one, or a runtime pool runs either as a task, the runtime enters the body's
 * continuation fresh as the first activation, so that the first capture needs no stack walk. The body is listed in
 * the marker as a thread entry, and its continuation keeps its fresh entry.
 *
 * <pre>
 * invokedynamic run(captured...)Runnable  LambdaMetafactory.metafactory  ()V, Owner.lambda$m$0(captured...)V, ()V
 *   becomes
 * invokedynamic run(captured...)Runnable  ThreadEntries.metafactory      ()V, Owner.lambda$m$0(captured...)V, ()V
 * (and so for call(captured...)Callable with ()Object, Owner.lambda$m$1(captured...)R, ()R)
 * </pre>
 *
 * Only the plain bootstrap is linked so (a serializable lambda, or one with markers or bridges, goes through
 * {@code altMetafactory}, whose deserialization names the body), and only for a body the runtime can call without
 * dispatch: a static method, or a private instance one. An instruction has the same size and stack effect either way.
 */
public final class ThreadEntryLinks {
    private static final Type RUN_TYPE = Type.getMethodType(Type.VOID_TYPE);
    private static final String RUNNABLE_RESULT = ")L" + RuntimeNames.RUNNABLE + ";";
    private static final Type CALL_TYPE = Type.getMethodType(Type.getObjectType(RuntimeNames.OBJECT));
    private static final String CALLABLE_RESULT = ")L" + RuntimeNames.CALLABLE + ";";

    private ThreadEntryLinks() {
    }

    /**
     * The body, as {@code name+descriptor}, of the {@code Runnable} or {@code Callable} lambda that {@code instruction}
     * creates, when it is
     * a method of {@code owner} that {@code declared} finds (by {@code name+descriptor}) and may be a thread entry;
     * otherwise null.
     */
    public static String lambdaBody(AbstractInsnNode instruction, String owner, Function<String, MethodNode> declared) {
        if (!(instruction instanceof InvokeDynamicInsnNode dynamic) || !isPlainTaskLambda(dynamic.bsm, dynamic.name,
                dynamic.desc, dynamic.bsmArgs) || !(dynamic.bsmArgs[1] instanceof Handle body)
                || !body.getOwner().equals(owner)) {
            return null;
        }
        MethodNode method = declared.apply(body.getName() + body.getDesc());
        if (method == null) {
            return null;
        }
        boolean callable = switch (body.getTag()) {
            case Opcodes.H_INVOKESTATIC -> (method.access & Opcodes.ACC_STATIC) != 0;
            case Opcodes.H_INVOKESPECIAL, Opcodes.H_INVOKEVIRTUAL, Opcodes.H_INVOKEINTERFACE ->
                    (method.access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) == Opcodes.ACC_PRIVATE;
            default -> false;
        };
        return callable ? body.getName() + body.getDesc() : null;
    }

    /** Links each creation in {@code method} of a lambda whose body {@code threadEntries} lists through the runtime. */
    public static void link(MethodNode method, String owner, Set<String> threadEntries) {
        for (AbstractInsnNode instruction : method.instructions) {
            if (instruction instanceof InvokeDynamicInsnNode dynamic && linked(dynamic.bsm, dynamic.name, dynamic.desc,
                    dynamic.bsmArgs, owner, threadEntries)) {
                dynamic.bsm = bootstrap();
            }
        }
    }

    /** A visitor that links, as {@link #link} does, the method's code passing through it to {@code target}. */
    public static MethodVisitor linking(MethodVisitor target, String owner, Set<String> threadEntries) {
        return new MethodVisitor(RuntimeNames.ASM_API, target) {
            @Override
            public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrapMethodHandle,
                    Object... bootstrapMethodArguments) {
                Handle bootstrap = linked(bootstrapMethodHandle, name, descriptor, bootstrapMethodArguments, owner,
                        threadEntries) ? bootstrap() : bootstrapMethodHandle;
                super.visitInvokeDynamicInsn(name, descriptor, bootstrap, bootstrapMethodArguments);
            }
        };
    }

    private static boolean linked(Handle bootstrap, String name, String descriptor, Object[] arguments, String owner,
            Set<String> threadEntries) {
        return isPlainTaskLambda(bootstrap, name, descriptor, arguments) && arguments[1] instanceof Handle body
                && body.getOwner().equals(owner) && threadEntries.contains(body.getName() + body.getDesc());
    }

    /**
     * True for the JDK's plain lambda bootstrap making a {@code Runnable} ({@code run()V}) or a {@code Callable} (its
     * {@code call()} returning a reference).
     */
    private static boolean isPlainTaskLambda(Handle bootstrap, String name, String descriptor, Object[] arguments) {
        if (!bootstrap.getOwner().equals(RuntimeNames.LAMBDA_METAFACTORY)
                || !bootstrap.getName().equals(RuntimeNames.METAFACTORY)
                || !bootstrap.getDesc().equals(RuntimeNames.METAFACTORY_DESCRIPTOR) || arguments.length != 3) {
            return false;
        }
        if (name.equals("run") && descriptor.endsWith(RUNNABLE_RESULT)) {
            return RUN_TYPE.equals(arguments[0]) && RUN_TYPE.equals(arguments[2]);
        }
        return name.equals("call") && descriptor.endsWith(CALLABLE_RESULT) && CALL_TYPE.equals(arguments[0])
                && arguments[2] instanceof Type instantiated && instantiated.getArgumentTypes().length == 0
                && (instantiated.getReturnType().getSort() == Type.OBJECT
                        || instantiated.getReturnType().getSort() == Type.ARRAY);
    }

    private static Handle bootstrap() {
        return new Handle(Opcodes.H_INVOKESTATIC, RuntimeNames.THREAD_ENTRY_BOOTSTRAP, RuntimeNames.METAFACTORY,
                RuntimeNames.METAFACTORY_DESCRIPTOR, false);
    }
}
