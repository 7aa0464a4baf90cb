package org.picothreads.transform.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;
import org.picothreads.runtime.PicoThread;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.ThreadCalls;

class RuntimeNamesTest {
    @Test
    void runtime_class_names_match_the_real_runtime_classes() {
        assertEquals(Type.getInternalName(PicoThread.class), RuntimeNames.PICO_THREAD);
        assertEquals(Type.getInternalName(ThreadCalls.class), RuntimeNames.THREAD_CALLS);
        assertEquals(Type.getInternalName(Continuation.class), RuntimeNames.CONTINUATION);
        assertEquals(Type.getInternalName(Frame.class), RuntimeNames.FRAME);
        assertEquals(Type.getInternalName(Capture.class), RuntimeNames.CAPTURE);
        assertTrue(RuntimeNames.isRuntimeClass(RuntimeNames.THREAD_CALLS));
        assertEquals(Thread.class, PicoThread.class.getSuperclass());
    }

    @Test
    void continuation_members_have_the_descriptors_rewritten_code_uses() throws Exception {
        Field restoring = Continuation.class.getField(RuntimeNames.RESTORING_FIELD);
        assertTrue(Modifier.isStatic(restoring.getModifiers()));
        assertEquals(RuntimeNames.RESTORING_DESCRIPTOR, Type.getDescriptor(restoring.getType()));
        assertStatic(Continuation.class, RuntimeNames.RESUME, RuntimeNames.RESUME_DESCRIPTOR);
        assertStatic(Continuation.class, RuntimeNames.CAPTURE_METHOD, RuntimeNames.CAPTURE_DESCRIPTOR);
        assertStatic(Continuation.class, RuntimeNames.PIN, "()V");
        assertStatic(Continuation.class, RuntimeNames.UNPIN, "()V");
        assertEquals(RuntimeNames.RESUME_POINT_DESCRIPTOR,
                Type.getMethodDescriptor(Frame.class.getMethod(RuntimeNames.RESUME_POINT)));
        for (String kind : new String[] {"Int", "Long", "Float", "Double", "Object"}) {
            assertTrue(Frame.class.getMethod(RuntimeNames.framePush(kind), primitiveOf(kind)) != null);
            assertEquals(primitiveOf(kind), Frame.class.getMethod(RuntimeNames.framePop(kind)).getReturnType());
        }
    }

    @Test
    void every_thread_redirect_target_exists_in_thread_calls_with_its_descriptor() throws Exception {
        String[][] targets = {
            {"currentThread", "()Ljava/lang/Thread;"}, {"sleep", "(J)V"}, {"sleep", "(JI)V"},
            {"sleep", "(Ljava/time/Duration;)V"}, {"yieldNow", "()V"}, {"interrupted", "()Z"},
            {"join", "(Ljava/lang/Thread;)V"}, {"join", "(Ljava/lang/Thread;J)V"}, {"join", "(Ljava/lang/Thread;JI)V"},
            {"join", "(Ljava/lang/Thread;Ljava/time/Duration;)Z"}, {"isAlive", "(Ljava/lang/Thread;)Z"},
            {"setDaemon", "(Ljava/lang/Thread;Z)V"},
        };
        for (String[] target : targets) {
            assertStatic(ThreadCalls.class, target[0], target[1]);
        }
    }

    @Test
    void pico_thread_declares_every_public_constructor_of_thread_on_jdk_17() throws Exception {
        String[] descriptors = {"()V", "(Ljava/lang/Runnable;)V", "(Ljava/lang/ThreadGroup;Ljava/lang/Runnable;)V",
            "(Ljava/lang/String;)V", "(Ljava/lang/ThreadGroup;Ljava/lang/String;)V",
            "(Ljava/lang/Runnable;Ljava/lang/String;)V",
            "(Ljava/lang/ThreadGroup;Ljava/lang/Runnable;Ljava/lang/String;)V",
            "(Ljava/lang/ThreadGroup;Ljava/lang/Runnable;Ljava/lang/String;J)V",
            "(Ljava/lang/ThreadGroup;Ljava/lang/Runnable;Ljava/lang/String;JZ)V"};
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (var constructor : PicoThread.class.getConstructors()) {
            declared.add(Type.getConstructorDescriptor(constructor));
        }
        for (String descriptor : descriptors) {
            assertTrue(declared.contains(descriptor), "PicoThread lacks the public constructor " + descriptor);
        }
    }

    private static void assertStatic(Class<?> owner, String name, String descriptor) {
        for (Method method : owner.getMethods()) {
            if (method.getName().equals(name) && Type.getMethodDescriptor(method).equals(descriptor)) {
                assertTrue(Modifier.isStatic(method.getModifiers()), name + descriptor + " must be static");
                return;
            }
        }
        throw new AssertionError(owner.getName() + " has no public method " + name + descriptor);
    }

    private static Class<?> primitiveOf(String kind) {
        return switch (kind) {
            case "Int" -> int.class;
            case "Long" -> long.class;
            case "Float" -> float.class;
            case "Double" -> double.class;
            default -> Object.class;
        };
    }
}
