package org.picothreads.runtime.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a blocking call that cannot be made asynchronous (a name lookup, file I/O) on a small pool of daemon threads
 * while the calling PicoThread suspends until its answer arrives.
 *
 * <p>The pool has two threads, {@code pico-resolver-1} and {@code pico-resolver-2}, started on first use and ended
 * after a minute without work; further calls queue. A platform thread calling {@link #call} runs the call itself.
 * The wait is not interruptible (as the blocking calls it stands for are not): an interrupt is kept and set again
 * when the answer has arrived. Calls still running count as wake sources for the deadlock detector.
 */
public final class Offloads {
    /** Threads of the pool. */
    private static final int THREADS = 2;
    /** The guard that identifies an offload wait on re-invocation; an offload never runs inside another. */
    private static final Object GUARD = new Object();
    /** Offloaded calls whose waiter has not been woken yet. */
    private static final AtomicInteger PENDING = new AtomicInteger();
    private static final AtomicInteger THREAD_NUMBERS = new AtomicInteger();
    private static final ThreadPoolExecutor POOL = pool();

    private Offloads() {
    }

    private static ThreadPoolExecutor pool() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), work -> {
                    return RuntimeThreads.create(work, "pico-resolver-" + THREAD_NUMBERS.incrementAndGet(), 0, true);
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * Returns what {@code work} returns, or throws what it throws: on a PicoThread the call runs on the pool and
     * only the calling PicoThread waits; on any other thread it runs in place. A PicoThread re-invoked at the end
     * of a restore continues the wait for the call it started.
     */
    @SuppressWarnings("unchecked")
    public static <T> T call(Callable<T> work) throws Exception {
        if (!Parking.onPicoThread()) {
            return work.call();
        }
        Waiter waiter = Waiter.enter(GUARD, -1);
        CompletableFuture<T> answer;
        if (waiter.isFresh()) {
            answer = new CompletableFuture<>();
            waiter.attachment = answer;
            answer.whenComplete((result, failure) -> waiter.wake());
            PENDING.incrementAndGet();
            POOL.execute(() -> run(work, answer));
        } else {
            answer = (CompletableFuture<T>) waiter.attachment;
        }
        while (!answer.isDone()) {
            if (waiter.takeInterrupt()) {
                waiter.deferInterrupt();
            }
            waiter.park(answer);
        }
        waiter.finish();
        try {
            return answer.get();
        } catch (ExecutionException failure) {
            Throwable cause = failure.getCause();
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw (Exception) cause;
        }
    }

    /** Runs one offloaded call on a pool thread and hands its outcome over, which wakes the waiter. */
    private static <T> void run(Callable<T> work, CompletableFuture<T> answer) {
        try {
            answer.complete(work.call());
        } catch (Throwable failure) {
            answer.completeExceptionally(failure);
        } finally {
            PENDING.decrementAndGet();
        }
    }

    /** Offloaded calls that have not completed yet. */
    static int pending() {
        return PENDING.get();
    }
}
