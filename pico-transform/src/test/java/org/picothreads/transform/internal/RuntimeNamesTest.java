package org.picothreads.transform.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;
import org.picothreads.transform.internal.Redirects;
import org.picothreads.runtime.PicoThread;
import org.picothreads.runtime.concurrent.ConcurrentCalls;
import org.picothreads.runtime.internal.CallerToken;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Monitors;
import org.picothreads.runtime.internal.ResumeErrors;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.ThreadEntries;

class RuntimeNamesTest {
    private static final String PICO_NET_PACKAGE = "org/picothreads/net/";
    private static final String SAVED_METHOD = "org.picothreads.runtime.internal.SavedMethod";
    private static final String SITE_LAYOUT = "org.picothreads.runtime.internal.SiteLayout";

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
        assertStatic(Continuation.class, RuntimeNames.LINK, RuntimeNames.LINK_DESCRIPTOR);
        assertStatic(Continuation.class, RuntimeNames.RESUME_CHECKED, RuntimeNames.RESUME_CHECKED_DESCRIPTOR);
        assertStatic(Continuation.class, RuntimeNames.CAPTURE_CHECKED, RuntimeNames.CAPTURE_CHECKED_DESCRIPTOR);
        // the linked entries are the private methods with the key (for capture, the method with its class) bound by link
        assertEquals(RuntimeNames.RESUME_DESCRIPTOR, withoutParameters(Continuation.class.getDeclaredMethod(
                RuntimeNames.RESUME, String.class), 0, 1));
        assertEquals(RuntimeNames.CAPTURE_DESCRIPTOR, withoutParameters(Continuation.class.getDeclaredMethod(
                RuntimeNames.CAPTURE_METHOD, Object.class, Class.forName(SAVED_METHOD), int.class, long.class), 1, 2));
        assertStatic(MethodHandles.class, RuntimeNames.LOOKUP, RuntimeNames.LOOKUP_DESCRIPTOR);
        assertEquals(Type.getInternalName(MethodHandles.class), RuntimeNames.METHOD_HANDLES);
        assertStatic(Continuation.class, RuntimeNames.PIN, "()V");
        assertStatic(Continuation.class, RuntimeNames.CAUGHT_AFTER_RESUME, RuntimeNames.CAUGHT_AFTER_RESUME_DESCRIPTOR);
        assertStatic(Continuation.class, RuntimeNames.UNPIN, "()V");
        assertStatic(CallerToken.class, RuntimeNames.PASS_TOKEN, RuntimeNames.PASS_TOKEN_DESCRIPTOR);
        assertEquals(Type.getInternalName(ResumeErrors.class),
                RuntimeNames.RESUME_ERRORS);
        assertStatic(ResumeErrors.class, RuntimeNames.INVALID_RESUME_POINT,
                RuntimeNames.INVALID_RESUME_POINT_DESCRIPTOR);
        assertStatic(ResumeErrors.class, RuntimeNames.CONTINUATION_REFUSED,
                RuntimeNames.CONTINUATION_REFUSED_DESCRIPTOR);
        assertEquals(Type.getInternalName(CallerToken.class), RuntimeNames.CALLER_TOKEN);
        assertEquals(Type.getDescriptor(Rewritten.class), RuntimeNames.REWRITTEN_MARKER);
        assertEquals(String[].class, Rewritten.class.getMethod(RuntimeNames.NOT_CAPTURABLE_ELEMENT).getReturnType());
        assertEquals(String[].class, Rewritten.class.getMethod(RuntimeNames.SITES_ELEMENT).getReturnType());
        assertEquals(String[].class, Rewritten.class.getMethod(RuntimeNames.SITE_KEYS_ELEMENT).getReturnType());
        assertTrue(RuntimeNames.isRuntimeClass(RuntimeNames.CALLER_TOKEN));
        assertEquals(RuntimeNames.RESUME_POINT_DESCRIPTOR,
                Type.getMethodDescriptor(Frame.class.getMethod(RuntimeNames.RESUME_POINT)));
        for (String kind : new String[] {"Int", "Long", "Float", "Double", "Object"}) {
            assertTrue(Frame.class.getMethod(RuntimeNames.framePush(kind), primitiveOf(kind)) != null);
            assertEquals(primitiveOf(kind), Frame.class.getMethod(RuntimeNames.framePop(kind)).getReturnType());
        }
    }

    @Test
    void the_lazy_resume_members_have_the_names_and_descriptors_rewritten_code_and_resume_entries_use()
            throws Exception {
        assertStatic(Continuation.class, RuntimeNames.RESUME_ENTRY_CALLED, "()V");
        assertStatic(Continuation.class, RuntimeNames.RETURNED_UNLESS_CAPTURED,
                RuntimeNames.RETURNED_UNLESS_CAPTURED_DESCRIPTOR);
        assertStatic(Continuation.class, RuntimeNames.RETURNED_OBJECT_UNLESS_CAPTURED,
                RuntimeNames.RETURNED_OBJECT_UNLESS_CAPTURED_DESCRIPTOR);
        assertStatic(Continuation.class, RuntimeNames.RETURNED_NOTHING_UNLESS_CAPTURED,
                RuntimeNames.RETURNED_NOTHING_UNLESS_CAPTURED_DESCRIPTOR);
        for (Type type : new Type[] {Type.VOID_TYPE, Type.BOOLEAN_TYPE, Type.CHAR_TYPE, Type.INT_TYPE, Type.LONG_TYPE,
                Type.FLOAT_TYPE, Type.DOUBLE_TYPE, Type.getType(String.class), Type.getType(int[].class)}) {
            assertStatic(Continuation.class, RuntimeNames.result(type), RuntimeNames.resultDescriptor(type));
        }
        assertEquals(RuntimeNames.SAVES_ARGUMENTS_DESCRIPTOR,
                Type.getMethodDescriptor(Frame.class.getMethod(RuntimeNames.SAVES_ARGUMENTS)));
        Class<?> driver = Class.forName("org.picothreads.runtime.internal.DispatchFrame");
        Field entryName = driver.getDeclaredField("RESUME_ENTRY");
        entryName.setAccessible(true);
        assertEquals(RuntimeNames.RESUME_ENTRY, entryName.get(null));
        Field entryDescriptor = driver.getDeclaredField("RESUME_ENTRY_DESCRIPTOR");
        entryDescriptor.setAccessible(true);
        assertEquals(RuntimeNames.RESUME_ENTRY_DESCRIPTOR, entryDescriptor.get(null));
        Field holdsMonitors = Class.forName(SITE_LAYOUT).getDeclaredField("HOLDS_MONITORS");
        holdsMonitors.setAccessible(true);
        assertEquals(RuntimeNames.SITE_HOLDS_MONITORS, holdsMonitors.get(null));
    }

    @Test
    void monitors_members_have_the_descriptors_rewritten_code_uses() throws Exception {
        assertEquals(Type.getInternalName(Monitors.class), RuntimeNames.MONITORS);
        Field suspendedHolders = Monitors.class.getField(RuntimeNames.SUSPENDED_HOLDERS_FIELD);
        assertTrue(Modifier.isStatic(suspendedHolders.getModifiers()));
        assertEquals(RuntimeNames.SUSPENDED_HOLDERS_DESCRIPTOR, Type.getDescriptor(suspendedHolders.getType()));
        assertStatic(Monitors.class, RuntimeNames.MUST_BACK_OFF, RuntimeNames.MUST_BACK_OFF_DESCRIPTOR);
        assertStatic(Monitors.class, RuntimeNames.AWAIT_UNOWNED, RuntimeNames.AWAIT_UNOWNED_DESCRIPTOR);
    }

    @Test
    void every_redirect_target_is_a_static_runtime_method_with_its_descriptor() throws Exception {
        for (Redirects.Redirect target : Redirects.table().allTargets()) {
            if (isPicoNetClass(target.owner())) {
                continue;
            }
            Class<?> owner = Class.forName(target.owner().replace('/', '.'));
            assertStatic(owner, target.name(), target.descriptor());
        }
        assertTrue(Redirects.table().isBlockingTarget(RuntimeNames.THREAD_CALLS, "sleep", "(J)V"));
        assertFalse(Redirects.table().isBlockingTarget(RuntimeNames.THREAD_CALLS, "currentThread",
                "()Ljava/lang/Thread;"));
    }

    @Test
    void every_replacement_type_extends_its_jdk_type_and_declares_all_its_public_constructors() throws Exception {
        for (Map.Entry<String, String> entry : Redirects.table().replacedTypes().entrySet()) {
            if (isPicoNetClass(entry.getValue())) {
                continue;
            }
            Class<?> jdkType = Class.forName(entry.getKey().replace('/', '.'));
            Class<?> replacement = Class.forName(entry.getValue().replace('/', '.'));
            assertEquals(jdkType, replacement.getSuperclass(), replacement + " must extend " + jdkType);
            Set<String> declared = new HashSet<>();
            for (var constructor : replacement.getConstructors()) {
                declared.add(Type.getConstructorDescriptor(constructor));
            }
            for (var constructor : jdkType.getConstructors()) {
                String descriptor = Type.getConstructorDescriptor(constructor);
                assertTrue(declared.contains(descriptor), replacement.getName() + " lacks " + descriptor);
            }
        }
    }

    @Test
    void the_entries_invoked_again_without_their_arguments_are_the_runtime_sleeps_redirects_reach() throws Exception {
        assertStatic(ThreadCalls.class, "sleep", "(J)V");
        assertStatic(ThreadCalls.class, "sleep", "(JI)V");
        assertStatic(ThreadCalls.class, "sleep", "(Ljava/time/Duration;)V");
        assertStatic(ConcurrentCalls.class, "sleep", "(Ljava/util/concurrent/TimeUnit;J)V");
        assertEquals(Type.getInternalName(ConcurrentCalls.class), RuntimeNames.CONCURRENT_CALLS);
        // Thread.sleep's and TimeUnit.sleep's redirects lead there, and only there
        List<Redirects.Redirect> sleeps = List.of(
                new Redirects.Redirect(RuntimeNames.THREAD_CALLS, "sleep", "(J)V", true),
                new Redirects.Redirect(RuntimeNames.THREAD_CALLS, "sleep", "(JI)V", true),
                new Redirects.Redirect(RuntimeNames.THREAD_CALLS, "sleep", "(Ljava/time/Duration;)V", true),
                new Redirects.Redirect(RuntimeNames.CONCURRENT_CALLS, "sleep", "(Ljava/util/concurrent/TimeUnit;J)V",
                        true));
        for (Redirects.Redirect sleep : sleeps) {
            assertTrue(Redirects.table().allTargets().contains(sleep), sleep::toString);
            assertTrue(RuntimeNames.isReinvokedWithoutArguments(sleep.owner(), sleep.name(), sleep.descriptor()),
                    sleep::toString);
        }
        // the joins read the thread they join, or answer with it, when invoked again: they are not listed
        assertFalse(RuntimeNames.isReinvokedWithoutArguments(RuntimeNames.THREAD_CALLS, "join",
                "(Ljava/lang/Thread;J)V"));
        assertFalse(RuntimeNames.isReinvokedWithoutArguments(RuntimeNames.CONCURRENT_CALLS, "timedJoin",
                "(Ljava/util/concurrent/TimeUnit;Ljava/lang/Thread;J)V"));
    }

    @Test
    void the_thread_entry_bootstrap_and_marker_element_have_the_names_and_descriptors_rewritten_code_uses()
            throws Exception {
        assertEquals(Type.getInternalName(ThreadEntries.class), RuntimeNames.THREAD_ENTRY_BOOTSTRAP);
        assertEquals(Type.getInternalName(LambdaMetafactory.class), RuntimeNames.LAMBDA_METAFACTORY);
        assertStatic(ThreadEntries.class, RuntimeNames.METAFACTORY, RuntimeNames.METAFACTORY_DESCRIPTOR);
        assertStatic(LambdaMetafactory.class, RuntimeNames.METAFACTORY, RuntimeNames.METAFACTORY_DESCRIPTOR);
        assertEquals(String[].class, Rewritten.class.getMethod(RuntimeNames.THREAD_ENTRIES_ELEMENT).getReturnType());
        assertTrue(RuntimeNames.isLambdaBootstrap(RuntimeNames.THREAD_ENTRY_BOOTSTRAP));
        assertTrue(RuntimeNames.isLambdaBootstrap(RuntimeNames.LAMBDA_METAFACTORY));
        assertFalse(RuntimeNames.isLambdaBootstrap("java/lang/invoke/StringConcatFactory"));
    }

    /** pico-net is not on this module's test classpath: its entries are checked by pico-net's own tests. */
    private static boolean isPicoNetClass(String internalName) {
        return internalName.startsWith(PICO_NET_PACKAGE);
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

    /** The method's descriptor without its parameters from {@code from} (inclusive) to {@code to} (exclusive). */
    private static String withoutParameters(Method method, int from, int to) {
        java.util.List<Type> parameters = new java.util.ArrayList<>(java.util.List.of(Type.getArgumentTypes(method)));
        parameters.subList(from, to).clear();
        return Type.getMethodDescriptor(Type.getReturnType(method), parameters.toArray(Type[]::new));
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
