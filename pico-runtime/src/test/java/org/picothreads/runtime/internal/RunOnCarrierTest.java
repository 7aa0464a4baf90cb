package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.PicoThread;

/** Scheduler.runOnCarrier: in place on the carrier, through a submission that wakes it from any other thread. */
class RunOnCarrierTest {

    @Test
    void an_action_from_a_platform_thread_runs_on_the_idle_carrier_that_it_wakes() throws Exception {
        PicoThread booting = new PicoThread(() -> { });
        booting.start();
        ThreadCalls.join(booting, 20_000);
        assertFalse(ThreadCalls.isAlive(booting));
        List<String> ranOn = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        Scheduler.runOnCarrier(() -> {
            ranOn.add(Thread.currentThread().getName());
            done.countDown();
        });
        assertTrue(done.await(20, TimeUnit.SECONDS), "the carrier ran the action");
        assertEquals(List.of("pico-carrier"), ranOn);
    }

    @Test
    void an_action_from_a_pico_thread_runs_in_place_before_the_call_returns() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        PicoThread caller = new PicoThread(() -> {
            Scheduler.runOnCarrier(() -> events.add("action on " + Thread.currentThread().getName()));
            events.add("returned");
        });
        caller.start();
        ThreadCalls.join(caller, 20_000);
        assertEquals(List.of("action on pico-carrier", "returned"), events);
    }
}
