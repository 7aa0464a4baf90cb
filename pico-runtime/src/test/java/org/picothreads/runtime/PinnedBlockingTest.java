package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.runtime.PicoTesting.events;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.ThreadCalls;

class PinnedBlockingTest {

    /** A Runnable that runs its body in a pinned region, as rewritten code does around a frame it cannot capture. */
    private static Runnable pinned(Script.Step body) {
        return () -> {
            Continuation.pin();
            try {
                body.run();
            } catch (Exception unexpected) {
                throw new IllegalStateException(unexpected);
            } finally {
                Continuation.unpin();
            }
        };
    }

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
        runAll(joiner, worker);
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
    void a_pinned_yield_runs_the_other_ready_threads_before_continuing() throws InterruptedException {
        List<Object> events = events();
        PicoThread yielding = new PicoThread(pinned(() -> {
            events.add("a1");
            ThreadCalls.yieldNow();
            events.add("a2");
        }));
        PicoThread other = new PicoThread(Script.of(
                () -> events.add("b1"), ThreadCalls::yieldNow, () -> events.add("b2")));
        runAll(yielding, other);
        assertEquals(List.of("a1", "b1", "b2", "a2"), events);
    }

    @Test
    void an_outer_pinned_thread_continues_only_after_the_inner_pinned_block_returns() throws InterruptedException {
        List<Object> events = events();
        PicoThread outer = new PicoThread(pinned(() -> {
            ThreadCalls.sleep(10);
            events.add("outer woke");
        }));
        PicoThread inner = new PicoThread(pinned(() -> {
            ThreadCalls.sleep(100);
            events.add("inner woke");
        }));
        runAll(outer, inner);
        assertEquals(List.of("inner woke", "outer woke"), events);
    }
}
