package org.picothreads.transform.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Runs a validation target, a class with {@code public static String run() throws Exception}, either as
 * compiled (on platform threads) or transformed (on PicoThreads). Both are called from the calling thread,
 * which in the tests is JUnit's platform thread; the targets start their own threads and join them.
 */
public final class TargetRunner {
    private TargetRunner() {
    }

    /** Runs the target as compiled, with java.lang.Thread. */
    public static String runPlain(Class<?> target) throws Exception {
        return run(target);
    }

    /** Transforms the target's package (subpackages included) and runs the transformed copy of the target. */
    public static String runTransformed(Class<?> target) throws Exception {
        TransformingClassLoader loader = TransformingClassLoader.forPackages(target.getPackageName() + ".");
        return run(loader.transformedCopyOf(target));
    }

    /** Calls {@code run()} of an already loaded target class and returns its result. */
    public static String run(Class<?> loadedTarget) throws Exception {
        return (String) callStatic(loadedTarget, "run", new Class<?>[0]);
    }

    /**
     * Calls a public static method, rethrowing what the method threw as it was thrown.
     *
     * @param type           the class declaring the method
     * @param methodName     its name
     * @param parameterTypes its parameter types
     * @param arguments      the arguments
     */
    public static Object callStatic(Class<?> type, String methodName, Class<?>[] parameterTypes, Object... arguments)
            throws Exception {
        Method method = type.getMethod(methodName, parameterTypes);
        try {
            return method.invoke(null, arguments);
        } catch (InvocationTargetException exception) {
            Throwable cause = exception.getCause();
            if (cause instanceof Exception checked) {
                throw checked;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw exception;
        }
    }
}
