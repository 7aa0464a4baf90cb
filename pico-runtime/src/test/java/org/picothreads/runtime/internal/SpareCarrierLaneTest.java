package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.PicoTesting;
import org.picothreads.runtime.PicoThread;
import org.picothreads.runtime.PicoThreads;

/** The lane a spare carrier takes: that of the carrier it compensates for, when no other carrier is free to take it. */
class SpareCarrierLaneTest {
    /** How long the blocked thread holds its carrier: long enough for the test to look at the carriers meanwhile. */
    private static final long BLOCK_MILLIS = 500;

    @Test
    void a_spare_started_for_a_pinned_block_takes_the_blocked_carriers_lane_which_no_other_carrier_takes()
            throws Exception {
        int configured = PicoTesting.configuredCarriers();
        PicoTesting.awaitSparesRetired(configured);
        AtomicReference<Carrier> blockedCarrier = new AtomicReference<>();
        CountDownLatch blocking = new CountDownLatch(1);
        PicoThread blocker = new PicoThread(() -> {
            Continuation.pin();
            try {
                blockedCarrier.set(Carrier.here());
                blocking.countDown();
                ThreadCalls.sleep(BLOCK_MILLIS); // pinned: blocks the carrier for real, and a spare starts
            } catch (InterruptedException unexpected) {
                throw new IllegalStateException(unexpected);
            } finally {
                Continuation.unpin();
            }
        }, "blocker");
        blocker.start();
        assertTrue(blocking.await(10, TimeUnit.SECONDS), "the blocker ran");
        Carrier blocked = blockedCarrier.get();
        assertNotNull(blocked, "the blocker ran on a carrier");

        List<String> sameLane = new ArrayList<>();
        boolean covered = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BLOCK_MILLIS / 2);
        while (!covered && System.nanoTime() - deadline < 0) {
            sameLane.clear();
            boolean blockCounted = false;
            for (Carrier carrier : Scheduler.get().carriersNow(new Carrier[0])) {
                if (carrier == blocked) {
                    blockCounted = carrier.pinnedBlock;
                } else if (carrier.lane == blocked.lane) {
                    sameLane.add(carrier.getName() + (carrier.pinnedBlock || carrier.unseenBlock ? " (blocked)" : ""));
                    covered |= !carrier.pinnedBlock && !carrier.unseenBlock;
                }
            }
            covered &= blockCounted;
            Thread.sleep(1);
        }
        ThreadCalls.join(blocker, 10_000);

        assertTrue(covered, "while " + blocked.getName() + " was blocked, the other carriers of its lane "
                + blocked.lane.index + " were " + sameLane + ": " + PicoThreads.statistics());
        PicoTesting.awaitSparesRetired(configured);
    }
}
