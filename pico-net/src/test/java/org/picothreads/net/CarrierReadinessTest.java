package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.net.readiness.ReadinessWhileACarrierSpins;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.ValidationAssertions;

/** Threads woken by I/O readiness and by timers run on the other carriers while one carrier is held by a spinner. */
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
}
