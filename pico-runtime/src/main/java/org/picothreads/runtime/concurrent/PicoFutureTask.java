package org.picothreads.runtime.concurrent;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.ThreadEntries;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The future of a task submitted to a runtime executor: its {@code run()} follows the capture protocol by hand, so
 * that a task blocking inside it suspends its PicoThread instead of pinning it, and {@code get} suspends only the
 * calling PicoThread; PicoThreads and platform threads may wait for it in any combination.
 *
 * <pre>
 * run():  runTask(), a private method, so that the runtime re-enters it rather than an override of run()
 * runTask(): restoring its innermost saved frame   -> call the task again (it restores its own frames)
 *            restoring a frame the task returned to -> take the task's value or exception
 *            otherwise: claim the task (NEW, not running), then call it
 *            the call throws the capture signal     -> save an empty frame (call site 0), rethrow
 *            the call returns or throws             -> complete, wake the waiters, run the completion hook
 * </pre>
 */
@Rewritten({"runTask()V"})
public class PicoFutureTask<V> implements RunnableFuture<V> {
    private static final String RUN = "org/picothreads/runtime/concurrent/PicoFutureTask.runTask()V";
    /** This class's own lookup, which lets it reach the entry points for its own methods. */
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    private static final int NEW = 0;
    private static final int NORMAL = 1;
    private static final int EXCEPTIONAL = 2;
    private static final int CANCELLED = 3;

    private final Object guard = new Object();
    /** Threads waiting for the outcome. */
    private final WaitQueue waiters = new WaitQueue();
    /** Run after the outcome is set, or null. */
    private final Runnable completionHook;
    /** The task; null once it has completed, or was cancelled before it ran (a restored run still needs it). */
    private Callable<V> callable;
    /** The result, or the exception the task threw. */
    private Object outcome;
    private int state = NEW;
    /** The thread running the task, as user code sees it; null when none does. */
    private Thread runner;

    /** A future that will run {@code callable}. */
    public PicoFutureTask(Callable<V> callable) {
        this(callable, null);
    }

    /** A future that will run {@code runnable} and then give {@code result}. */
    public PicoFutureTask(Runnable runnable, V result) {
        this(Executors.callable(runnable, result), null);
    }

    /** A future that will run {@code callable} and then {@code completionHook}. */
    PicoFutureTask(Callable<V> callable, Runnable completionHook) {
        if (callable == null) {
            throw new NullPointerException();
        }
        this.callable = callable;
        this.completionHook = completionHook;
    }

    @Override
    public void run() {
        runTask();
    }

    /**
     * The resume entry through which the runtime re-enters a saved activation of {@link #runTask()}: true when it was
     * captured again (the entry stops the signal).
     */
    @SuppressWarnings("unused")
    private static boolean $picothreads$resume(Object receiver, int method) {
        try {
            ((PicoFutureTask<?>) receiver).runTask();
            return false;
        } catch (Capture signal) {
            return true;
        }
    }

    private void runTask() {
        Frame frame = null;
        if (Continuation.restoring() != 0) {
            frame = Continuation.resumeChecked(RUN, LOOKUP);
        }
        Callable<V> task;
        if (frame != null) {
            task = callable;
        } else {
            synchronized (guard) {
                if (state != NEW || runner != null) {
                    return;
                }
                runner = ThreadCalls.currentThread();
                task = callable;
            }
        }
        V value;
        try {
            if (frame != null && (frame.resumePoint() & 1) != 0) {
                @SuppressWarnings("unchecked")
                V returned = (V) Continuation.resultObject();
                value = returned;
            } else {
                MethodHandle entry = ThreadEntries.freshCallEntry(task);
                if (entry == null) {
                    value = task.call();
                } else {
                    // a Callable lambda's body runs from its continuation, entered fresh (ThreadEntries)
                    @SuppressWarnings("unchecked")
                    V returned = (V) (Object) entry.invokeExact((Object) task);
                    if (ThreadEntries.capturedByReturn()) {
                        throw Capture.SIGNAL;
                    }
                    value = returned;
                }
            }
        } catch (Capture signal) {
            Continuation.captureChecked(this, 0, 0, RUN, LOOKUP);
            throw signal;
        } catch (Throwable failure) {
            complete(EXCEPTIONAL, failure);
            return;
        }
        if (resetsAfterRun()) {
            synchronized (guard) {
                runner = null;
            }
            return;
        }
        complete(NORMAL, value);
    }

    /**
     * True when a run that returns normally leaves the future not done, ready to run again, as
     * {@link FutureTask#runAndReset()} does for a periodic task; false here.
     */
    boolean resetsAfterRun() {
        return false;
    }

    private void complete(int outcomeState, Object value) {
        synchronized (guard) {
            runner = null;
            if (state != NEW) {
                callable = null;
                return;
            }
            state = outcomeState;
            outcome = value;
            callable = null;
            waiters.wakeAll();
        }
        finished();
    }

    private void finished() {
        done();
        if (completionHook != null) {
            completionHook.run();
        }
    }

    /** Called once the future is done, as {@link FutureTask#done()}; does nothing here. */
    protected void done() {
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        Thread running;
        synchronized (guard) {
            if (state != NEW) {
                return false;
            }
            state = CANCELLED;
            running = runner;
            if (running == null) {
                callable = null;
            }
            waiters.wakeAll();
        }
        if (mayInterruptIfRunning && running != null) {
            running.interrupt();
        }
        finished();
        return true;
    }

    @Override
    public boolean isCancelled() {
        synchronized (guard) {
            return state == CANCELLED;
        }
    }

    @Override
    public boolean isDone() {
        synchronized (guard) {
            return state != NEW;
        }
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        awaitDone(-1);
        return report();
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (!awaitDone(Math.max(0, unit.toNanos(timeout)))) {
            throw new TimeoutException();
        }
        return report();
    }

    /** The blocking primitive behind both gets: true once done, false when {@code nanos} (if not negative) passed. */
    final boolean awaitDone(long nanos) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        return waiter.await(waiters, () -> state != NEW, true, this);
    }

    /** True once the task has completed without throwing and was not cancelled; never blocks. */
    final boolean completedNormally() {
        synchronized (guard) {
            return state == NORMAL;
        }
    }

    /** The outcome of a future that is done, as get() reports it; never blocks. */
    @SuppressWarnings("unchecked")
    final V report() throws ExecutionException {
        synchronized (guard) {
            if (state == NORMAL) {
                return (V) outcome;
            }
            if (state == CANCELLED) {
                throw new CancellationException();
            }
            throw new ExecutionException((Throwable) outcome);
        }
    }

    @Override
    public String toString() {
        String status;
        synchronized (guard) {
            switch (state) {
                case NORMAL:
                    status = "[Completed normally]";
                    break;
                case EXCEPTIONAL:
                    status = "[Completed exceptionally: " + outcome + "]";
                    break;
                case CANCELLED:
                    status = "[Cancelled]";
                    break;
                default:
                    status = "[Not completed]";
            }
        }
        return identity() + status;
    }

    /** The class name and hash code that toString starts with, as the JDK's own future would show them. */
    String identity() {
        return JdkNames.identity(this, PicoFutureTask.class, FutureTask.class);
    }
}
