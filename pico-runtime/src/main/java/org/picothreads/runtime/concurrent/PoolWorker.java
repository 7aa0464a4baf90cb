package org.picothreads.runtime.concurrent;

import java.lang.invoke.MethodHandles;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.runtime.internal.ThreadCalls;

/**
 * The loop of one worker thread of a {@link PicoExecutorService}: runs its first task, then takes tasks until the
 * pool lets it go. Its {@code run()} follows the capture protocol by hand, so that both waiting for a task and a
 * task that blocks suspend the worker's PicoThread:
 *
 * <pre>
 * resume point 0: waiting in pool.nextTask()   saved: nothing
 * resume point 1: running a task               saved: the task
 * </pre>
 */
@Rewritten({"run()V"})
final class PoolWorker implements Runnable {
    private static final String RUN = "org/picothreads/runtime/concurrent/PoolWorker.run()V";
    /** This class's own lookup, which lets it reach the entry points for its own methods. */
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final int TAKING = 0;
    private static final int RUNNING = 1;

    private final PicoExecutorService pool;
    /** The task to run first; null once taken. */
    private Runnable firstTask;

    PoolWorker(PicoExecutorService pool, Runnable firstTask) {
        this.pool = pool;
        this.firstTask = firstTask;
    }

    @Override
    public void run() {
        Runnable task = null;
        int resumePoint = -1;
        if (Continuation.restoring() != 0) {
            Frame frame = Continuation.resumeChecked(RUN, LOOKUP);
            if (frame != null) {
                resumePoint = frame.resumePoint();
                if (resumePoint == RUNNING) {
                    task = (Runnable) frame.popObject();
                }
            }
        }
        if (resumePoint < 0) {
            task = firstTask;
            firstTask = null;
        }
        while (true) {
            if (resumePoint != RUNNING && task == null) {
                try {
                    task = pool.nextTask();
                } catch (Capture signal) {
                    Continuation.captureChecked(TAKING, 0, 0, RUN, LOOKUP);
                    throw signal;
                }
                if (task == null) {
                    return;
                }
            }
            resumePoint = -1;
            try {
                task.run();
            } catch (Capture signal) {
                Frame frame = Continuation.captureChecked(RUNNING, 1, 0, RUN, LOOKUP);
                frame.pushObject(task);
                throw signal;
            } catch (Throwable failure) {
                report(failure);
            }
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
