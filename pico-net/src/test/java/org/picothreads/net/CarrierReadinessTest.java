package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.net.readiness.ReadinessWhileACarrierSpins;
import org.picothreads.targets.net.timers.SleepsBesideASpinner;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.ValidationAssertions;

/**
 * Threads woken by I/O readiness and by timers run on the other carriers while one carrier is held by a spinner, even
 * when that carrier was the one waiting for the timers.
 */
class CarrierReadinessTest {
    @Test
    void a_reader_woken_by_socket_data_runs_while_another_carrier_spins() throws Exception {
        assumeTrue(Integer.getInteger("picothreads.carriers", Runtime.getRuntime().availableProcessors()) >= 2,
                "a thread that never blocks holds its only carrier: this needs two or more");
        String expected = String.join("\n", "the reader got 'ping'", "the spinner saw the reader finish",
                "the writer wrote 4 bytes");
        assertEquals(expected, TargetRunner.run(ReadinessWhileACarrierSpins.class), "on platform threads");
        ValidationAssertions.assertSameResult(ReadinessWhileACarrierSpins.class);
    }

    @Test
    void a_sleepers_timers_fire_while_a_spinner_holds_the_carrier_that_waited_for_them_as_on_platform_threads()
            throws Exception {
        assumeTrue(Integer.getInteger("picothreads.carriers", Runtime.getRuntime().availableProcessors()) >= 2,
                "a thread that never blocks holds its only carrier: this needs two or more");
        StringBuilder expected = new StringBuilder();
        for (int round = 0; round < 5; round++) {
            expected.append("round ").append(round).append(": the spinner saw 20 sleeps\n");
        }
        expected.append("the reader read 3 bytes");
        assertEquals(expected.toString(), TargetRunner.run(SleepsBesideASpinner.class), "on platform threads");
        ValidationAssertions.assertSameResult(SleepsBesideASpinner.class);
    }
}
