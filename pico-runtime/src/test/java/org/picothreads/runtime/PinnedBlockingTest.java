package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.runtime.PicoTesting.events;
import static org.picothreads.runtime.PicoTesting.pinned;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.ThreadCalls;

class PinnedBlockingTest {

    @Test
    void a_pinned_sleep_lets_the_other_threads_run_meanwhile() throws InterruptedException {
        List<Object> events = events();
        PicoThread sleeper = new PicoThread(pinned(() -> {
            ThreadCalls.sleep(300);
            events.add("pinned sleeper woke as " + ThreadCalls.currentThread().getName());
        }), "sleeper");
        PicoThread other = new PicoThread(Script.of(Script.repeat(3, index -> Script.steps(
                () -> ThreadCalls.sleep(2),
                () -> events.add("other " + index + " sees sleeper " + sleeper.getState())))));
        PicoThreads.Statistics before = PicoThreads.statistics();
        runAll(sleeper, other);
        PicoThreads.Statistics after = PicoThreads.statistics();

        assertEquals(List.of("other 0 sees sleeper TIMED_WAITING", "other 1 sees sleeper TIMED_WAITING",
                "other 2 sees sleeper TIMED_WAITING", "pinned sleeper woke as sleeper"), events);
        assertEquals(1, after.pinnedBlocks() - before.pinnedBlocks());
        assertEquals(3, after.suspensions() - before.suspensions(), "only the other thread suspended");
    }

    @Test
    void a_pinned_join_runs_the_joined_thread_to_its_end() throws InterruptedException {
        List<Object> events = events();
        PicoThread worker = new PicoThread(Script.of(
                () -> events.add("worker starts"),
                () -> ThreadCalls.sleep(5),
                ThreadCalls::yieldNow,
                () -> ThreadCalls.sleep(5),
                () -> events.add("worker ends")), "worker");
        PicoThread joiner = new PicoThread(pinned(() -> {
            ThreadCalls.join(worker);
            events.add("joiner continues as " + ThreadCalls.currentThread().getName());
        }), "joiner");
        runAll(worker, joiner); // a join of a thread not started yet would return at once
        assertEquals(List.of("worker starts", "worker ends", "joiner continues as joiner"), events);
    }

    @Test
    void a_pinned_timed_join_returns_at_the_timeout() throws InterruptedException {
        List<Object> events = events();
        PicoThread sleeper = new PicoThread(Script.of(Script.sleepUntilInterrupted(60_000)));
        PicoThread joiner = new PicoThread(pinned(() -> {
            ThreadCalls.join(sleeper, 20);
            events.add(ThreadCalls.isAlive(sleeper));
            sleeper.interrupt();
        }));
        runAll(sleeper, joiner);
        assertEquals(List.of(true), events);
    }

    @Test
    void interrupting_a_pinned_sleeper_wakes_it_with_interrupted_exception() throws InterruptedException {
        List<Object> events = events();
        PicoThread sleeper = new PicoThread(pinned(() -> {
            try {
                ThreadCalls.sleep(60_000);
                events.add("slept");
            } catch (InterruptedException interrupted) {
                events.add(interrupted.getMessage());
                events.add(ThreadCalls.currentThread().isInterrupted());
            }
        }));
        PicoThread interrupter = new PicoThread(sleeper::interrupt);
        runAll(sleeper, interrupter);
        assertEquals(List.of("sleep interrupted", false), events);
    }

    @Test
    void a_pinned_thread_spinning_on_yield_lets_the_thread_it_waits_for_run() throws InterruptedException {
        List<Object> events = events();
        AtomicBoolean done = new AtomicBoolean();
        PicoThread spinning = new PicoThread(pinned(() -> {
            events.add("spinning");
            while (!done.get()) {
                ThreadCalls.yieldNow();
            }
            events.add("saw done");
        }));
        PicoThread other = new PicoThread(Script.of(
                () -> ThreadCalls.sleep(5), () -> done.set(true)));
        runAll(spinning, other);
        assertEquals(List.of("spinning", "saw done"), events);
    }

    /**
     * The deadlines are 390 ms apart: the second thread's carrier may be a spare started for the first, and starting
     * one took over 90 ms on a machine loaded by other builds.
     */
    @Test
    void pinned_threads_block_their_own_carriers_and_each_wakes_at_its_own_deadline() throws InterruptedException {
        List<Object> events = events();
        PicoThread first = new PicoThread(pinned(() -> {
            ThreadCalls.sleep(400);
            events.add("later deadline woke");
        }));
        PicoThread second = new PicoThread(pinned(() -> {
            ThreadCalls.sleep(10);
            events.add("earlier deadline woke");
        }));
        runAll(first, second);
        assertEquals(List.of("earlier deadline woke", "later deadline woke"), events);
    }
}
