package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.events;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.ThreadCalls;

class SleepAndYieldTest {

    @Test
    void a_sleeping_thread_wakes_no_earlier_than_its_deadline() throws InterruptedException {
        long[] elapsed = new long[3];
        long[] started = new long[1];
        PicoThread thread = new PicoThread(Script.of(
                () -> started[0] = System.nanoTime(),
                () -> ThreadCalls.sleep(30),
                () -> elapsed[0] = System.nanoTime() - started[0],
                () -> ThreadCalls.sleep(5, 500_000),
                () -> elapsed[1] = System.nanoTime() - started[0],
                () -> ThreadCalls.sleep(Duration.ofMillis(10)),
                () -> elapsed[2] = System.nanoTime() - started[0]));
        runAll(thread);

        assertTrue(elapsed[0] >= 30_000_000L, () -> "woke after " + elapsed[0] + " ns");
        assertTrue(elapsed[1] - elapsed[0] >= 5_500_000L, () -> "woke after " + (elapsed[1] - elapsed[0]) + " ns");
        assertTrue(elapsed[2] - elapsed[1] >= 10_000_000L, () -> "woke after " + (elapsed[2] - elapsed[1]) + " ns");
    }

    /** Sleeps until an absolute System.nanoTime() deadline, noting how long its call to sleep took to suspend. */
    private static final class DeadlineSleeper implements Runnable {
        final int rank;
        final long deadline;
        final List<Object> wakeOrder;
        /** The wait passed to sleep, computed once so that the resumed call passes the same argument. */
        Duration wait;
        /** Upper bound on how late the scheduler may have read the clock for the deadline, in nanoseconds. */
        long uncertainty;
        long wokeAt;

        DeadlineSleeper(int rank, long deadline, List<Object> wakeOrder) {
            this.rank = rank;
            this.deadline = deadline;
            this.wakeOrder = wakeOrder;
        }

        @Override
        public void run() {
            try {
                if (wait == null) {
                    long before = System.nanoTime();
                    wait = Duration.ofNanos(deadline - before);
                    try {
                        ThreadCalls.sleep(wait);
                    } catch (Capture signal) {
                        uncertainty = System.nanoTime() - before;
                        throw signal;
                    }
                } else {
                    ThreadCalls.sleep(wait);
                }
            } catch (InterruptedException unexpected) {
                throw new IllegalStateException(unexpected);
            }
            wokeAt = System.nanoTime();
            wakeOrder.add(this);
        }
    }

    @Test
    void ten_thousand_sleepers_with_distinct_deadlines_wake_in_deadline_order() throws InterruptedException {
        assumeTrue(PicoTesting.oneCarrier(), "threads run in this order on one carrier only");
        int count = 10_000;
        long spacing = 50_000L;
        List<Integer> ranks = new ArrayList<>();
        for (int rank = 0; rank < count; rank++) {
            ranks.add(rank);
        }
        Collections.shuffle(ranks, new Random(42));
        // Far enough ahead that all of them are started and asleep before the first deadline, even on a loaded machine.
        long firstDeadline = System.nanoTime() + 3_000_000_000L;
        List<Object> wakeOrder = events();
        Thread[] threads = new Thread[count];
        for (int index = 0; index < count; index++) {
            int rank = ranks.get(index);
            threads[index] = new PicoThread(new DeadlineSleeper(rank, firstDeadline + rank * spacing, wakeOrder));
        }
        runAll(threads);

        // The scheduler reads the clock for a deadline a little after the sleeper computed its wait, so a pause in
        // between (a GC) can swap two deadlines. Each sleeper measured that window: a thread may wake after one
        // with a later deadline only by less than its window, and such swaps must stay rare.
        assertEquals(count, wakeOrder.size());
        long latestEarlierDeadline = firstDeadline;
        int descents = 0;
        int previousRank = -1;
        for (int position = 0; position < count; position++) {
            DeadlineSleeper sleeper = (DeadlineSleeper) wakeOrder.get(position);
            assertTrue(sleeper.wokeAt - sleeper.deadline >= 0, "woke before its deadline");
            long latest = latestEarlierDeadline;
            assertTrue(latest - (sleeper.deadline + sleeper.uncertainty) <= 0, () -> "rank " + sleeper.rank
                    + " woke after a thread whose deadline was " + (latest - sleeper.deadline) + " ns later");
            if (sleeper.rank < previousRank) {
                descents++;
            }
            previousRank = sleeper.rank;
            latestEarlierDeadline = Math.max(latestEarlierDeadline, sleeper.deadline);
        }
        assertTrue(descents < count / 20, descents + " sleepers woke before a sleeper of lower rank");
    }

    @Test
    void yield_lets_the_other_ready_threads_run_first() throws InterruptedException {
        assumeTrue(PicoTesting.oneCarrier(), "threads run in this order on one carrier only");
        List<Object> events = events();
        PicoThread yielding = new PicoThread(Script.of(
                () -> events.add("a1"), ThreadCalls::yieldNow, () -> events.add("a2"),
                ThreadCalls::yieldNow, () -> events.add("a3")));
        PicoThread other = new PicoThread(Script.of(
                () -> events.add("b1"), ThreadCalls::yieldNow, () -> events.add("b2")));
        runAll(yielding, other);
        assertEquals(List.of("a1", "b1", "a2", "b2", "a3"), events);
    }

    @Test
    void sleep_zero_yields_like_the_jdk() throws InterruptedException {
        assumeTrue(PicoTesting.oneCarrier(), "threads run in this order on one carrier only");
        List<Object> events = events();
        PicoThread sleeping = new PicoThread(Script.of(
                () -> events.add("a1"), () -> ThreadCalls.sleep(0), () -> events.add("a2")));
        PicoThread other = new PicoThread(() -> events.add("b1"));
        runAll(sleeping, other);
        assertEquals(List.of("a1", "b1", "a2"), events);
    }

    @Test
    void yield_with_nothing_else_ready_continues_without_suspending() throws InterruptedException {
        List<Object> events = events();
        PicoThread alone = new PicoThread(Script.of(
                () -> events.add(PicoThreads.statistics().suspensions()),
                ThreadCalls::yieldNow,
                () -> events.add(PicoThreads.statistics().suspensions())));
        runAll(alone);
        assertEquals(events.get(0), events.get(1));
    }

    @Test
    void sleep_checks_its_arguments_like_the_jdk() throws InterruptedException {
        List<Object> events = events();
        PicoThread thread = new PicoThread(Script.of(
                () -> events.add(assertThrows(IllegalArgumentException.class, () -> ThreadCalls.sleep(-1))
                        .getMessage()),
                () -> events.add(assertThrows(IllegalArgumentException.class, () -> ThreadCalls.sleep(1, 1_000_000))
                        .getMessage()),
                () -> events.add(assertThrows(IllegalArgumentException.class, () -> ThreadCalls.sleep(-1, 0))
                        .getMessage()),
                () -> events.add(PicoThreads.statistics().suspensions()),
                () -> ThreadCalls.sleep(Duration.ofMillis(-5)),
                () -> events.add(PicoThreads.statistics().suspensions())));
        runAll(thread);
        assertEquals(List.of("timeout value is negative", "nanosecond timeout value out of range",
                "timeout value is negative"), events.subList(0, 3));
        assertEquals(events.get(3), events.get(4), "a negative Duration returns without suspending");
        assertThrows(NullPointerException.class, () -> ThreadCalls.sleep((Duration) null));
    }

    @Test
    void on_a_platform_thread_sleep_and_yield_block_that_thread_as_the_jdk_does() throws InterruptedException {
        long started = System.nanoTime();
        ThreadCalls.sleep(20);
        ThreadCalls.sleep(1, 1);
        ThreadCalls.sleep(Duration.ofMillis(5));
        ThreadCalls.yieldNow();
        assertTrue(System.nanoTime() - started >= 26_000_000L);

        Thread.currentThread().interrupt();
        InterruptedException interrupted = assertThrows(InterruptedException.class, () -> ThreadCalls.sleep(1_000));
        assertEquals("sleep interrupted", interrupted.getMessage());
        assertEquals(false, Thread.currentThread().isInterrupted());
    }
}
