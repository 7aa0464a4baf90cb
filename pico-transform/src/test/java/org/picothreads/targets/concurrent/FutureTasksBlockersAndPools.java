package org.picothreads.targets.concurrent;

import static org.picothreads.targets.concurrent.SerializedAndFilledReplacements.waitUntil;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A FutureTask run by a thread and cancelled with {@code cancel(true)} interrupts that thread; LockSupport.getBlocker
 * tells what a parked thread parked on; TimeUnit.timedWait waits on a monitor and ends on an interrupt; a
 * ThreadPoolExecutor whose ThreadFactory makes the program's own threads runs its tasks on them and terminates
 * after shutdown; a fixed pool made after a JDK-made pool takes the next pool number, as the JDK's own would.
 */
public final class FutureTasksBlockersAndPools {
    private FutureTasksBlockersAndPools() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();

        CountDownLatch running = new CountDownLatch(1);
        StringBuilder outcome = new StringBuilder();
        FutureTask<String> task = new FutureTask<>(() -> {
            running.countDown();
            try {
                Thread.sleep(60_000);
                outcome.append("sleep not interrupted");
            } catch (InterruptedException expected) {
                outcome.append("sleep interrupted");
            }
            return "finished";
        });
        Thread runner = new Thread(task, "runner");
        runner.start();
        running.await();
        boolean cancelled = task.cancel(true);
        runner.join();
        log.append("future task: cancel(true) ").append(cancelled).append(", isCancelled ").append(task.isCancelled())
                .append(", the runner's ").append(outcome).append(", cancel again ").append(task.cancel(true))
                .append('\n');

        Object blocker = new Object();
        Thread parker = new Thread(() -> LockSupport.park(blocker), "parker");
        log.append("getBlocker before start ").append(LockSupport.getBlocker(parker));
        parker.start();
        waitUntil(() -> LockSupport.getBlocker(parker) == blocker);
        log.append(", while parked the blocker ").append(LockSupport.getBlocker(parker) == blocker);
        LockSupport.unpark(parker);
        parker.join();
        log.append(", after it ended ").append(LockSupport.getBlocker(parker)).append('\n');

        Object monitor = new Object();
        StringBuilder waited = new StringBuilder();
        Thread timedWaiter = new Thread(() -> {
            synchronized (monitor) {
                try {
                    TimeUnit.SECONDS.timedWait(monitor, 60);
                    waited.append("returned");
                } catch (InterruptedException expected) {
                    waited.append("interrupted, holds the monitor ").append(Thread.holdsLock(monitor));
                }
            }
        });
        timedWaiter.start();
        Thread interrupter = new Thread(() -> {
            waitForState(timedWaiter, Thread.State.TIMED_WAITING);
            timedWaiter.interrupt();
        });
        interrupter.start();
        interrupter.join();
        timedWaiter.join();
        StringBuilder notified = new StringBuilder();
        boolean[] ready = {false};
        Thread notifiedWaiter = new Thread(() -> {
            synchronized (monitor) {
                try {
                    while (!ready[0]) {
                        TimeUnit.SECONDS.timedWait(monitor, 60);
                    }
                    notified.append("woken by notify");
                } catch (InterruptedException exception) {
                    notified.append("interrupted");
                }
            }
        });
        notifiedWaiter.start();
        Thread notifier = new Thread(() -> {
            waitForState(notifiedWaiter, Thread.State.TIMED_WAITING);
            synchronized (monitor) {
                ready[0] = true;
                monitor.notifyAll();
            }
        });
        notifier.start();
        notifier.join();
        notifiedWaiter.join();
        log.append("timedWait: ").append(waited).append("; ").append(notified).append('\n');

        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS,
                new LinkedBlockingQueue<Runnable>(), runnable -> new Thread(runnable, "worker"));
        StringBuilder ranOn = new StringBuilder();
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(() -> {
            ranOn.append(Thread.currentThread().getName());
            ran.countDown();
        });
        ran.await();
        pool.shutdown();
        log.append("pool with the program's thread factory: task ran on ").append(ranOn)
                .append(", terminated after shutdown ").append(pool.awaitTermination(20, TimeUnit.SECONDS))
                .append('\n');

        ScheduledExecutorService scheduled = Executors.newScheduledThreadPool(1);
        String scheduledThread = scheduled.schedule(() -> Thread.currentThread().getName(), 0, TimeUnit.SECONDS)
                .get();
        ExecutorService fixed = Executors.newFixedThreadPool(1);
        String fixedThread = fixed.submit(() -> Thread.currentThread().getName()).get();
        scheduled.shutdown();
        fixed.shutdown();
        log.append("pool numbers: the fixed pool's is the scheduled pool's plus ")
                .append(poolNumber(fixedThread) - poolNumber(scheduledThread))
                .append(", its worker ").append(fixedThread.substring(fixedThread.lastIndexOf("-thread-")))
                .append(", terminated ").append(fixed.awaitTermination(20, TimeUnit.SECONDS)
                        && scheduled.awaitTermination(20, TimeUnit.SECONDS));
        return log.toString();
    }

    /** N of a thread named pool-N-thread-M. */
    private static int poolNumber(String threadName) {
        return Integer.parseInt(threadName.substring("pool-".length(), threadName.indexOf("-thread-")));
    }

    private static void waitForState(Thread thread, Thread.State state) {
        try {
            waitUntil(() -> thread.getState() == state);
        } catch (Exception exception) {
            throw new IllegalStateException(exception);
        }
    }
}
