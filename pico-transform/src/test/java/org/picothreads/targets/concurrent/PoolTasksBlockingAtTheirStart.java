package org.picothreads.targets.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tasks given to a fixed pool's {@code execute} that block at their start: lambdas capturing values of several kinds
 * (and one capturing {@code this}), a method reference, a task that blocks in a helper of its class, a task that throws
 * (to the worker's uncaught exception handler), a task that holds a monitor across its sleep and a task run directly
 * by the submitting thread too; then {@code Runnable} lambdas given to {@code submit}, with and without a result, and
 * {@code Callable} lambdas, some of which throw into their futures. The pool's workers enter each task's first activation fresh; the result must be
 * the one the untransformed program gives.
 */
public final class PoolTasksBlockingAtTheirStart {
    public static final int TASKS = 120;
    public static final int SUBMITTED = 60;

    private final long[] results = new long[TASKS];
    private final Object lock = new Object();
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicInteger fours = new AtomicInteger();
    private final CountDownLatch done = new CountDownLatch(TASKS);
    private int guarded;

    private PoolTasksBlockingAtTheirStart() {
    }

    public static String run() throws Exception {
        return new PoolTasksBlockingAtTheirStart().runAll();
    }

    private String runAll() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4, runnable -> {
            Thread worker = new Thread(runnable);
            worker.setUncaughtExceptionHandler((thread, failure) -> failures.incrementAndGet());
            return worker;
        });
        for (int index = 0; index < TASKS; index++) {
            int number = index;
            long weight = 1_000L * index;
            double share = index / 4.0;
            switch (index % 6) {
                case 0 -> pool.execute(() -> {
                    pause(1);
                    results[number] = weight + (long) share;
                    done.countDown();
                });
                case 1 -> pool.execute(() -> {
                    results[number] = sleptSum(number, weight);
                    done.countDown();
                });
                case 2 -> pool.execute(() -> {
                    synchronized (lock) {
                        pause(1);
                        guarded += number;
                    }
                    results[number] = number;
                    done.countDown();
                });
                case 3 -> pool.execute(() -> {
                    done.countDown();
                    pause(1);
                    throw new IllegalStateException("task " + number);
                });
                case 4 -> pool.execute(this::recordFour);
                default -> pool.execute(() -> {
                    Thread.yield();
                    char mark = (char) ('a' + number % 26);
                    pause(2);
                    results[number] = mark + number;
                    done.countDown();
                });
            }
        }
        done.await();
        List<Future<?>> futures = new ArrayList<>();
        long[] submitted = new long[SUBMITTED];
        for (int index = 0; index < SUBMITTED; index++) {
            int number = index;
            long weight = 7L * index;
            Runnable task = () -> {
                pause(1 + number % 2);
                if (number % 10 == 9) {
                    throw new IllegalArgumentException("submitted " + number);
                }
                submitted[number] = weight + number;
            };
            futures.add(number % 3 == 0 ? pool.submit(task, "result " + number) : pool.submit(task));
            // a Callable lambda blocking at its start, its value or exception in its future
            futures.add(pool.submit(() -> {
                pause(1);
                if (number % 10 == 4) {
                    throw new java.io.IOException("called " + number);
                }
                return weight * 2 + (number % 2 == 0 ? 1.5 : 0.25);
            }));
            // a Callable of a class of its own, blocking at its start
            futures.add(pool.submit(new Weighing(number, weight)));
        }
        StringBuilder outcomes = new StringBuilder();
        for (Future<?> future : futures) {
            try {
                outcomes.append(future.get()).append(',');
            } catch (ExecutionException failed) {
                outcomes.append(failed.getCause().getMessage()).append(',');
            }
        }
        for (long value : submitted) {
            outcomes.append(value).append(' ');
        }
        pool.shutdown();
        if (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
            return "pool did not terminate";
        }
        // a JDK pool hands a task's exception to the handler as its worker ends, which may follow the pool's end
        for (int wait = 0; wait < 1_000 && failures.get() < TASKS / 6; wait++) {
            pause(10);
        }
        Runnable direct = () -> {
            pause(1);
            results[0] += 7;
        };
        direct.run();
        long total = 0;
        for (long result : results) {
            total = total * 31 + result;
        }
        return total + " " + guarded + " " + failures.get() + " " + fours.get() + " " + outcomes;
    }

    /** A task of a class of its own: its {@code call()} sleeps first and answers a value or throws. */
    private static final class Weighing implements Callable<Long> {
        private final int number;
        private final long weight;

        Weighing(int number, long weight) {
            this.number = number;
            this.weight = weight;
        }

        @Override
        public Long call() throws InterruptedException {
            Thread.sleep(1 + number % 3);
            if (number % 10 == 7) {
                throw new InterruptedException("weighed " + number);
            }
            return weight * 3 + number;
        }
    }

    private void recordFour() {
        pause(1);
        results[fours.getAndIncrement() * 6 + 4] = 4;
        done.countDown();
    }

    private static long sleptSum(int number, long weight) {
        pause(1);
        return weight + number * 3L;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException unexpected) {
            throw new IllegalStateException(unexpected);
        }
    }
}
