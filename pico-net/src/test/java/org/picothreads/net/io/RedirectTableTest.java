package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;
import org.picothreads.transform.internal.Redirects;

/**
 * The redirect table against the real classes, including the pico-net replacement types that pico-transform's own
 * test cannot load.
 */
class RedirectTableTest {
    private static final String PICO_NET_PACKAGE = "org/picothreads/net/";
    private static final String IO_CALLS = "org/picothreads/runtime/internal/IoCalls";

    @Test
    void every_redirect_target_is_a_public_static_method_with_its_descriptor() throws Exception {
        int checked = 0;
        for (Redirects.Redirect target : Redirects.table().allTargets()) {
            Class<?> owner = Class.forName(target.owner().replace('/', '.'));
            Method found = null;
            for (Method method : owner.getMethods()) {
                if (method.getName().equals(target.name())
                        && Type.getMethodDescriptor(method).equals(target.descriptor())) {
                    found = method;
                }
            }
            assertTrue(found != null, owner.getName() + " has no public method " + target.name() + target.descriptor());
            assertTrue(Modifier.isStatic(found.getModifiers()), target.name() + target.descriptor() + " must be static");
            if (target.owner().equals(IO_CALLS)) {
                checked++;
            }
        }
        assertEquals(119, checked, "java.io entries in the table");
    }

    @Test
    void every_pico_net_replacement_extends_its_jdk_type_and_declares_all_its_public_constructors() throws Exception {
        int checked = 0;
        for (Map.Entry<String, String> entry : Redirects.table().replacedTypes().entrySet()) {
            if (!entry.getValue().startsWith(PICO_NET_PACKAGE)) {
                continue;
            }
            Class<?> jdkType = Class.forName(entry.getKey().replace('/', '.'));
            Class<?> replacement = Class.forName(entry.getValue().replace('/', '.'));
            assertEquals(jdkType, replacement.getSuperclass(), replacement + " must extend " + jdkType);
            Set<String> declared = new HashSet<>();
            for (Constructor<?> constructor : replacement.getConstructors()) {
                declared.add(Type.getConstructorDescriptor(constructor));
            }
            for (Constructor<?> constructor : jdkType.getConstructors()) {
                String descriptor = Type.getConstructorDescriptor(constructor);
                assertTrue(declared.contains(descriptor), replacement.getName() + " lacks " + descriptor);
            }
            checked++;
        }
        assertTrue(checked >= 11, "only " + checked + " pico-net replacement types in the table");
    }

    @Test
    void every_io_decorator_is_a_replacement_and_its_blocking_calls_are_known_to_suspend() {
        Map<String, String> replaced = Redirects.table().replacedTypes();
        assertEquals("org/picothreads/net/io/PicoBufferedReader", replaced.get("java/io/BufferedReader"));
        assertEquals("org/picothreads/net/io/PicoDataOutputStream", replaced.get("java/io/DataOutputStream"));
        assertTrue(Redirects.table().isBlockingTarget(IO_CALLS, "readLine",
                "(Ljava/io/BufferedReader;)Ljava/lang/String;"));
        assertTrue(Redirects.table().isBlockingTarget(IO_CALLS, "println",
                "(Ljava/io/PrintStream;Ljava/lang/String;)V"));
    }
}
