package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.awaitTermination;
import static org.picothreads.runtime.PicoTesting.events;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.ThreadCalls;

class InterruptTest {

    /** A step that sleeps and logs how the sleep ended, and the interrupt status after it. */
    private static Script.Step sleepAndLog(List<Object> events, long millis) {
        return () -> {
            try {
                ThreadCalls.sleep(millis);
                events.add("slept");
            } catch (InterruptedException interrupted) {
                events.add("InterruptedException: " + interrupted.getMessage());
            }
            events.add("interrupted afterwards: " + ThreadCalls.currentThread().isInterrupted());
        };
    }

    @Test
    void interrupting_a_sleeping_pico_thread_wakes_it_with_interrupted_exception_and_clears_the_flag()
            throws InterruptedException {
        List<Object> events = events();
        PicoThread sleeper = new PicoThread(Script.of(sleepAndLog(events, 60_000)));
        PicoThread interrupter = new PicoThread(sleeper::interrupt);
        long started = System.nanoTime();
        runAll(sleeper, interrupter);
        assertEquals(List.of("InterruptedException: sleep interrupted", "interrupted afterwards: false"), events);
        assertTrue(System.nanoTime() - started < 30_000_000_000L);
        assertEquals(false, sleeper.isInterrupted());
    }

    @Test
    void a_platform_thread_can_interrupt_a_sleeping_pico_thread() throws InterruptedException {
        List<Object> events = events();
        PicoThread sleeper = new PicoThread(Script.of(
                () -> events.add("asleep"), sleepAndLog(events, 60_000)));
        sleeper.start();
        while (sleeper.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(1);
        }
        sleeper.interrupt();
        awaitTermination(sleeper);
        assertEquals(List.of("asleep", "InterruptedException: sleep interrupted", "interrupted afterwards: false"),
                events);
    }

    @Test
    void interrupting_a_joining_pico_thread_wakes_it_with_interrupted_exception() throws InterruptedException {
        List<Object> events = events();
        PicoThread sleeper = new PicoThread(Script.of(Script.sleepUntilInterrupted(60_000)));
        PicoThread joiner = new PicoThread(Script.of(() -> {
            try {
                ThreadCalls.join(sleeper);
                events.add("joined");
            } catch (InterruptedException interrupted) {
                events.add("InterruptedException: " + interrupted.getMessage());
                events.add(ThreadCalls.isAlive(sleeper));
            }
        }));
        PicoThread interrupter = new PicoThread(Script.of(joiner::interrupt, () -> ThreadCalls.join(joiner),
                sleeper::interrupt));
        runAll(sleeper, joiner, interrupter);
        assertEquals(Arrays.asList("InterruptedException: null", true), events);
    }

    @Test
    void interrupted_returns_the_status_once_and_clears_it_while_is_interrupted_leaves_it()
            throws InterruptedException {
        List<Object> events = events();
        PicoThread thread = new PicoThread(() -> {
            Thread self = ThreadCalls.currentThread();
            events.add(ThreadCalls.interrupted());
            self.interrupt();
            events.add(self.isInterrupted());
            events.add(self.isInterrupted());
            events.add(ThreadCalls.interrupted());
            events.add(ThreadCalls.interrupted());
            events.add(self.isInterrupted());
        });
        runAll(thread);
        assertEquals(List.of(false, true, true, true, false, false), events);
        assertEquals(false, Thread.currentThread().isInterrupted());
    }

    @Test
    void an_interrupt_while_running_makes_the_next_sleep_throw_at_once() throws InterruptedException {
        List<Object> events = events();
        PicoThread thread = new PicoThread(Script.of(
                () -> ThreadCalls.currentThread().interrupt(),
                () -> events.add(PicoThreads.statistics().suspensions()),
                sleepAndLog(events, 60_000),
                () -> events.add(PicoThreads.statistics().suspensions())));
        runAll(thread);
        assertEquals(List.of("InterruptedException: sleep interrupted", "interrupted afterwards: false"),
                events.subList(1, 3));
        assertEquals(events.get(0), events.get(3), "the sleep threw without suspending");
    }

    @Test
    void a_sleep_that_ended_before_the_interrupt_returns_normally_and_keeps_the_status()
            throws InterruptedException {
        assumeTrue(PicoTesting.oneCarrier(), "threads run in this order on one carrier only");
        List<Object> events = events();
        PicoThread sleeper = new PicoThread(Script.of(sleepAndLog(events, 1)));
        PicoThread busy = new PicoThread(Script.of(
                () -> {
                    long until = System.nanoTime() + 20_000_000L;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                },
                ThreadCalls::yieldNow,
                sleeper::interrupt));
        runAll(sleeper, busy);
        assertEquals(List.of("slept", "interrupted afterwards: true"), events);
    }
}
