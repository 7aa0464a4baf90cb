package org.picothreads.runtime.concurrent;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.ThreadEntries;

/**
 * The loop of one worker thread of a {@link PicoExecutorService}: runs its first task, then takes tasks until the
 * pool lets it go. Its {@code run()} follows the capture protocol by hand, so that both waiting for a task and a
 * task that blocks suspend the worker's PicoThread:
 *
 * <pre>
 * call site 0: waiting in pool.nextTask()   saved: nothing     continued with the task taken
 * call site 1: running a task               saved: the task    continued when the task returned or threw
 * </pre>
 *
 * A task that is a thread entry (a {@code Runnable} lambda's body, a rewritten class's {@code run()}) runs from its
 * continuation, entered fresh as the driver enters a new thread's ({@code ThreadEntries.freshEntry}): below it stand
 * only this activation and the driver's frames, so its first capture needs no walk and ends by returning here.
 */
@Rewritten({"run()V"})
final class PoolWorker implements Runnable {
    private static final String RUN = "org/picothreads/runtime/concurrent/PoolWorker.run()V";
    /** This class's own lookup, which lets it reach the entry points for its own methods. */
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final int TAKING = 0;
    private static final int RUNNING = 1;
    private static final long SAVES_NOTHING = 0;
    private static final long SAVES_THE_TASK = 1L << 48;

    private final PicoExecutorService pool;
    /** The task to run first; null once taken. */
    private Runnable firstTask;

    PoolWorker(PicoExecutorService pool, Runnable firstTask) {
        this.pool = pool;
        this.firstTask = firstTask;
    }

    /**
     * The resume entry through which the runtime re-enters a saved activation of {@link #run()}: true when it was
     * captured again (the entry stops the signal).
     */
    @SuppressWarnings("unused")
    private static boolean $picothreads$resume(Object receiver, int method) {
        try {
            ((PoolWorker) receiver).run();
            return false;
        } catch (Capture signal) {
            return true;
        }
    }

    @Override
    public void run() {
        Runnable task = null;
        int resumePoint = -1;
        if (Continuation.restoring() != 0) {
            Frame frame = Continuation.resumeChecked(RUN, LOOKUP);
            if (frame != null) {
                resumePoint = frame.resumePoint();
                if (resumePoint >> 1 == RUNNING) {
                    task = (Runnable) frame.popObject();
                }
            }
        }
        if (resumePoint < 0) {
            task = firstTask;
            firstTask = null;
        } else if (resumePoint == 2 * TAKING + 1) {
            task = (Runnable) Continuation.resultObject();
            if (task == null) {
                return;
            }
        }
        while (true) {
            if (resumePoint < 0 && task == null || resumePoint == 2 * TAKING) {
                resumePoint = -1;
                try {
                    task = pool.nextTask();
                } catch (Capture signal) {
                    Continuation.captureChecked(this, TAKING, SAVES_NOTHING, RUN, LOOKUP);
                    throw signal;
                }
                if (task == null) {
                    return;
                }
            }
            try {
                if (resumePoint == 2 * RUNNING + 1) {
                    Continuation.resultVoid();
                } else {
                    MethodHandle entry = ThreadEntries.freshEntry(task);
                    if (entry == null) {
                        task.run();
                    } else {
                        entry.invokeExact((Object) task);
                        if (ThreadEntries.capturedByReturn()) {
                            // the task's first activation, entered fresh, was captured: this activation goes on top
                            throw Capture.SIGNAL;
                        }
                    }
                }
            } catch (Capture signal) {
                Frame frame = Continuation.captureChecked(this, RUNNING, SAVES_THE_TASK, RUN, LOOKUP);
                frame.pushObject(task);
                throw signal;
            } catch (Throwable failure) {
                report(failure);
            }
            resumePoint = -1;
            task = null;
        }
    }

    /**
     * A task given to {@code execute} threw: hands the exception to the thread's uncaught exception handler, as the
     * JDK's pools do when the throw ends the worker; this worker then goes on with the next task.
     */
    private static void report(Throwable failure) {
        Thread thread = ThreadCalls.currentThread();
        Thread.UncaughtExceptionHandler handler = thread.getUncaughtExceptionHandler();
        if (handler != null) {
            handler.uncaughtException(thread, failure);
        }
    }
}
