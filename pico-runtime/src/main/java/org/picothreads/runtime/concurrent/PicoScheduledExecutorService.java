package org.picothreads.runtime.concurrent;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The ScheduledExecutorService that rewritten calls of {@code Executors.newScheduledThreadPool} and
 * {@code newSingleThreadScheduledExecutor} return: a {@link PicoExecutorService} whose workers wait for the earliest
 * delayed task by suspending, so that neither waiting for a due task nor a task that blocks parks the carrier (the
 * JDK's pool parks its workers in its own delay queue, out of the runtime's reach). Semantics are those of the JDK's
 * ScheduledThreadPoolExecutor with its default policies: {@code execute} and {@code submit} schedule with no delay,
 * a shutdown lets delayed tasks run and cancels periodic ones, a periodic task that throws or is cancelled stops.
 */
public final class PicoScheduledExecutorService extends PicoExecutorService implements ScheduledExecutorService {

    private PicoScheduledExecutorService(int coreSize, ThreadFactory factory) {
        super(coreSize, factory);
    }

    /** {@code Executors.newScheduledThreadPool}: up to {@code coreSize} workers, by the default factory if null. */
    static PicoScheduledExecutorService withCoreSize(int coreSize, ThreadFactory factory) {
        return new PicoScheduledExecutorService(coreSize, factory);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        if (command == null || unit == null) {
            throw new NullPointerException();
        }
        return queued(new PicoScheduledFutureTask<Void>(this, new RunnableCallable<>(command, null),
                unit.toNanos(delay), 0));
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        if (callable == null || unit == null) {
            throw new NullPointerException();
        }
        return queued(new PicoScheduledFutureTask<>(this, callable, unit.toNanos(delay), 0));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        if (command == null || unit == null) {
            throw new NullPointerException();
        }
        if (period <= 0) {
            throw new IllegalArgumentException();
        }
        return queued(new PicoScheduledFutureTask<Void>(this, new RunnableCallable<>(command, null),
                unit.toNanos(initialDelay), unit.toNanos(period)));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        if (command == null || unit == null) {
            throw new NullPointerException();
        }
        if (delay <= 0) {
            throw new IllegalArgumentException();
        }
        return queued(new PicoScheduledFutureTask<Void>(this, new RunnableCallable<>(command, null),
                unit.toNanos(initialDelay), -unit.toNanos(delay)));
    }

    private <V> ScheduledFuture<V> queued(PicoScheduledFutureTask<V> task) {
        delayedExecute(task);
        return task;
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return schedule(task, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        if (task == null) {
            throw new NullPointerException();
        }
        return schedule(new RunnableCallable<>(task, result), 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return schedule(task, 0, TimeUnit.NANOSECONDS);
    }
}
