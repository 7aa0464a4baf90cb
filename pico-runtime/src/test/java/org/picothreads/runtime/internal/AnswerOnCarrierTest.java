package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.runtime.PicoThread;

/** Scheduler.answerOnCarrier: in place on the carrier, through a submission that wakes it from any other thread. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class AnswerOnCarrierTest {

    @Test
    void a_question_from_a_platform_thread_is_answered_on_the_idle_carrier_that_it_wakes() throws Exception {
        PicoThread booting = new PicoThread(() -> { });
        booting.start();
        ThreadCalls.join(booting, 20_000);
        assertFalse(ThreadCalls.isAlive(booting));
        Thread.currentThread().interrupt();
        String ranOn = Scheduler.answerOnCarrier(() -> Thread.currentThread().getName());
        assertTrue(Thread.interrupted(), "the interrupt stays set through the wait");
        assertEquals("pico-carrier", ranOn);
    }

    @Test
    void a_question_from_a_pico_thread_is_answered_in_place_before_the_call_returns() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        PicoThread caller = new PicoThread(() -> {
            events.add(Scheduler.answerOnCarrier(() -> "answered on " + Thread.currentThread().getName()));
            events.add("returned");
        });
        caller.start();
        ThreadCalls.join(caller, 20_000);
        assertEquals(List.of("answered on pico-carrier", "returned"), events);
    }
}
