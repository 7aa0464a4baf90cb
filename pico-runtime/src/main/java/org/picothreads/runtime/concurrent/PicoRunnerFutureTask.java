package org.picothreads.runtime.concurrent;

import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import org.picothreads.runtime.internal.ThreadCalls;

/**
 * The FutureTask that rewritten code creates: {@code cancel(true)} interrupts the thread running the task as user
 * code sees it. The JDK's FutureTask records {@code Thread.currentThread()} as its runner, which for a PicoThread is
 * the carrier, so its own {@code cancel(true)} would interrupt the carrier and leave the PicoThread running. Running,
 * completing and waiting are the superclass's.
 */
public class PicoRunnerFutureTask<V> extends FutureTask<V> {
    /** Guards {@link #runner}, so that a cancelling interrupt reaches the runner only while it runs the task. */
    private final Object guard = new Object();
    /** The thread running the task, as user code sees it (a PicoThread or a platform thread), or null. */
    private Thread runner;

    /** As {@link FutureTask#FutureTask(Callable)}. */
    public PicoRunnerFutureTask(Callable<V> callable) {
        super(callable);
    }

    /** As {@link FutureTask#FutureTask(Runnable, Object)}. */
    public PicoRunnerFutureTask(Runnable runnable, V result) {
        super(runnable, result);
    }

    @Override
    public void run() {
        Thread thread = enter();
        try {
            super.run();
        } finally {
            leave(thread);
        }
    }

    @Override
    protected boolean runAndReset() {
        Thread thread = enter();
        try {
            return super.runAndReset();
        } finally {
            leave(thread);
        }
    }

    /**
     * As {@link FutureTask#cancel(boolean)}; with {@code mayInterruptIfRunning}, interrupts the thread running the
     * task, if one does, after the task is marked cancelled.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!super.cancel(false)) {
            return false;
        }
        if (mayInterruptIfRunning) {
            synchronized (guard) {
                if (runner != null) {
                    runner.interrupt();
                }
            }
        }
        return true;
    }

    /** Records the calling thread as the runner unless another thread runs the task; returns it, or null. */
    private Thread enter() {
        Thread thread = ThreadCalls.currentThread();
        synchronized (guard) {
            if (runner != null || isDone()) {
                return null;
            }
            runner = thread;
        }
        return thread;
    }

    /** Forgets the runner recorded by {@link #enter()}. */
    private void leave(Thread thread) {
        if (thread != null) {
            synchronized (guard) {
                runner = null;
            }
        }
    }
}
