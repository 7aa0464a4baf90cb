package org.picothreads.runtime.concurrent;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.Callable;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.runtime.internal.ThreadEntries;

/**
 * A Runnable seen as a Callable that gives a fixed result, as {@code Executors.callable(Runnable, Object)}, but
 * with a {@code call()} that follows the capture protocol by hand, so that a Runnable task that blocks suspends its
 * worker instead of pinning it behind the JDK's adapter frame:
 *
 * <pre>
 * call site 0: running the Runnable   saved: nothing (the Runnable restores its own frames)
 * </pre>
 */
@Rewritten({"call()Ljava/lang/Object;"})
final class RunnableCallable<V> implements Callable<V> {
    private static final String CALL = "org/picothreads/runtime/concurrent/RunnableCallable.call()Ljava/lang/Object;";
    /** This class's own lookup, which lets it reach the entry points for its own methods. */
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    private final Runnable runnable;
    private final V result;

    RunnableCallable(Runnable runnable, V result) {
        if (runnable == null) {
            throw new NullPointerException();
        }
        this.runnable = runnable;
        this.result = result;
    }

    /**
     * The resume entry through which the runtime re-enters a saved activation of {@link #call()}: true when it was
     * captured again (the entry stops the signal).
     */
    @SuppressWarnings("unused")
    private static boolean $picothreads$resume(Object receiver, int method) {
        try {
            Continuation.returnedObject(((RunnableCallable<?>) receiver).call());
            return false;
        } catch (Capture signal) {
            return true;
        }
    }

    @Override
    public V call() {
        Frame frame = null;
        if (Continuation.restoring() != 0) {
            frame = Continuation.resumeChecked(CALL, LOOKUP);
        }
        try {
            if (frame != null && (frame.resumePoint() & 1) != 0) {
                Continuation.resultVoid();
            } else {
                MethodHandle entry = ThreadEntries.freshEntry(runnable);
                if (entry == null) {
                    runnable.run();
                } else {
                    // a thread entry runs from its continuation, as a pool worker runs one (PoolWorker)
                    entry.invokeExact((Object) runnable);
                    if (ThreadEntries.capturedByReturn()) {
                        throw Capture.SIGNAL;
                    }
                }
            }
        } catch (Capture signal) {
            Continuation.captureChecked(this, 0, 0, CALL, LOOKUP);
            throw signal;
        } catch (Throwable failure) {
            // what the task threw goes on unchanged, a checked exception thrown sneakily by run() included
            throw RunnableCallable.<RuntimeException>unchanged(failure);
        }
        return result;
    }

    @Override
    public String toString() {
        return super.toString() + "[Wrapped task = " + runnable + "]";
    }

    /** Throws {@code failure} as it is, a checked exception included, where the compiler sees a {@code T}. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T unchanged(Throwable failure) throws T {
        throw (T) failure;
    }
}
