package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.events;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.ThreadCalls;

class JoinTest {

    @Test
    void a_pico_thread_joining_another_continues_after_it_terminates() throws InterruptedException {
        List<Object> events = events();
        PicoThread worker = new PicoThread(Script.of(
                () -> events.add("worker starts"), () -> ThreadCalls.sleep(20), () -> events.add("worker ends")));
        PicoThread firstJoiner = new PicoThread(Script.of(
                () -> ThreadCalls.join(worker), () -> events.add("first joiner continues")));
        PicoThread secondJoiner = new PicoThread(Script.of(
                () -> ThreadCalls.join(worker, 0, 0), () -> events.add("second joiner continues")));
        runAll(worker, firstJoiner, secondJoiner);
        assertEquals(List.of("worker starts", "worker ends"), events.subList(0, 2));
        assertEquals(Set.of("first joiner continues", "second joiner continues"), Set.copyOf(events.subList(2, 4)));
        assertEquals(4, events.size());
    }

    @Test
    void a_timed_join_returns_after_the_timeout_while_the_thread_is_still_alive() throws InterruptedException {
        List<Object> events = events();
        PicoThread sleeper = new PicoThread(Script.of(Script.sleepUntilInterrupted(60_000)), "long sleeper");
        long[] waited = new long[1];
        PicoThread joiner = new PicoThread(Script.of(
                () -> waited[0] = System.nanoTime(),
                () -> ThreadCalls.join(sleeper, 30),
                () -> {
                    waited[0] = System.nanoTime() - waited[0];
                    events.add(ThreadCalls.isAlive(sleeper));
                },
                () -> events.add(ThreadCalls.join(sleeper, Duration.ofMillis(5))),
                () -> events.add(ThreadCalls.join(sleeper, Duration.ZERO)),
                sleeper::interrupt,
                () -> events.add(ThreadCalls.join(sleeper, Duration.ofSeconds(10)))));
        runAll(sleeper, joiner);

        assertEquals(List.of(true, false, false, true), events);
        assertTrue(waited[0] >= 30_000_000L, () -> "returned after " + waited[0] + " ns");
    }

    @Test
    void joining_a_thread_that_was_not_started_returns_at_once_except_with_a_duration() throws InterruptedException {
        List<Object> events = events();
        PicoThread unstarted = new PicoThread(() -> { });
        PicoThread joiner = new PicoThread(Script.of(
                () -> ThreadCalls.join(unstarted),
                () -> ThreadCalls.join(unstarted, 10),
                () -> events.add(assertThrows(IllegalThreadStateException.class,
                        () -> ThreadCalls.join(unstarted, Duration.ofMillis(1))).getMessage())));
        runAll(joiner);
        ThreadCalls.join(unstarted);
        assertEquals(List.of("Thread not started"), events);
        assertEquals("Thread not started", assertThrows(IllegalThreadStateException.class,
                () -> ThreadCalls.join(unstarted, Duration.ofMillis(1))).getMessage());
    }

    @Test
    void a_platform_thread_joining_a_pico_thread_blocks_until_it_terminates() throws InterruptedException {
        List<Object> events = events();
        PicoThread worker = new PicoThread(Script.of(() -> ThreadCalls.sleep(50), () -> events.add("done")));
        worker.start();
        ThreadCalls.join(worker);
        assertEquals(List.of("done"), events);
        assertFalse(ThreadCalls.isAlive(worker));
        assertEquals(Thread.State.TERMINATED, worker.getState());
    }

    @Test
    void a_platform_thread_timed_join_on_a_pico_thread_returns_at_the_timeout() throws InterruptedException {
        PicoThread sleeper = new PicoThread(Script.of(Script.sleepUntilInterrupted(60_000)));
        sleeper.start();
        long started = System.nanoTime();
        ThreadCalls.join(sleeper, 40);
        long waited = System.nanoTime() - started;
        assertTrue(ThreadCalls.isAlive(sleeper));
        assertTrue(waited >= 40_000_000L, () -> "returned after " + waited + " ns");
        assertFalse(ThreadCalls.join(sleeper, Duration.ofMillis(5)));

        sleeper.interrupt();
        assertTrue(ThreadCalls.join(sleeper, Duration.ofSeconds(10)));
    }

    @Test
    void a_pico_thread_can_join_a_platform_thread_without_blocking_the_carrier() throws InterruptedException {
        List<Object> events = events();
        Thread platform = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, "platform worker");
        platform.start();
        PicoThread joiner = new PicoThread(Script.of(
                () -> ThreadCalls.join(platform),
                () -> events.add("joiner sees platform alive: " + ThreadCalls.isAlive(platform))));
        PicoThread meanwhile = new PicoThread(Script.of(
                () -> ThreadCalls.sleep(10), () -> events.add("meanwhile runs")));
        runAll(joiner, meanwhile);
        assertEquals(List.of("meanwhile runs", "joiner sees platform alive: false"), events);
    }

    @Test
    void a_pico_thread_timed_join_on_a_platform_thread_returns_at_the_timeout() throws InterruptedException {
        List<Object> events = events();
        Object release = new Object();
        boolean[] released = new boolean[1];
        Thread platform = new Thread(() -> {
            synchronized (release) {
                while (!released[0]) {
                    try {
                        release.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "waiting platform thread");
        platform.start();
        PicoThread joiner = new PicoThread(Script.of(
                () -> ThreadCalls.join(platform, 20),
                () -> events.add(ThreadCalls.isAlive(platform))));
        runAll(joiner);
        synchronized (release) {
            released[0] = true;
            release.notifyAll();
        }
        platform.join();
        assertEquals(List.of(true), events);
    }

    @Test
    void join_checks_its_arguments_like_the_jdk() {
        PicoThread thread = new PicoThread();
        assertEquals("timeout value is negative",
                assertThrows(IllegalArgumentException.class, () -> ThreadCalls.join(thread, -1)).getMessage());
        assertEquals("nanosecond timeout value out of range",
                assertThrows(IllegalArgumentException.class,
                        () -> ThreadCalls.join(thread, 1, 1_000_000)).getMessage());
        assertEquals("timeout value is negative",
                assertThrows(IllegalArgumentException.class, () -> ThreadCalls.join(thread, -1, 0)).getMessage());
        assertThrows(NullPointerException.class, () -> ThreadCalls.join(null));
    }

    @Test
    void a_thread_joined_by_many_wakes_them_all_in_the_order_they_joined() throws InterruptedException {
        assumeTrue(PicoTesting.oneCarrier(), "threads run in this order on one carrier only");
        List<Object> events = events();
        PicoThread worker = new PicoThread(Script.of(() -> ThreadCalls.sleep(10)));
        Thread[] threads = new Thread[21];
        threads[0] = worker;
        for (int index = 1; index < threads.length; index++) {
            int number = index;
            threads[index] = new PicoThread(Script.of(
                    () -> ThreadCalls.join(worker, number % 2 == 0 ? 0 : 60_000), () -> events.add(number)));
        }
        runAll(threads);
        assertEquals(20, events.size());
        for (int index = 0; index < 20; index++) {
            assertEquals(index + 1, events.get(index));
        }
    }
}
