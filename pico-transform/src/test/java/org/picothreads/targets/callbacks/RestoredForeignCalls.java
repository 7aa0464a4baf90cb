package org.picothreads.targets.callbacks;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Restored activations that block again through frames that cannot be captured, with nothing between them and the
 * frame check's end but the resume driver: each thread here sleeps once directly, so that from then on its activation
 * is a restored one (a continuation, where the frame check stops its walk), and then, in every round, blocks through
 * {@code MethodHandle.invokeExact}, through {@code Method.invoke} and through {@code List.forEach}, each of which
 * must pin, and through a rewritten helper, which must suspend. Every blocking call is wrapped in a catch of
 * Throwable, so that a capture signal escaping to user code, or a frame run twice, shows in the result.
 */
public final class RestoredForeignCalls {
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    private RestoredForeignCalls() {
    }

    /** Sleeps, then doubles. */
    public static int napTwice(int value) {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return value * 2;
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        MethodHandle nap = LOOKUP.findStatic(RestoredForeignCalls.class, "napTwice",
                MethodType.methodType(int.class, int.class));
        Method reflected = RestoredForeignCalls.class.getMethod("napTwice", int.class);
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int thread = index;
            threads[index] = new Thread(() -> results[thread] = "thread " + thread + ": "
                    + blockAfterRestore(nap, reflected, thread));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static String blockAfterRestore(MethodHandle nap, Method reflected, int thread) {
        StringBuilder trace = new StringBuilder();
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        for (int round = 0; round < 3; round++) {
            trace.append(" r").append(round);
            try {
                trace.append(" exact ").append((int) nap.invokeExact(thread + round));
            } catch (Throwable thrown) {
                trace.append(" caught ").append(thrown);
            }
            try {
                trace.append(" reflected ").append(reflected.invoke(null, thread * round));
            } catch (Throwable thrown) {
                trace.append(" caught ").append(thrown);
            }
            try {
                List.of(1, 2).forEach(value -> trace.append(" each ").append(napTwice(value)));
            } catch (Throwable thrown) {
                trace.append(" caught ").append(thrown);
            }
            try {
                trace.append(" helper ").append(napTwice(round));
            } catch (Throwable thrown) {
                trace.append(" caught ").append(thrown);
            }
        }
        return trace.toString();
    }
}
