package org.picothreads.targets.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Executors and futures: a fixed pool whose tasks sleep, awaited from the calling platform thread and from a thread
 * of its own; a single-thread executor keeps order; a cached pool; invokeAll and invokeAny; a task that throws; a
 * timed get that times out; cancelling a running task interrupts it; CompletableFutures completed by the common pool
 * and by another thread; shutdown and awaitTermination.
 */
public final class FuturesAndExecutors {
    private FuturesAndExecutors() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        ExecutorService fixed = Executors.newFixedThreadPool(3);
        List<Future<Integer>> futures = new ArrayList<>();
        for (int index = 1; index <= 6; index++) {
            int value = index;
            futures.add(fixed.submit(() -> {
                Thread.sleep(value);
                return value * value;
            }));
        }
        int sum = 0;
        for (Future<Integer> future : futures) {
            sum += future.get();
        }
        log.append("fixed pool from the platform thread: ").append(sum);

        int[] fromThread = new int[1];
        Thread waiter = new Thread(() -> {
            try {
                List<Future<Integer>> more = new ArrayList<>();
                for (int index = 1; index <= 4; index++) {
                    int value = index;
                    more.add(fixed.submit(() -> {
                        Thread.sleep(5 - value);
                        return value * 10;
                    }));
                }
                for (Future<Integer> future : more) {
                    fromThread[0] += future.get();
                }
            } catch (InterruptedException | ExecutionException exception) {
                throw new IllegalStateException(exception);
            }
        });
        waiter.start();
        waiter.join();
        log.append("\nfixed pool from a thread: ").append(fromThread[0]);

        StringBuilder failures = new StringBuilder();
        Thread failing = new Thread(() -> {
            try {
                Future<Object> thrower = fixed.submit(() -> {
                    Thread.sleep(2);
                    throw new IllegalStateException("boom");
                });
                try {
                    thrower.get();
                } catch (ExecutionException exception) {
                    failures.append("cause ").append(exception.getCause().getMessage());
                }
                Future<String> slow = fixed.submit(() -> {
                    Thread.sleep(60_000);
                    return "slow";
                });
                try {
                    slow.get(5, TimeUnit.MILLISECONDS);
                } catch (TimeoutException exception) {
                    failures.append(", timed out");
                }
                failures.append(", cancelled ").append(slow.cancel(true)).append(' ').append(slow.isCancelled());
                try {
                    slow.get();
                } catch (CancellationException exception) {
                    failures.append(", get after cancel throws");
                }
            } catch (InterruptedException | ExecutionException exception) {
                failures.append(exception);
            }
        });
        failing.start();
        failing.join();
        log.append("\nfailures: ").append(failures);

        List<Callable<String>> calls = new ArrayList<>();
        for (int index = 0; index < 4; index++) {
            int value = index;
            calls.add(() -> {
                Thread.sleep(1 + value * 5);
                return "c" + value;
            });
        }
        StringBuilder invoked = new StringBuilder();
        Thread invoker = new Thread(() -> {
            try {
                for (Future<String> future : fixed.invokeAll(calls)) {
                    invoked.append(future.get());
                }
                List<Callable<String>> race = List.of(() -> {
                    Thread.sleep(1);
                    return "fast";
                }, () -> {
                    Thread.sleep(60_000);
                    return "slow";
                });
                String winner = fixed.invokeAny(race);
                invoked.append(' ').append(winner);
            } catch (InterruptedException | ExecutionException exception) {
                invoked.append(exception);
            }
        });
        invoker.start();
        invoker.join();
        log.append("\ninvokeAll and invokeAny: ").append(invoked);

        ExecutorService single = Executors.newSingleThreadExecutor();
        StringBuilder order = new StringBuilder();
        for (int index = 0; index < 5; index++) {
            int value = index;
            single.execute(() -> {
                sleep(5 - value);
                order.append(value);
            });
        }
        single.shutdown();
        log.append("\nsingle thread: terminated ").append(single.awaitTermination(1, TimeUnit.MINUTES))
                .append(", order ").append(order);

        ExecutorService cached = Executors.newCachedThreadPool();
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch allStarted = new CountDownLatch(8);
        for (int index = 0; index < 8; index++) {
            cached.execute(() -> {
                allStarted.countDown();
                try {
                    allStarted.await();
                    Thread.sleep(2);
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
                ran.incrementAndGet();
            });
        }
        cached.shutdown();
        boolean cachedDone = cached.awaitTermination(1, TimeUnit.MINUTES);
        log.append("\ncached pool: ran ").append(ran.get()).append(", terminated ").append(cachedDone);

        CompletableFuture<Integer> supplied = CompletableFuture.supplyAsync(() -> 6 * 7);
        CompletableFuture<String> completedByThread = new CompletableFuture<>();
        StringBuilder completions = new StringBuilder();
        Thread completer = new Thread(() -> {
            sleep(10);
            completedByThread.complete("done by a thread");
        });
        Thread joiner = new Thread(() -> {
            try {
                completions.append(supplied.join()).append(", ").append(completedByThread.get())
                        .append(", ").append(completedByThread.thenApply(String::length).get(1, TimeUnit.MINUTES));
                CompletableFuture<String> never = new CompletableFuture<>();
                try {
                    never.get(5, TimeUnit.MILLISECONDS);
                } catch (TimeoutException exception) {
                    completions.append(", never timed out");
                }
            } catch (InterruptedException | ExecutionException | TimeoutException exception) {
                completions.append(exception);
            }
        });
        joiner.start();
        completer.start();
        joiner.join();
        completer.join();
        log.append("\ncompletable futures: ").append(completions);

        fixed.shutdown();
        log.append("\nfixed pool: terminated ").append(fixed.awaitTermination(1, TimeUnit.MINUTES))
                .append(", shut down ").append(fixed.isShutdown());
        return log.toString();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }
}
