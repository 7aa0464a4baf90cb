package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.picothreads.runtime.PicoTesting.awaitTermination;
import static org.picothreads.runtime.PicoTesting.configuredCarriers;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.ThreadCalls;

/**
 * Carriers with run queues of their own: threads queued on a carrier that is busy, spinning without ever blocking,
 * run on the others, which take them from its queue; and a thread whose timer expires runs while every carrier but
 * one is busy. A spinner gives up after {@link #SPIN_LIMIT_NANOS} and says so, so that a failure ends.
 */
class StealingTest {
    /** How long a spinner spins before it gives up. */
    private static final long SPIN_LIMIT_NANOS = 20_000_000_000L;

    /** Spins, without blocking, until {@code count} reaches {@code target}; says whether it did or gave up. */
    private static String spinUntil(AtomicInteger count, int target) {
        long start = System.nanoTime();
        while (count.get() < target) {
            if (System.nanoTime() - start > SPIN_LIMIT_NANOS) {
                return "gave up at " + count.get();
            }
        }
        return "saw " + count.get();
    }

    /** The sum of the squares of 1 to {@code n}, the work each thread does. */
    private static long sumOfSquares(int n) {
        long sum = 0;
        for (long each = 1; each <= n; each++) {
            sum += each * each;
        }
        return sum;
    }

    @Test
    void threads_queued_on_a_carrier_that_never_blocks_run_on_the_other_carriers() throws InterruptedException {
        assumeTrue(configuredCarriers() >= 2,
                "a thread that never blocks holds its only carrier: this needs two or more");
        // A spare carrier shares a configured carrier's lane: one left by an earlier test could take a worker from
        // the busy carrier's lane without stealing.
        PicoTesting.awaitSparesRetired(configuredCarriers());
        int workers = 6;
        AtomicInteger finished = new AtomicInteger();
        AtomicLong sum = new AtomicLong();
        String[] spinner = new String[1];
        List<Thread> started = new ArrayList<>();
        PicoThread busy = new PicoThread(() -> {
            // Started here, the workers are queued on this carrier's own run queue, which it never looks at again
            // before it has seen them all finish.
            for (int index = 1; index <= workers; index++) {
                int n = index * 1_000;
                PicoThread worker = new PicoThread(() -> {
                    sum.addAndGet(sumOfSquares(n));
                    finished.incrementAndGet();
                }, "worker-" + index);
                started.add(worker);
                worker.start();
            }
            spinner[0] = spinUntil(finished, workers);
        }, "busy");
        PicoThreads.Statistics before = PicoThreads.statistics();
        busy.start();
        awaitTermination(busy);
        awaitTermination(started.toArray(new Thread[0]));
        PicoThreads.Statistics after = PicoThreads.statistics();

        long expected = 0;
        for (int index = 1; index <= workers; index++) {
            expected += sumOfSquares(index * 1_000);
        }
        assertEquals("saw 6", spinner[0]);
        assertEquals(expected, sum.get());
        assertTrue(after.steals() - before.steals() >= workers,
                () -> "each worker was taken from the busy carrier's queue by another: steals went from "
                        + before.steals() + " to " + after.steals());
    }

    @Test
    void a_thread_woken_by_its_timer_runs_while_every_other_carrier_is_busy() throws InterruptedException {
        int busyThreads = configuredCarriers() - 1;
        assumeTrue(busyThreads >= 1, "a thread that never blocks holds its only carrier: this needs two or more");
        AtomicInteger woken = new AtomicInteger();
        List<Object> events = PicoTesting.events();
        PicoThread sleeper = new PicoThread(Script.of(
                () -> ThreadCalls.sleep(20),
                () -> events.add("the sleeper woke while " + busyThreads + " carrier(s) spun"),
                woken::incrementAndGet), "sleeper");
        List<Thread> threads = new ArrayList<>();
        threads.add(sleeper);
        for (int index = 0; index < busyThreads; index++) {
            threads.add(new PicoThread(() -> events.add("spinner " + spinUntil(woken, 1)), "spinner-" + index));
        }
        PicoTesting.runAll(threads.toArray(new Thread[0]));

        List<Object> expected = new ArrayList<>();
        expected.add("the sleeper woke while " + busyThreads + " carrier(s) spun");
        for (int index = 0; index < busyThreads; index++) {
            expected.add("spinner saw 1");
        }
        assertEquals(expected, events);
    }
}
