package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.awaitTermination;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.concurrent.ConcurrentCalls;
import org.picothreads.runtime.concurrent.PicoCountDownLatch;
import org.picothreads.runtime.concurrent.PicoReentrantLock;
import org.picothreads.runtime.internal.ThreadCalls;

/**
 * The runtime's java.util.concurrent types driven by hand-written resumable code: waits suspend PicoThreads, survive
 * their re-invocation without starting over, and work across PicoThreads and platform threads.
 */
class ConcurrentPrimitivesTest {

    @Test
    void a_pico_thread_awaiting_a_latch_suspends_until_a_platform_thread_counts_it_down() throws Exception {
        CountDownLatch latch = new PicoCountDownLatch(1);
        List<Object> events = PicoTesting.events();
        PicoThread waiter = new PicoThread(Script.of(() -> latch.await(), () -> events.add("passed")));
        PicoThreads.Statistics before = PicoThreads.statistics();
        waiter.start();
        waitUntilWaiting(waiter);
        latch.countDown();
        awaitTermination(waiter);

        assertEquals(List.of("passed"), events);
        assertTrue(PicoThreads.statistics().suspensions() - before.suspensions() >= 1);
    }

    @Test
    void a_platform_thread_awaiting_a_latch_wakes_when_pico_threads_count_it_down() throws Exception {
        CountDownLatch latch = new PicoCountDownLatch(3);
        List<Thread> counters = new ArrayList<>();
        for (int index = 0; index < 3; index++) {
            PicoThread counter = new PicoThread(Script.of(() -> ThreadCalls.sleep(5), latch::countDown));
            counters.add(counter);
            counter.start();
        }

        assertTrue(latch.await(20, TimeUnit.SECONDS));
        assertEquals(0, latch.getCount());
        awaitTermination(counters.toArray(new Thread[0]));
    }

    @Test
    void a_timed_await_woken_again_and_again_keeps_the_deadline_of_its_first_call() throws Exception {
        CountDownLatch never = new PicoCountDownLatch(1);
        int[] nudges = {0};
        int[] nudgesWhenTimedOut = {-1};
        boolean[] result = {true};
        PicoThread waiter = new PicoThread(Script.of(() -> result[0] = never.await(60, TimeUnit.MILLISECONDS),
                () -> nudgesWhenTimedOut[0] = nudges[0]));
        PicoThread nudger = new PicoThread(Script.of(Script.repeat(500, index -> Script.steps(() -> {
            if (nudgesWhenTimedOut[0] < 0) {
                nudges[0]++;
                ConcurrentCalls.unpark(waiter);
                ThreadCalls.sleep(10);
            }
        }))));
        waiter.start();
        nudger.start();
        awaitTermination(waiter, nudger);

        assertFalse(result[0]);
        assertTrue(nudgesWhenTimedOut[0] >= 0 && nudgesWhenTimedOut[0] < 500,
                "the await timed out only after " + nudgesWhenTimedOut[0] + " wake-ups");
    }

    @Test
    void an_interrupted_lock_wait_throws_and_leaves_no_waiter_behind() throws Exception {
        ReentrantLock lock = new PicoReentrantLock();
        List<Object> events = PicoTesting.events();
        lock.lock();
        PicoThread waiter = new PicoThread(Script.of(() -> {
            try {
                lock.lockInterruptibly();
                events.add("locked");
            } catch (InterruptedException expected) {
                events.add("interrupted, flag " + Thread.currentThread().isInterrupted());
            }
        }));
        waiter.start();
        waitUntilWaiting(waiter);
        assertTrue(ConcurrentCalls.hasQueuedThreads(lock));
        waiter.interrupt();
        awaitTermination(waiter);
        lock.unlock();

        assertEquals(List.of("interrupted, flag false"), events);
        assertFalse(ConcurrentCalls.hasQueuedThreads(lock));
        assertFalse(lock.isLocked());
    }

    @Test
    void tasks_that_sleep_suspend_the_pico_thread_workers_of_a_fixed_pool() throws Exception {
        ExecutorService pool = ConcurrentCalls.newFixedThreadPool(2);
        PicoThreads.Statistics before = PicoThreads.statistics();
        List<Future<Integer>> futures = new ArrayList<>();
        for (int index = 1; index <= 4; index++) {
            int value = index;
            futures.add(pool.submit(() -> {
                ThreadCalls.sleep(value);
                return value * 10;
            }));
        }
        int sum = 0;
        for (Future<Integer> future : futures) {
            sum += future.get(20, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertTrue(pool.awaitTermination(20, TimeUnit.SECONDS));
        assertEquals(100, sum);
        assertTrue(PicoThreads.statistics().suspensions() - before.suspensions() >= 4);
    }

    /** Waits, as the platform thread, until a PicoThread reports WAITING or TIMED_WAITING. */
    private static void waitUntilWaiting(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, thread + " never started to wait");
            Thread.sleep(1);
        }
    }
}
