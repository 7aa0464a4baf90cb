package org.picothreads.runtime.concurrent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.picothreads.runtime.PicoThread;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The ExecutorService that rewritten calls of {@code Executors.newFixedThreadPool}, {@code newCachedThreadPool},
 * {@code newSingleThreadExecutor}, {@code newThreadPerTaskExecutor} and {@code newVirtualThreadPerTaskExecutor}
 * return: its workers are PicoThreads (or whatever the given ThreadFactory makes), each running a
 * {@link PoolWorker}, so that waiting for work and blocking inside a task suspend them. Submitting, waiting for
 * futures, {@code invokeAll}, {@code invokeAny} and {@code awaitTermination} work from PicoThreads and platform
 * threads alike. {@link PicoScheduledExecutorService} extends it with delayed and periodic tasks.
 */
public class PicoExecutorService extends AbstractExecutorService {
    private final Object guard = new Object();
    /** Tasks not yet taken by a worker; in a scheduled pool, its delayed tasks, earliest first. */
    private final Queue<Runnable> tasks;
    /** True for a scheduled pool, whose tasks are taken only once their delay has passed. */
    private final boolean scheduled;
    /** Workers waiting for a task. */
    private final WaitQueue idleWorkers = new WaitQueue();
    /** Threads in awaitTermination. */
    private final WaitQueue terminationWaiters = new WaitQueue();
    /** Threads in invokeAll or invokeAny, woken whenever a future of this pool completes. */
    private final WaitQueue completionWaiters = new WaitQueue();
    /** The live worker threads. */
    private final Set<Thread> workerThreads = new HashSet<>();
    /** Workers started and not yet exited. */
    private int workers;
    private final int coreSize;
    private final int maximumSize;
    /** How long an idle worker above the core size waits for a task; 0 makes workers run one task each. */
    private final long keepAliveNanos;
    private final ThreadFactory factory;
    private boolean shutdown;
    /** True once shutdownNow was called: a scheduled task that a worker has taken no longer runs. */
    private boolean stopped;
    private boolean terminated;

    private PicoExecutorService(int coreSize, int maximumSize, long keepAliveNanos, ThreadFactory factory) {
        this.coreSize = coreSize;
        this.maximumSize = maximumSize;
        this.keepAliveNanos = keepAliveNanos;
        this.factory = factory;
        this.tasks = new ArrayDeque<>();
        this.scheduled = false;
    }

    /**
     * A scheduled pool: up to {@code coreSize} workers, started one per scheduled task as the JDK's
     * ScheduledThreadPoolExecutor prestarts them (one even for a core size of 0, which ends once no task is queued).
     */
    PicoExecutorService(int coreSize, ThreadFactory factory) {
        if (coreSize < 0) {
            throw new IllegalArgumentException();
        }
        this.coreSize = coreSize;
        this.maximumSize = Math.max(1, coreSize);
        this.keepAliveNanos = -1;
        this.factory = orDefault(factory);
        this.tasks = new PriorityQueue<>((first, second) -> ((Delayed) first).compareTo((Delayed) second));
        this.scheduled = true;
    }

    /** {@code Executors.newFixedThreadPool}: at most {@code threads} workers, which never time out. */
    static PicoExecutorService fixed(int threads, ThreadFactory factory) {
        if (threads <= 0) {
            throw new IllegalArgumentException();
        }
        return new PicoExecutorService(threads, threads, -1, orDefault(factory));
    }

    /** {@code Executors.newCachedThreadPool}: a worker per task when none is idle; idle workers end after 60 s. */
    static PicoExecutorService cached(ThreadFactory factory) {
        return new PicoExecutorService(0, Integer.MAX_VALUE, TimeUnit.SECONDS.toNanos(60), orDefault(factory));
    }

    /** {@code Executors.newThreadPerTaskExecutor}: a new thread for every task. */
    static PicoExecutorService threadPerTask(ThreadFactory factory) {
        if (factory == null) {
            throw new NullPointerException();
        }
        return new PicoExecutorService(0, Integer.MAX_VALUE, 0, factory);
    }

    private static ThreadFactory orDefault(ThreadFactory factory) {
        return factory != null ? factory : defaultThreadFactory();
    }

    /**
     * Like {@code Executors.defaultThreadFactory()}, making non-daemon PicoThreads named pool-N-thread-M. N is the
     * next number of the JDK's own count, shared with the pools that JDK code creates (a scheduled pool, a pool
     * made by code that was not rewritten): the JDK's factory names one unstarted thread, which tells N.
     */
    static ThreadFactory defaultThreadFactory() {
        String firstName = Executors.defaultThreadFactory().newThread(() -> { }).getName();
        String prefix = firstName.substring(0, firstName.lastIndexOf('-') + 1);
        int[] threadNumber = {0};
        return runnable -> {
            int number;
            synchronized (threadNumber) {
                number = ++threadNumber[0];
            }
            PicoThread thread = new PicoThread(runnable, prefix + number);
            if (thread.isDaemon()) {
                thread.setDaemon(false);
            }
            if (thread.getPriority() != Thread.NORM_PRIORITY) {
                thread.setPriority(Thread.NORM_PRIORITY);
            }
            return thread;
        };
    }

    @Override
    public void execute(Runnable command) {
        if (command == null) {
            throw new NullPointerException();
        }
        synchronized (guard) {
            if (shutdown) {
                throw new RejectedExecutionException("Task " + command + " rejected from " + this);
            }
            boolean newWorker = workers < coreSize || idleWorkers.size() <= tasks.size() && workers < maximumSize;
            if (!newWorker) {
                tasks.add(command);
                idleWorkers.wakeFirst();
                return;
            }
            workers++;
        }
        startWorker(command);
    }

    /** Makes and starts a worker, already counted in {@code workers}, that runs {@code firstTask} (if any) first. */
    private void startWorker(Runnable firstTask) {
        Thread thread;
        try {
            thread = factory.newThread(new PoolWorker(this, firstTask));
        } catch (RuntimeException | Error failure) {
            workerExited(null);
            throw failure;
        }
        if (thread == null) {
            workerExited(null);
            throw new RejectedExecutionException("the thread factory of " + this + " returned no thread");
        }
        synchronized (guard) {
            workerThreads.add(thread);
        }
        thread.start();
    }

    /**
     * The blocking primitive a worker waits in between tasks: the next task, or null when the worker should exit
     * (the pool is shut down and has no task left, or the worker stayed idle for the keep-alive time).
     */
    Runnable nextTask() {
        if (scheduled) {
            return nextDelayedTask();
        }
        while (true) {
            Waiter waiter = Waiter.enter(guard, keepAliveNanos);
            boolean gotOne;
            try {
                gotOne = waiter.await(idleWorkers, () -> {
                    waiter.attachment = tasks.poll();
                    return waiter.attachment != null || shutdown;
                }, true, this);
            } catch (InterruptedException interrupted) {
                continue;
            }
            Runnable task = gotOne ? (Runnable) waiter.attachment : null;
            waiter.attachment = null;
            if (task != null) {
                return task;
            }
            synchronized (guard) {
                if (tasks.isEmpty() && (shutdown || workers > coreSize || keepAliveNanos == 0)) {
                    workerExited(ThreadCalls.currentThread());
                    return null;
                }
            }
        }
    }

    /**
     * nextTask of a scheduled pool: the earliest task once its delay has passed, or null when the pool has no task
     * left and is shut down (or keeps no worker). An idle worker waits until the earliest task is due or a wake-up:
     * scheduling a new earliest task wakes one, and a worker taking a task wakes the next for the task after it, as
     * the JDK's leader and followers do.
     */
    private Runnable nextDelayedTask() {
        Waiter waiter = Waiter.enter(guard, -1);
        while (true) {
            try {
                waiter.checkInterrupt(idleWorkers, true);
            } catch (InterruptedException interrupted) {
                waiter = Waiter.enter(guard, -1);
                continue;
            }
            long delay;
            synchronized (guard) {
                Runnable first = tasks.peek();
                delay = first == null ? Long.MAX_VALUE : ((Delayed) first).getDelay(TimeUnit.NANOSECONDS);
                if (delay <= 0) {
                    tasks.poll();
                    idleWorkers.remove(waiter);
                    waiter.finish();
                    if (!tasks.isEmpty()) {
                        idleWorkers.wakeFirst();
                    }
                    return first;
                }
                if (first == null && (shutdown || workers > coreSize)) {
                    waiter.leave(idleWorkers);
                    waiter.finish();
                    workerExited(ThreadCalls.currentThread());
                    return null;
                }
                idleWorkers.add(waiter);
            }
            waiter.parkAtMost(this, delay);
        }
    }

    /**
     * Queues a task of a scheduled pool, as the JDK's {@code delayedExecute}: rejected once shut down; starts a
     * worker while fewer than the core size run (or none does).
     */
    void delayedExecute(RunnableScheduledFuture<?> task) {
        synchronized (guard) {
            if (shutdown) {
                throw new RejectedExecutionException("Task " + task + " rejected from " + this);
            }
            tasks.add(task);
            if (tasks.peek() == task) {
                idleWorkers.wakeFirst();
            }
            if (workers >= coreSize && workers > 0) {
                return;
            }
            workers++;
        }
        startWorker(null);
    }

    /**
     * Queues a periodic task again after a run, as the JDK's {@code reExecutePeriodic}; once the pool is shut down
     * the task is cancelled instead (the JDK's default policy for periodic tasks).
     */
    void requeuePeriodic(RunnableScheduledFuture<?> task) {
        synchronized (guard) {
            if (!shutdown) {
                tasks.add(task);
                if (tasks.peek() == task) {
                    idleWorkers.wakeFirst();
                }
                return;
            }
        }
        task.cancel(false);
    }

    /** True when a scheduled task may still run: the pool is running, or shut down and the task is not periodic. */
    boolean mayRun(RunnableScheduledFuture<?> task) {
        synchronized (guard) {
            return !shutdown || !stopped && !task.isPeriodic();
        }
    }

    private void workerExited(Thread thread) {
        synchronized (guard) {
            workers--;
            if (thread != null) {
                workerThreads.remove(thread);
            }
            terminateIfDone();
        }
    }

    /** Under the guard: once shut down with no worker and no task left, the pool has terminated. */
    private void terminateIfDone() {
        if (shutdown && workers == 0 && tasks.isEmpty() && !terminated) {
            terminated = true;
            terminationWaiters.wakeAll();
        }
    }

    @Override
    public void shutdown() {
        List<RunnableScheduledFuture<?>> cancelled = new ArrayList<>();
        synchronized (guard) {
            shutdown = true;
            if (scheduled) {
                tasks.removeIf(task -> {
                    RunnableScheduledFuture<?> delayed = (RunnableScheduledFuture<?>) task;
                    boolean drop = delayed.isPeriodic() || delayed.isCancelled();
                    if (drop) {
                        cancelled.add(delayed);
                    }
                    return drop;
                });
            }
            idleWorkers.wakeAll();
            terminateIfDone();
        }
        for (RunnableScheduledFuture<?> task : cancelled) {
            task.cancel(false);
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> pending;
        List<Thread> running;
        synchronized (guard) {
            shutdown = true;
            stopped = true;
            pending = new ArrayList<>(tasks.size());
            for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                pending.add(task);
            }
            running = new ArrayList<>(workerThreads);
            idleWorkers.wakeAll();
            terminateIfDone();
        }
        for (Thread thread : running) {
            thread.interrupt();
        }
        return pending;
    }

    @Override
    public boolean isShutdown() {
        synchronized (guard) {
            return shutdown;
        }
    }

    @Override
    public boolean isTerminated() {
        synchronized (guard) {
            return terminated;
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return awaitTerminated(Math.max(0, unit.toNanos(timeout)));
    }

    /** The blocking primitive behind awaitTermination; {@code nanos} negative waits without a limit. */
    boolean awaitTerminated(long nanos) throws InterruptedException {
        return awaitTerminated(nanos, true);
    }

    private boolean awaitTerminated(long nanos, boolean interruptible) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        return waiter.await(terminationWaiters, () -> terminated, interruptible, this);
    }

    /**
     * The blocking primitive behind {@code close()} (JDK 19): shuts down and waits for termination; an interrupt
     * meanwhile cancels the remaining tasks (shutdownNow), and the interrupt status is set when the wait ends.
     */
    void closeAndWait() {
        shutdown();
        try {
            awaitTerminated(-1, true);
        } catch (InterruptedException interrupted) {
            shutdownNow();
            ThreadCalls.currentThread().interrupt();
            try {
                awaitTerminated(-1, false);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new PicoFutureTask<>(new RunnableCallable<>(runnable, value), this::futureCompleted);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new PicoFutureTask<>(callable, this::futureCompleted);
    }

    /** The completion hook of every future of this pool: wakes invokeAll and invokeAny. */
    void futureCompleted() {
        synchronized (guard) {
            completionWaiters.wakeAll();
        }
    }

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> callables) throws InterruptedException {
        return invokeAllWithin(callables, -1);
    }

    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> callables, long timeout, TimeUnit unit)
            throws InterruptedException {
        return invokeAllWithin(callables, Math.max(0, unit.toNanos(timeout)));
    }

    /**
     * The blocking primitive behind both invokeAll: submits every task on the first invocation (the futures are
     * kept in the waiter), then waits until all are done or {@code nanos} (when not negative) passed, cancelling
     * the rest then.
     */
    <T> List<Future<T>> invokeAllWithin(Collection<? extends Callable<T>> callables, long nanos)
            throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        List<Future<T>> futures = waiterFutures(waiter, callables);
        boolean allDone;
        try {
            allDone = waiter.await(completionWaiters, () -> futures.stream().allMatch(Future::isDone), true, this);
        } catch (InterruptedException interrupted) {
            futures.forEach(future -> future.cancel(true));
            throw interrupted;
        }
        if (!allDone) {
            futures.forEach(future -> future.cancel(true));
        }
        return futures;
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> callables) throws InterruptedException,
            ExecutionException {
        try {
            return invokeAnyWithin(callables, -1);
        } catch (TimeoutException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> callables, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return invokeAnyWithin(callables, Math.max(0, unit.toNanos(timeout)));
    }

    /**
     * The blocking primitive behind both invokeAny: submits every task on the first invocation, waits until one
     * completes normally (its result) or all have failed (the last failure), cancels the others.
     */
    <T> T invokeAnyWithin(Collection<? extends Callable<T>> callables, long nanos) throws InterruptedException,
            ExecutionException, TimeoutException {
        if (callables.isEmpty()) {
            throw new IllegalArgumentException();
        }
        Waiter waiter = Waiter.enter(guard, nanos);
        List<Future<T>> futures = waiterFutures(waiter, callables);
        boolean decided;
        try {
            decided = waiter.await(completionWaiters, () -> futures.stream().allMatch(Future::isDone)
                    || futures.stream().anyMatch(PicoExecutorService::completedNormally), true, this);
        } catch (InterruptedException interrupted) {
            futures.forEach(future -> future.cancel(true));
            throw interrupted;
        }
        futures.forEach(future -> future.cancel(true));
        if (!decided) {
            throw new TimeoutException();
        }
        ExecutionException last = null;
        for (Future<T> future : futures) {
            if (completedNormally(future)) {
                return resultOf(future);
            }
        }
        for (Future<T> future : futures) {
            try {
                resultOf(future);
            } catch (ExecutionException failure) {
                last = failure;
            }
        }
        throw last != null ? last : new ExecutionException(new CancellationException());
    }

    /** The futures kept in the waiter, submitting the tasks first when this is the first invocation. */
    @SuppressWarnings("unchecked")
    private <T> List<Future<T>> waiterFutures(Waiter waiter, Collection<? extends Callable<T>> callables) {
        if (waiter.isFresh() || waiter.attachment == null) {
            List<Future<T>> futures = new ArrayList<>(callables.size());
            for (Callable<T> callable : callables) {
                futures.add(submit(callable));
            }
            waiter.attachment = futures;
        }
        return (List<Future<T>>) waiter.attachment;
    }

    /** True when a future of this pool (always a PicoFutureTask) completed normally; never blocks. */
    private static boolean completedNormally(Future<?> future) {
        return ((PicoFutureTask<?>) future).completedNormally();
    }

    /** The outcome of a done future of this pool; never blocks. */
    private static <T> T resultOf(Future<T> future) throws ExecutionException {
        try {
            return ((PicoFutureTask<T>) future).report();
        } catch (CancellationException cancelled) {
            throw new ExecutionException(cancelled);
        }
    }

    @Override
    public String toString() {
        synchronized (guard) {
            return super.toString() + "[" + (terminated ? "Terminated" : shutdown ? "Shutting down" : "Running")
                    + ", pool size = " + workers + ", queued tasks = " + tasks.size() + "]";
        }
    }
}
