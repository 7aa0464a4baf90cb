package org.picothreads.transform.validation;

import static org.picothreads.transform.validation.ManyCarriersTest.assertGivenOnPlatformThreadsAndRewritten;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.carriers.BarrierActionArrivals;
import org.picothreads.targets.carriers.BarrierActionObservers;
import org.picothreads.targets.carriers.ExchangerStress;
import org.picothreads.targets.carriers.LatchBarrierStress;
import org.picothreads.targets.carriers.LockConditionStress;
import org.picothreads.targets.carriers.MonitorStress;
import org.picothreads.targets.carriers.QueueStress;

/**
 * Two thousand threads at a time over monitors, a lock and its conditions, blocking queues, a latch and a barrier,
 * threads arriving at a barrier or calling it while its action runs, and pairs of threads over exchangers: every
 * count and checksum is exact on platform threads and rewritten, whatever the number of carriers.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CarrierStressTest {

    @Test
    void two_thousand_threads_over_synchronized_counters_and_wait_notify_handoffs_count_exactly() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(MonitorStress.class, "threads 2000, counter total 20000,"
                + " counters exact 20 of 20, handoff checksum 399790000, handoffs that timed out 0");
    }

    @Test
    void two_thousand_threads_over_a_reentrant_lock_and_its_conditions_count_exactly() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(LockConditionStress.class,
                "threads 2000, counter 2000, items left 0, checksum 199990000, waits that timed out 0");
    }

    @Test
    void two_thousand_producers_and_consumers_take_every_item_of_two_blocking_queues_exactly_once() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(QueueStress.class, "array queue: items 10000, taken exactly once"
                + " 10000, left 0, checksum 49995000, waits that timed out 0; linked queue: items 10000, taken exactly"
                + " once 10000, left 0, checksum 149995000, waits that timed out 0");
    }

    @Test
    void two_thousand_threads_meet_at_a_barrier_five_times_between_two_latches() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(LatchBarrierStress.class, "threads 2000, arrivals per generation"
                + " 2000 2000 2000 2000 2000, failures 0, the watcher saw the done latch reach zero true");
    }

    @Test
    void twenty_pairs_of_threads_woken_together_exchange_in_every_round_without_both_of_a_pair_waiting()
            throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(ExchangerStress.class, "pairs 20, rounds 250, exchanges that gave"
                + " the partner's item of the same round 10000, checksum 2495000, threads whose exchange timed out 0,"
                + " rounds not ready in time 0");
    }

    @Test
    void sixteen_threads_five_times_at_a_barrier_of_four_whose_action_sleeps_trip_it_exactly_twenty_times()
            throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(BarrierActionArrivals.class, "trips 20, awaits that returned 80,"
                + " sum of arrival indices 120, awaits that timed out 0, awaits that found the barrier broken 0");
    }

    @Test
    void threads_that_time_out_are_interrupted_or_reset_the_barrier_while_its_action_runs_see_it_as_after_the_trip()
            throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(BarrierActionObservers.class, "timeout during the action:"
                + " first returned 1, last returned 0, broken false; interrupt during the action: first returned 1"
                + " with its interrupt status true, last returned 0, broken false; calls during the action: in the"
                + " action waiting 2, broken false; other threads saw waiting 0, broken false; first returned 1, last"
                + " returned 0, broken after the reset false");
    }
}
