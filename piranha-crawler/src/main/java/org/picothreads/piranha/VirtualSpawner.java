package org.picothreads.piranha;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.picothreads.piranha.api.Spawner;

/**
 * A JDK virtual thread per task, reached through {@code Thread.startVirtualThread} by a method handle, so that
 * Piranha, compiled for Java 17, still runs on JDK 17 and there reports virtual mode unavailable.
 */
final class VirtualSpawner implements Spawner {

    /** {@code Thread.startVirtualThread(Runnable)}, or null before JDK 21. */
    private static final MethodHandle START_VIRTUAL_THREAD = findStartVirtualThread();

    /** Whether this JVM has virtual threads. */
    static boolean isAvailable() {
        return START_VIRTUAL_THREAD != null;
    }

    @Override
    public boolean start(Runnable task) {
        try {
            Thread started = (Thread) START_VIRTUAL_THREAD.invokeExact(task);
            return started != null;
        } catch (RuntimeException | Error failure) {
            throw failure;
        } catch (Throwable impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static MethodHandle findStartVirtualThread() {
        if (Runtime.version().feature() < 21) {
            return null;
        }
        try {
            return MethodHandles.publicLookup().findStatic(Thread.class, "startVirtualThread",
                    MethodType.methodType(Thread.class, Runnable.class));
        } catch (ReflectiveOperationException absent) {
            return null;
        }
    }
}
