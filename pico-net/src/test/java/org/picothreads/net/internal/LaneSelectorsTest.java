package org.picothreads.net.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.Scheduler;
import org.picothreads.targets.net.idle.ReadersIdleOnEveryLane;
import org.picothreads.targets.net.readiness.ReadinessOnASpinnersLane;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;
import org.picothreads.transform.testing.ValidationAssertions;

/**
 * The selectors of the lanes: a socket registered with the selector of a lane whose carrier computes is still polled,
 * by another carrier; and carriers that idle on their lanes' selectors, with a wait registered in each, wait without
 * waking until something happens.
 */
class LaneSelectorsTest {
    private static boolean severalCarriers() {
        return Integer.getInteger("picothreads.carriers", Runtime.getRuntime().availableProcessors()) >= 2;
    }

    @Test
    void a_reader_whose_socket_is_on_a_spinning_carriers_lane_is_woken_by_another_carrier_as_on_platform_threads()
            throws Exception {
        assumeTrue(severalCarriers(), "a thread that never blocks holds its only carrier: this needs two or more");
        String expected = String.join("\n", "the reader got 'ping'", "the spinner saw the reader finish",
                "the writer wrote 4 bytes");
        assertEquals(expected, TargetRunner.runPlain(ReadinessOnASpinnersLane.class), "on platform threads");
        assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> ValidationAssertions.assertSameResult(ReadinessOnASpinnersLane.class));
    }

    @Test
    void carriers_idle_on_the_selectors_of_lanes_that_each_hold_a_waiting_reader_make_no_select_until_data_comes()
            throws Exception {
        TransformingClassLoader loader = TransformingClassLoader.forPackages(
                ReadersIdleOnEveryLane.class.getPackageName() + ".");
        Class<?> transformed = loader.transformedCopyOf(ReadersIdleOnEveryLane.class);
        int lanes = Scheduler.laneCount();
        Object started = TargetRunner.callStatic(transformed, "start", new Class<?>[] {int.class}, lanes);
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            NetPoller poller = NetPoller.get();
            for (int lane = 0; lane < lanes; lane++) {
                while (poller.pendingWaits(lane) == 0) {
                    Thread.sleep(1);
                }
            }
        });
        Thread.sleep(200); // the readers have registered: their carriers settle into their idle waits
        NetPoller poller = NetPoller.get();
        long before = poller.waitingSelects();
        Thread.sleep(300);
        long selects = poller.waitingSelects() - before;
        // An idle carrier that waited at most a millisecond at a time (a lane seen without an idle carrier of its own)
        // would select some 300 times; a timer armed by a thread another test left behind may add a few selects.
        assertTrue(selects < 100, "selects that could wait, made in 300 ms of idling: " + selects);
        String read = (String) assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> TargetRunner.callStatic(transformed, "finish", new Class<?>[] {Object.class}, started));
        String[] lines = read.split("\n");
        assertTrue(lines.length >= lanes, read);
        StringJoiner expected = new StringJoiner("\n");
        for (int reader = 0; reader < lines.length; reader++) {
            expected.add("reader " + reader + ": " + (reader + 1) + ", then -1");
        }
        assertEquals(expected.toString(), read);
    }
}
