package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.pinned;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.ThreadCalls;

/** Spare carriers, once the blocks they compensated for have ended, never leave ready threads or timers unserved. */
class SpareCarrierTest {
    /** Rounds of pinned blocks followed at once by work the carriers, spares among them, share. */
    private static final int ROUNDS = 30;
    /** Threads of a round's work, each yielding and sleeping a few times. */
    private static final int WORKERS = 200;
    /**
     * Longest a round may take: its work takes a few tens of ms; a round in which every carrier parked as surplus
     * (no idle role, not looking at the lanes) waits for a spare's 5 s keep-alive.
     */
    private static final long ROUND_LIMIT_MILLIS = 3_000;

    /** The spare carriers these tests started retire before the next test class runs, as it expects. */
    @AfterAll
    static void spare_carriers_retire_once_their_blocks_have_ended() {
        PicoTesting.awaitSparesRetired(PicoTesting.configuredCarriers());
    }

    @Test
    void once_the_blocks_have_ended_no_more_carriers_run_threads_than_configured_while_the_spares_wait_to_retire()
            throws InterruptedException {
        int carriers = PicoTesting.configuredCarriers();
        PicoTesting.awaitSparesRetired(carriers);
        long sparesBefore = PicoThreads.statistics().spareCarriersStarted();
        Thread[] blockers = new Thread[carriers];
        for (int index = 0; index < carriers; index++) {
            // each blocks its carrier for real for 50 ms, so that a spare starts for it
            blockers[index] = new PicoThread(pinned(() -> ThreadCalls.sleep(50)));
        }
        runAll(blockers);
        long sparesStarted = PicoThreads.statistics().spareCarriersStarted();

        // Test code is not rewritten: Thread.currentThread() in a PicoThread's body is the carrier that runs it.
        Set<String> carriersThatRan = ConcurrentHashMap.newKeySet();
        Thread[] workers = new Thread[WORKERS * 2];
        for (int index = 0; index < workers.length; index++) {
            workers[index] = new PicoThread(Script.of(Script.repeat(5, step -> Script.steps(
                    () -> carriersThatRan.add(Thread.currentThread().getName()),
                    ThreadCalls::yieldNow,
                    () -> ThreadCalls.sleep(1)))));
        }
        runAll(workers);
        PicoThreads.Statistics after = PicoThreads.statistics();

        assertTrue(sparesStarted > sparesBefore, "the blocks started spares: " + after);
        assertTrue(after.carriers() > carriers, "the spares wait for their keep-alive to end: " + after);
        assertTrue(carriersThatRan.size() <= carriers, "the workers ran on " + carriersThatRan + " with "
                + carriers + " carriers configured: " + after);
    }

    @Test
    void threads_made_ready_right_after_pinned_blocks_end_all_run_without_waiting_for_a_spare_to_retire()
            throws InterruptedException {
        int carriers = PicoTesting.configuredCarriers();
        AtomicInteger steps = new AtomicInteger();
        long slowest = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Thread[] threads = new Thread[carriers + WORKERS];
            for (int index = 0; index < carriers; index++) {
                // each blocks its carrier for real, so that spares start; they end while the workers run
                threads[index] = new PicoThread(pinned(() -> ThreadCalls.sleep(2)));
            }
            for (int index = carriers; index < threads.length; index++) {
                threads[index] = new PicoThread(Script.of(Script.repeat(5, step -> Script.steps(
                        ThreadCalls::yieldNow,
                        () -> ThreadCalls.sleep(1),
                        steps::incrementAndGet))));
            }
            long start = System.nanoTime();
            try {
                runAll(threads);
            } catch (AssertionError stalled) {
                throw new AssertionError(stalled.getMessage() + " in round " + round + ": " + PicoThreads.statistics()
                        + "\n" + PicoThreads.dump(), stalled);
            }
            slowest = Math.max(slowest, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
        assertEquals(ROUNDS * WORKERS * 5, steps.get());
        assertTrue(slowest < ROUND_LIMIT_MILLIS, "the slowest round took " + slowest + " ms: "
                + PicoThreads.statistics());
    }
}
