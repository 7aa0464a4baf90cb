package org.picothreads.runtime.internal;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The targets of {@link Runtime#addShutdownHook} and {@link Runtime#removeShutdownHook} for rewritten code. The JVM
 * starts a hook and waits for it with Thread's own join, which returns at once for a PicoThread, so a PicoThread
 * hook is registered as a platform thread that starts the PicoThread and waits until it has terminated. Platform
 * thread hooks go to the JDK unchanged; the checks and messages are the JDK's.
 */
public final class ShutdownHooks {
    /** Which registered platform thread runs each PicoThread hook; guarded by itself. */
    private static final Map<Thread, Thread> RUNNERS = new IdentityHashMap<>();
    /** The outermost JDK frame of a thread that runs the shutdown sequence. */

    private ShutdownHooks() {
    }

    /** {@link Runtime#addShutdownHook(Thread)}. */
    public static void add(Runtime runtime, Thread hook) {
        Task task = Task.of(hook);
        if (task == null) {
            runtime.addShutdownHook(hook);
            return;
        }
        synchronized (RUNNERS) {
            // Named as the hook, which it is when the hook's run() has to run on it.
            Thread runner = RuntimeThreads.create(() -> run(hook, task), hook.getName(), 0, false);
            runtime.addShutdownHook(runner); // IllegalStateException("Shutdown in progress") comes first, as in the JDK
            String refusal = task.isAlive() ? "Hook already running"
                    : RUNNERS.containsKey(hook) ? "Hook previously registered" : null;
            if (refusal != null) {
                runtime.removeShutdownHook(runner);
                throw new IllegalArgumentException(refusal);
            }
            RUNNERS.put(hook, runner);
        }
    }

    /** {@link Runtime#removeShutdownHook(Thread)}: true if the hook was registered and is no longer. */
    public static boolean remove(Runtime runtime, Thread hook) {
        if (Task.of(hook) == null) {
            return runtime.removeShutdownHook(hook);
        }
        synchronized (RUNNERS) {
            Thread runner = RUNNERS.get(hook);
            if (runner == null) {
                return runtime.removeShutdownHook(hook); // false, or IllegalStateException during shutdown
            }
            boolean removed = runtime.removeShutdownHook(runner);
            if (removed) {
                RUNNERS.remove(hook);
            }
            return removed;
        }
    }

    /**
     * Runs a PicoThread hook during shutdown: starts it and waits until it has terminated. When a carrier itself
     * runs the shutdown (a PicoThread called System.exit), that carrier cannot run PicoThreads until the hooks are
     * done (with one carrier, none can), so the hook's {@code run()} runs on it, in place.
     */
    private static void run(Thread hook, Task task) {
        if (Carrier.isCarrier(Thread.currentThread())) {
            hook.run();
            return;
        }
        hook.start();
        boolean interrupted = false;
        while (true) {
            try {
                task.awaitTermination(0);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
