package org.picothreads.targets.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Futures whose {@code get} and {@code join} overrides call the method they override, as Guava's
 * {@code AbstractFuture.TrustedFuture.get} does with {@code super.get()} under a LoadingCache: threads wait on a
 * subclass of a hand-written future and on a subclass of CompletableFuture, each completed by another thread after a
 * sleep, each waiting through Future's or CompletableFuture's own method, which the runtime redirects. The super calls
 * must reach the superclass's own method, not the runtime's redirect of the call, which calls the override again.
 */
public final class FutureOverridesCallingSuper {
    private FutureOverridesCallingSuper() {
    }

    public static String run() throws Exception {
        CountingFuture counted = new CountingFuture();
        WrappingCompletableFuture wrapped = new WrappingCompletableFuture();
        String[] results = new String[6];
        List<Thread> waiters = new ArrayList<>();
        waiters.add(new Thread(() -> results[0] = waitFor(counted)));
        waiters.add(new Thread(() -> results[1] = waitTimedFor(counted)));
        waiters.add(new Thread(() -> results[2] = waitFor(wrapped)));
        waiters.add(new Thread(() -> results[3] = waitTimedFor(wrapped)));
        waiters.add(new Thread(() -> results[4] = joinOf(wrapped)));
        waiters.add(new Thread(() -> results[5] = waitTimedFor(new CountingFuture(), 30)));
        for (Thread waiter : waiters) {
            waiter.start();
        }
        Thread completer = new Thread(() -> {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            counted.complete("counted");
            wrapped.complete("wrapped");
        });
        completer.start();
        for (Thread waiter : waiters) {
            waiter.join();
        }
        completer.join();
        return String.join("\n", results) + "\nthe counted future's get ran " + counted.gets + " times";
    }

    /** Joins through CompletableFuture's own join, the call the runtime redirects, which then calls the override. */
    private static String joinOf(CompletableFuture<String> future) {
        return future.join();
    }

    private static String waitFor(Future<String> future) {
        try {
            return future.get();
        } catch (InterruptedException | ExecutionException e) {
            return "failed: " + e;
        }
    }

    private static String waitTimedFor(Future<String> future) {
        return waitTimedFor(future, 5_000);
    }

    private static String waitTimedFor(Future<String> future, long millis) {
        try {
            return future.get(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            return "failed: " + e;
        }
    }

    /** A future that waits on a latch until completed; generic, so that its gets return Object as Guava's do. */
    private static class LatchFuture<V> implements Future<V> {
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile V value;

        void complete(V completed) {
            value = completed;
            done.countDown();
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean isDone() {
            return done.getCount() == 0;
        }

        @Override
        public V get() throws InterruptedException {
            done.await();
            return value;
        }

        @Override
        public V get(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
            if (!done.await(timeout, unit)) {
                throw new TimeoutException();
            }
            return value;
        }
    }

    /** Overrides both gets with calls of the superclass's, as Guava's TrustedFuture does. */
    private static final class CountingFuture extends LatchFuture<String> {
        private int gets;

        @Override
        public String get() throws InterruptedException {
            synchronized (this) {
                gets++;
            }
            return "got " + super.get();
        }

        @Override
        public String get(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
            synchronized (this) {
                gets++;
            }
            return "got in time " + super.get(timeout, unit);
        }
    }

    /** A CompletableFuture whose get and join wrap what the superclass's give. */
    private static final class WrappingCompletableFuture extends CompletableFuture<String> {
        @Override
        public String get() throws InterruptedException, ExecutionException {
            return "completable " + super.get();
        }

        @Override
        public String get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException,
                TimeoutException {
            return "completable in time " + super.get(timeout, unit);
        }

        @Override
        public String join() {
            return "joined " + super.join();
        }
    }
}
