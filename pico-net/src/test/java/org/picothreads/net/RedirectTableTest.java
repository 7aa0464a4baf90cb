package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;
import org.picothreads.net.internal.ChannelWaits;
import org.picothreads.net.internal.IoWait;
import org.picothreads.transform.internal.Redirects;
import org.picothreads.transform.internal.RuntimeNames;

/** The redirect table's pico-net entries, which pico-transform's own test cannot load, against the real classes. */
class RedirectTableTest {
    private static final String PICO_NET_PACKAGE = "org/picothreads/net/";

    @Test
    void every_pico_net_replacement_type_extends_its_jdk_type_and_declares_all_its_public_constructors()
            throws Exception {
        int checked = 0;
        for (Map.Entry<String, String> entry : Redirects.table().replacedTypes().entrySet()) {
            if (!entry.getValue().startsWith(PICO_NET_PACKAGE)) {
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
            checked++;
        }
        assertTrue(checked >= 2, "expected at least Socket and ServerSocket, checked " + checked);
    }

    @Test
    void every_pico_net_redirect_target_is_a_public_static_method_with_its_descriptor() throws Exception {
        for (Redirects.Redirect target : Redirects.table().allTargets()) {
            if (target.owner().startsWith(PICO_NET_PACKAGE)) {
                assertStatic(Class.forName(target.owner().replace('/', '.')), target.name(), target.descriptor());
            }
        }
    }

    @Test
    void the_wait_primitives_are_declared_blocking_with_their_real_descriptors() throws Exception {
        String owner = Type.getInternalName(IoWait.class);
        for (String name : new String[] {"awaitReadable", "awaitWritable", "awaitAcceptable", "awaitConnectable"}) {
            String descriptor = Type.getMethodDescriptor(IoWait.class.getMethod(name, ChannelWaits.class, long.class));
            assertStatic(IoWait.class, name, descriptor);
            assertTrue(Redirects.table().isBlockingTarget(owner, name, descriptor), name + " is not declared blocking");
        }
        // rewritten code passes its caller token to them, as to the runtime's blocking entries
        assertEquals(owner, RuntimeNames.NET_IO_WAIT);
        assertTrue(RuntimeNames.takesCallerToken(owner));
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
}
