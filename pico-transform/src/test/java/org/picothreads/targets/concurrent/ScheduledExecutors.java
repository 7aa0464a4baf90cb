package org.picothreads.targets.concurrent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scheduled executors made by {@code Executors}: delayed tasks scheduled and awaited from threads of the program,
 * on the JDK's default factory and on the program's own factory (whose workers are the program's threads); tasks
 * run no earlier than their delay, by due time and then in scheduling order; periodic tasks at a fixed rate (never
 * concurrently with themselves) and with a fixed delay, stopped by cancel or by a throw; ScheduledFuture's delay,
 * order and periodicity; execute and submit; argument checks; shutdown (delayed tasks run, periodic ones are
 * cancelled), shutdownNow (the queued tasks returned, the running one interrupted) and awaitTermination. Nothing
 * waits a fixed time to decide a result: the program waits on latches and futures, and timings are lower bounds.
 */
public final class ScheduledExecutors {
    private static final long MILLIS = TimeUnit.MILLISECONDS.toNanos(1);

    private ScheduledExecutors() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        awaitedFromThreads(log);
        orderAndFutures(log);
        periodicTasks(log);
        executeSubmitAndArguments(log);
        shutdownPolicies(log);
        return log.toString();
    }

    /** Sched.java's cases: tasks scheduled and awaited by threads of the program, on both kinds of factory. */
    private static void awaitedFromThreads(StringBuilder log) throws Exception {
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(1);
        StringBuilder fromThread = new StringBuilder();
        Thread scheduler = new Thread(() -> {
            try {
                long before = System.nanoTime();
                ScheduledFuture<String> future = pool.schedule(
                        () -> Thread.currentThread().getName() + " after its delay "
                                + (System.nanoTime() - before >= 30 * MILLIS), 30, TimeUnit.MILLISECONDS);
                fromThread.append("scheduled: ").append(normalized(future.get()));
                CountDownLatch ticks = new CountDownLatch(3);
                ScheduledFuture<?> ticking = pool.scheduleAtFixedRate(ticks::countDown, 0, 5, TimeUnit.MILLISECONDS);
                fromThread.append(", ticks ").append(ticks.await(20, TimeUnit.SECONDS)).append(", cancelled ")
                        .append(ticking.cancel(false));
            } catch (InterruptedException | ExecutionException exception) {
                fromThread.append(exception);
            }
        });
        int[] otherSteps = {0};
        Thread other = new Thread(() -> {
            for (int step = 0; step < 3; step++) {
                sleep(10);
                otherSteps[0]++;
            }
        });
        scheduler.start();
        other.start();
        scheduler.join();
        other.join();
        pool.shutdown();
        log.append(fromThread).append("; the other thread's steps ").append(otherSteps[0])
                .append("; terminated ").append(pool.awaitTermination(20, TimeUnit.SECONDS)).append('\n');

        AtomicInteger made = new AtomicInteger();
        ThreadFactory own = runnable -> new Thread(runnable, "mine-" + made.incrementAndGet());
        ScheduledExecutorService ownPool = Executors.newScheduledThreadPool(2, own);
        CountDownLatch released = new CountDownLatch(1);
        List<String> results = Collections.synchronizedList(new ArrayList<>());
        Thread user = new Thread(() -> {
            try {
                ScheduledFuture<String> waiting = ownPool.schedule(() -> {
                    released.await();
                    return "released on a thread of the factory " + ownThread();
                }, 10, TimeUnit.MILLISECONDS);
                ScheduledFuture<String> sleeping = ownPool.schedule(() -> {
                    Thread.sleep(20);
                    released.countDown();
                    return "slept on a thread of the factory " + ownThread();
                }, 20, TimeUnit.MILLISECONDS);
                List<String> names = new ArrayList<>(List.of(waiting.get(), sleeping.get()));
                results.addAll(names);
            } catch (InterruptedException | ExecutionException exception) {
                results.add(exception.toString());
            }
        });
        user.start();
        user.join();
        ScheduledFuture<String> fromPlatform = ownPool.schedule(() -> "again", 1, TimeUnit.MILLISECONDS);
        String again = fromPlatform.get();
        ownPool.shutdown();
        log.append("own factory: ").append(results).append(", ").append(again).append(", threads made ")
                .append(made.get()).append(", terminated ").append(ownPool.awaitTermination(20, TimeUnit.SECONDS))
                .append('\n');

        ScheduledExecutorService single = Executors.newSingleThreadScheduledExecutor();
        ScheduledExecutorService singleOwn = Executors.newSingleThreadScheduledExecutor(
                runnable -> new Thread(runnable, "single-own"));
        String singleName = single.submit(() -> Thread.currentThread().getName() + " daemon "
                + Thread.currentThread().isDaemon()).get();
        String singleOwnName = singleOwn.schedule(() -> Thread.currentThread().getName(), 1, TimeUnit.MILLISECONDS)
                .get();
        ScheduledExecutorService two = Executors.newScheduledThreadPool(2);
        CyclicBarrier both = new CyclicBarrier(2);
        Callable<String> meet = () -> {
            both.await();
            return Thread.currentThread().getName();
        };
        Future<String> first = two.submit(meet);
        Future<String> second = two.submit(meet);
        List<String> twoNames = new ArrayList<>(List.of(first.get(), second.get()));
        Collections.sort(twoNames);
        log.append("names: single ").append(normalized(singleName)).append(", single with a factory ")
                .append(singleOwnName).append(", a ThreadPoolExecutor ").append(single instanceof ThreadPoolExecutor)
                .append(", two workers ").append(normalized(twoNames.toString())).append(" of one pool ")
                .append(poolNumber(twoNames.get(0)) == poolNumber(twoNames.get(1))).append('\n');
        single.shutdown();
        singleOwn.shutdown();
        two.shutdown();
        log.append("terminated ").append(single.awaitTermination(20, TimeUnit.SECONDS)).append(' ')
                .append(singleOwn.awaitTermination(20, TimeUnit.SECONDS)).append(' ')
                .append(two.awaitTermination(20, TimeUnit.SECONDS)).append('\n');
    }

    /** Due time first, then scheduling order; getDelay, compareTo, isPeriodic, cancel, a negative delay. */
    private static void orderAndFutures(StringBuilder log) throws Exception {
        ScheduledExecutorService single = Executors.newSingleThreadScheduledExecutor();
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        single.execute(() -> {
            busy.countDown();
            awaitQuietly(release);
        });
        busy.await();
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        futures.add(single.schedule(() -> order.add("late"), 300, TimeUnit.MILLISECONDS));
        for (int index = 0; index < 4; index++) {
            int number = index;
            futures.add(single.schedule(() -> order.add("due " + number), 0, TimeUnit.MILLISECONDS));
        }
        futures.add(single.schedule(() -> order.add("negative delay"), -5, TimeUnit.SECONDS));
        release.countDown();
        for (ScheduledFuture<?> future : futures) {
            future.get();
        }
        log.append("order: ").append(order).append('\n');

        ScheduledFuture<String> hour = single.schedule(() -> "hour", 1, TimeUnit.HOURS);
        ScheduledFuture<String> twoHours = single.schedule(() -> "two hours", 2, TimeUnit.HOURS);
        long minutes = hour.getDelay(TimeUnit.MINUTES);
        log.append("future: delay in minutes ").append(minutes >= 59 && minutes <= 60).append(", compareTo ")
                .append(Integer.signum(hour.compareTo(twoHours))).append(' ')
                .append(Integer.signum(twoHours.compareTo(hour))).append(' ').append(hour.compareTo(hour))
                .append(", periodic ").append(((RunnableScheduledFuture<?>) hour).isPeriodic())
                .append(", done ").append(hour.isDone())
                .append(", cancel ").append(hour.cancel(false)).append(", cancelled ").append(hour.isCancelled())
                .append(", done ").append(hour.isDone()).append(", get ").append(outcome(hour))
                .append(", cancel again ").append(hour.cancel(false)).append(", shown as ")
                .append(hour.toString().replaceAll("@[0-9a-f]+", "@H")).append('\n');
        twoHours.cancel(false);
        single.shutdown();
        log.append("after cancelling, terminated ").append(single.awaitTermination(20, TimeUnit.SECONDS))
                .append('\n');
    }

    /** Fixed rate and fixed delay; a periodic task stops when cancelled or when it throws. */
    private static void periodicTasks(StringBuilder log) throws Exception {
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(3, runnable -> new Thread(runnable));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        AtomicInteger rateRuns = new AtomicInteger();
        CountDownLatch fiveRuns = new CountDownLatch(5);
        List<Long> rateStarts = Collections.synchronizedList(new ArrayList<>());
        long scheduledAt = System.nanoTime();
        AtomicReference<ScheduledFuture<?>> rateFuture = new AtomicReference<>();
        CountDownLatch assigned = new CountDownLatch(1);
        rateFuture.set(pool.scheduleAtFixedRate(() -> {
            awaitQuietly(assigned);
            rateStarts.add(System.nanoTime() - scheduledAt);
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            sleep(4);
            inside.decrementAndGet();
            if (rateRuns.incrementAndGet() == 5) {
                rateFuture.get().cancel(false);
            }
            fiveRuns.countDown();
        }, 3, 2, TimeUnit.MILLISECONDS));
        assigned.countDown();
        fiveRuns.await();
        ScheduledFuture<?> rate = rateFuture.get();
        boolean onTime = true;
        for (int index = 0; index < rateStarts.size(); index++) {
            onTime &= rateStarts.get(index) >= (3 + 2L * index) * MILLIS;
        }
        pool.schedule(() -> { }, 20, TimeUnit.MILLISECONDS).get();
        log.append("fixed rate: runs ").append(rateRuns.get()).append(", at most one at a time ")
                .append(mostInside.get() == 1).append(", none before its time ").append(onTime)
                .append(", periodic ").append(((RunnableScheduledFuture<?>) rate).isPeriodic())
                .append(", cancelled ").append(rate.isCancelled())
                .append(", get ").append(outcome(rate)).append('\n');

        AtomicInteger delayRuns = new AtomicInteger();
        List<long[]> spans = Collections.synchronizedList(new ArrayList<>());
        ScheduledFuture<?> delayed = pool.scheduleWithFixedDelay(() -> {
            long start = System.nanoTime();
            sleep(2);
            spans.add(new long[] {start, System.nanoTime()});
            if (delayRuns.incrementAndGet() == 3) {
                throw new IllegalStateException("third run fails");
            }
        }, 0, 10, TimeUnit.MILLISECONDS);
        String thrown = outcome(delayed);
        boolean gapsKept = true;
        for (int index = 1; index < spans.size(); index++) {
            gapsKept &= spans.get(index)[0] - spans.get(index - 1)[1] >= 10 * MILLIS;
        }
        pool.schedule(() -> { }, 40, TimeUnit.MILLISECONDS).get();
        log.append("fixed delay: get ").append(thrown).append(", done ").append(delayed.isDone())
                .append(", cancelled ").append(delayed.isCancelled()).append(", runs ").append(delayRuns.get())
                .append(", gaps no shorter than the delay ").append(gapsKept).append('\n');
        pool.shutdown();
        log.append("periodic pool terminated ").append(pool.awaitTermination(20, TimeUnit.SECONDS)).append('\n');
    }

    /** execute and submit schedule with no delay; a task's throw stays in its future; arguments are checked. */
    private static void executeSubmitAndArguments(StringBuilder log) throws Exception {
        List<String> uncaught = Collections.synchronizedList(new ArrayList<>());
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(1, runnable -> {
            Thread thread = new Thread(runnable, "handled");
            thread.setUncaughtExceptionHandler((failed, failure) -> uncaught.add(failure.getMessage()));
            return thread;
        });
        CountDownLatch executed = new CountDownLatch(1);
        pool.execute(executed::countDown);
        executed.await();
        pool.execute(() -> {
            throw new IllegalStateException("thrown by an executed task");
        });
        Future<String> submitted = pool.submit(() -> "called");
        Future<?> submittedRunnable = pool.submit(() -> { });
        Future<Integer> withResult = pool.submit(() -> { }, 7);
        List<Future<Integer>> all = pool.invokeAll(List.<Callable<Integer>>of(() -> 1, () -> 2, () -> 3));
        int sum = 0;
        for (Future<Integer> future : all) {
            sum += future.get();
        }
        log.append("execute and submit: ").append(submitted.get()).append(' ').append(submittedRunnable.get())
                .append(' ').append(withResult.get()).append(", scheduled futures ")
                .append(submitted instanceof ScheduledFuture).append(", invokeAll ").append(sum)
                .append(", uncaught ").append(uncaught).append('\n');

        StringBuilder checks = new StringBuilder();
        checks.append(failure(() -> pool.schedule((Runnable) null, 1, TimeUnit.SECONDS)));
        checks.append(' ').append(failure(() -> pool.schedule(() -> "x", 1, null)));
        checks.append(' ').append(failure(() -> pool.scheduleAtFixedRate(() -> { }, 1, 0, TimeUnit.SECONDS)));
        checks.append(' ').append(failure(() -> pool.scheduleWithFixedDelay(() -> { }, 1, -1, TimeUnit.SECONDS)));
        checks.append(' ').append(failure(() -> pool.scheduleAtFixedRate(null, 1, 1, TimeUnit.SECONDS)));
        checks.append(' ').append(failure(() -> pool.execute(null)));
        checks.append(' ').append(failure(() -> Executors.newScheduledThreadPool(-1)));
        checks.append(' ').append(failure(() -> Executors.newScheduledThreadPool(1, null)));
        checks.append(' ').append(failure(() -> Executors.newSingleThreadScheduledExecutor(null)));
        log.append("argument checks: ").append(checks).append('\n');
        pool.shutdown();
        log.append("after shutdown: ").append(failure(() -> pool.schedule(() -> { }, 1, TimeUnit.SECONDS)))
                .append(' ').append(failure(() -> pool.execute(() -> { }))).append(", terminated ")
                .append(pool.awaitTermination(20, TimeUnit.SECONDS)).append('\n');
    }

    /** shutdown lets delayed tasks run and cancels periodic ones; shutdownNow returns the queue. */
    private static void shutdownPolicies(StringBuilder log) throws Exception {
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(1, runnable -> new Thread(runnable));
        long before = System.nanoTime();
        ScheduledFuture<Long> delayed = pool.schedule(() -> System.nanoTime() - before, 40, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> periodic = pool.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);
        pool.shutdown();
        log.append("shutdown: shut down ").append(pool.isShutdown()).append(", periodic cancelled ")
                .append(periodic.isCancelled()).append(", delayed task still runs, after its delay ")
                .append(delayed.get() >= 40 * MILLIS).append(", terminated ")
                .append(pool.awaitTermination(20, TimeUnit.SECONDS)).append(' ').append(pool.isTerminated())
                .append('\n');

        ScheduledExecutorService waiting = Executors.newSingleThreadScheduledExecutor();
        ScheduledFuture<String> inAnHour = waiting.schedule(() -> "an hour later", 1, TimeUnit.HOURS);
        waiting.shutdown();
        boolean terminatedEarly = waiting.awaitTermination(20, TimeUnit.MILLISECONDS);
        List<Runnable> leftOver = waiting.shutdownNow();
        log.append("a delayed task keeps a shut-down pool alive: terminated within 20 ms ").append(terminatedEarly)
                .append(", shutdownNow returns ").append(leftOver.size()).append(" (the future ")
                .append(leftOver.contains(inAnHour)).append("), terminated ")
                .append(waiting.awaitTermination(20, TimeUnit.SECONDS)).append('\n');

        ScheduledExecutorService stopped = Executors.newScheduledThreadPool(1, runnable -> new Thread(runnable));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        StringBuilder runningTask = new StringBuilder();
        Future<?> blocked = stopped.submit(() -> {
            running.countDown();
            try {
                never.await();
                runningTask.append("released");
            } catch (InterruptedException expected) {
                runningTask.append("interrupted");
            }
        });
        running.await();
        List<ScheduledFuture<String>> queued = new ArrayList<>();
        queued.add(stopped.schedule(() -> "now", 0, TimeUnit.MILLISECONDS));
        queued.add(stopped.schedule(() -> "later", 1, TimeUnit.HOURS));
        ScheduledFuture<?> ticking = stopped.scheduleWithFixedDelay(() -> { }, 1, 1, TimeUnit.HOURS);
        List<Runnable> drained = stopped.shutdownNow();
        blocked.get();
        boolean noneDone = true;
        for (Runnable task : drained) {
            noneDone &= !((Future<?>) task).isDone();
        }
        log.append("shutdownNow: returns ").append(drained.size()).append(", all queued ")
                .append(drained.containsAll(queued) && drained.contains(ticking)).append(", none done ")
                .append(noneDone).append(", the running task ").append(runningTask).append(", terminated ")
                .append(stopped.awaitTermination(20, TimeUnit.SECONDS)).append(", rejects ")
                .append(failure(() -> stopped.submit(() -> { })));
    }

    /** True on a thread of the program's factory named mine-M. */
    private static boolean ownThread() {
        return Thread.currentThread().getName().startsWith("mine-");
    }

    /** A thread name with the pool number replaced, since the JDK numbers pools across the whole JVM. */
    private static String normalized(String text) {
        return text.replaceAll("pool-[0-9]+-thread-", "pool-N-thread-");
    }

    /** N of a thread named pool-N-thread-M. */
    private static int poolNumber(String threadName) {
        return Integer.parseInt(threadName.substring("pool-".length(), threadName.indexOf("-thread-")));
    }

    /** What get() gives for a done future: its value or the exception with its cause. */
    private static String outcome(Future<?> future) {
        try {
            return String.valueOf(future.get());
        } catch (ExecutionException failed) {
            return "ExecutionException: " + failed.getCause();
        } catch (CancellationException cancelled) {
            return "CancellationException";
        } catch (InterruptedException interrupted) {
            return "interrupted";
        }
    }

    /** The simple name of what {@code action} throws, or "none". */
    private static String failure(Action action) {
        try {
            action.run();
            return "none";
        } catch (Exception exception) {
            return exception.getClass().getSimpleName();
        }
    }

    private interface Action {
        void run() throws Exception;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }
}
