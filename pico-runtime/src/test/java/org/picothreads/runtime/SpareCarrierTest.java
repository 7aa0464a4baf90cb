package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.pinned;
import static org.picothreads.runtime.PicoTesting.runAll;

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
