package org.picothreads.targets.forgery;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A hand-written class, never rewritten, that finds the members the transformer added to a rewritten class (each
 * capturing method's continuation, the capture helpers, the resume entry) with {@code getDeclaredMethods}, makes them
 * accessible with {@code setAccessible(true)} and calls each twice: with zeros and nulls, and with plausible values.
 * Each call must be refused with a clear error naming what was refused, and change nothing.
 */
public final class DeepReflectionForger {
    /** The prefix of the names of the resume entry and the capture helpers. */
    private static final String GENERATED = "$picothreads$";
    /** The type of a continuation's last parameter. */
    private static final String FRAME = "org.picothreads.runtime.internal.Frame";

    private DeepReflectionForger() {
    }

    /** One round of calls on the generated members of {@code victim}: what each call met, one per line, sorted. */
    public static List<String> attack(Class<?> victim, Object receiver) {
        List<String> met = new ArrayList<>();
        List<Method> generated = new ArrayList<>();
        for (Method method : victim.getDeclaredMethods()) {
            if (isGenerated(method)) {
                generated.add(method);
            }
        }
        generated.sort(Comparator.comparing(Method::toString));
        for (Method method : generated) {
            method.setAccessible(true);
            Object target = Modifier.isStatic(method.getModifiers()) ? null : receiver;
            met.add(attempt(method, "zeros and nulls", target, arguments(method, false, receiver)));
            met.add(attempt(method, "plausible values", target, arguments(method, true, receiver)));
        }
        return met;
    }

    /** True for a member the transformer added: a continuation, a capture helper or the resume entry. */
    public static boolean isGenerated(Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        return method.getName().startsWith(GENERATED)
                || parameters.length > 0 && parameters[parameters.length - 1].getName().equals(FRAME);
    }

    /** Zero or null for each parameter, or a plausible value: 3, the victim for an object, "forged" for a string. */
    private static Object[] arguments(Method method, boolean plausible, Object receiver) {
        Class<?>[] parameters = method.getParameterTypes();
        Object[] arguments = new Object[parameters.length];
        for (int index = 0; index < parameters.length; index++) {
            Class<?> type = parameters[index];
            if (type == boolean.class) {
                arguments[index] = plausible;
            } else if (type == char.class) {
                arguments[index] = plausible ? 'x' : '\0';
            } else if (type == long.class) {
                arguments[index] = plausible ? 3L : 0L;
            } else if (type == float.class) {
                arguments[index] = plausible ? 3f : 0f;
            } else if (type == double.class) {
                arguments[index] = plausible ? 3d : 0d;
            } else if (type == byte.class) {
                arguments[index] = (byte) (plausible ? 3 : 0);
            } else if (type == short.class) {
                arguments[index] = (short) (plausible ? 3 : 0);
            } else if (type == int.class) {
                arguments[index] = plausible ? 3 : 0;
            } else if (plausible && type == String.class) {
                arguments[index] = "forged";
            } else if (plausible && type.isInstance(receiver)) {
                arguments[index] = receiver;
            }
        }
        return arguments;
    }

    /** What a call met: the exception it threw, with its message, or what it returned. */
    private static String attempt(Method method, String which, Object target, Object[] arguments) {
        String call = method.getName() + Arrays.toString(method.getParameterTypes()) + " with " + which + ": ";
        try {
            return call + "returned " + method.invoke(target, arguments);
        } catch (InvocationTargetException thrown) {
            return call + thrown.getCause();
        } catch (ReflectiveOperationException | RuntimeException thrown) {
            return call + thrown;
        }
    }
}
