package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.picothreads.runtime.concurrent.PicoAbstractQueuedSynchronizer;
import org.picothreads.targets.synchronizers.QueuedSynchronizers;
import org.picothreads.transform.testing.TransformingClassLoader;

/**
 * Synchronizers a program builds on AbstractQueuedSynchronizer: rewritten, they extend the runtime's, their queue
 * holds the PicoThreads that wait, and they behave as on platform threads.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class QueuedSynchronizersTest {
    private static final String TARGET_PACKAGE = QueuedSynchronizers.class.getPackageName() + ".";
    private static final String MUTEX = QueuedSynchronizers.class.getName() + "$Mutex";

    @Test
    void synchronizers_built_on_abstract_queued_synchronizer_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(QueuedSynchronizers.class);
    }

    @Test
    void a_subclass_of_abstract_queued_synchronizer_extends_the_runtime_one_and_makes_runtime_conditions()
            throws Exception {
        TransformingClassLoader loader = TransformingClassLoader.forPackages(TARGET_PACKAGE);

        Class<?> mutex = loader.loadClass(MUTEX);

        assertEquals(PicoAbstractQueuedSynchronizer.class, mutex.getSuperclass());
        List<String> calls = callsOf(loader.rewrittenBytes(MUTEX), "newCondition");
        assertEquals(List.of("NEW org/picothreads/runtime/concurrent/PicoAbstractQueuedSynchronizer$PicoConditionObject",
                "INVOKESPECIAL org/picothreads/runtime/concurrent/PicoAbstractQueuedSynchronizer$PicoConditionObject"
                        + ".<init>(Ljava/util/concurrent/locks/AbstractQueuedSynchronizer;)V"), calls);
    }

    @Test
    void calls_of_the_final_methods_of_abstract_queued_synchronizer_go_to_the_runtime() throws Exception {
        TransformingClassLoader loader = TransformingClassLoader.forPackages(TARGET_PACKAGE);

        List<String> calls = callsOf(loader.rewrittenBytes(QueuedSynchronizers.class.getName()), "sharedAndFair");

        assertTrue(calls.contains("INVOKESTATIC org/picothreads/runtime/concurrent/SynchronizerCalls.acquireShared"
                + "(Ljava/util/concurrent/locks/AbstractQueuedSynchronizer;I)V"), calls::toString);
        assertTrue(calls.contains("INVOKESTATIC org/picothreads/runtime/concurrent/SynchronizerCalls"
                + ".hasQueuedPredecessors(Ljava/util/concurrent/locks/AbstractQueuedSynchronizer;)Z"), calls::toString);
        assertTrue(calls.stream().noneMatch(call -> call.contains("QueuedSynchronizers$Mutex.acquire")
                || call.contains("QueuedSynchronizers$BooleanLatch.releaseShared")), calls::toString);
    }

    /** The NEW instructions and method calls of the methods named {@code methodName} in a class file. */
    private static List<String> callsOf(byte[] classFile, String methodName) {
        List<String> calls = new ArrayList<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                if (!name.equals(methodName)) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        if (opcode == Opcodes.NEW) {
                            calls.add("NEW " + type);
                        }
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name, String descriptor,
                            boolean isInterface) {
                        String kind = switch (opcode) {
                            case Opcodes.INVOKESTATIC -> "INVOKESTATIC";
                            case Opcodes.INVOKESPECIAL -> "INVOKESPECIAL";
                            case Opcodes.INVOKEINTERFACE -> "INVOKEINTERFACE";
                            default -> "INVOKEVIRTUAL";
                        };
                        calls.add(kind + " " + owner + "." + name + descriptor);
                    }
                };
            }
        }, 0);
        return calls;
    }
}
