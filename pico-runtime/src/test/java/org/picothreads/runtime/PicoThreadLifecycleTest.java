package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.picothreads.runtime.PicoTesting.awaitTermination;
import static org.picothreads.runtime.PicoTesting.events;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.ThreadCalls;

class PicoThreadLifecycleTest {

    @Test
    void unnamed_threads_take_the_next_jdk_thread_numbers() {
        PicoThread first = new PicoThread();
        Thread platform = new Thread();
        PicoThread second = new PicoThread(() -> { });
        PicoThread third = new PicoThread(Thread.currentThread().getThreadGroup(), () -> { });

        int number = Integer.parseInt(first.getName().substring("Thread-".length()));
        assertEquals("Thread-" + (number + 1), platform.getName());
        assertEquals("Thread-" + (number + 2), second.getName());
        assertEquals("Thread-" + (number + 3), third.getName());
    }

    @Test
    void every_constructor_of_thread_is_mirrored_with_its_arguments() throws InterruptedException {
        ThreadGroup group = new ThreadGroup("workers");
        List<Object> events = events();
        Runnable target = () -> events.add(ThreadCalls.currentThread().getName());

        List<Thread> threads = List.of(
                new PicoThread(target),
                new PicoThread(group, target),
                new PicoThread("named"),
                new PicoThread(group, "grouped"),
                new PicoThread(target, "target and name"),
                new PicoThread(group, target, "group, target and name"),
                new PicoThread(group, target, "with stack size", 1 << 20),
                new PicoThread(group, target, "without inherited locals", 0, false));

        assertEquals("named", threads.get(2).getName());
        assertSame(group, threads.get(1).getThreadGroup());
        assertSame(group, threads.get(3).getThreadGroup());
        assertSame(group, threads.get(7).getThreadGroup());
        assertThrows(NullPointerException.class, () -> new PicoThread((String) null));
        runAll(threads.toArray(new Thread[0]));
        assertEquals(Stream.of(threads.get(0).getName(), threads.get(1).getName(), "target and name",
                "group, target and name", "with stack size", "without inherited locals").sorted().toList(),
                events.stream().map(String.class::cast).sorted().toList());
    }

    @Test
    void a_thread_goes_from_new_to_runnable_to_waiting_states_to_terminated() throws InterruptedException {
        assumeTrue(PicoTesting.oneCarrier(), "the states are seen in this order on one carrier only");
        List<Object> seen = events();
        PicoThread sleeper = new PicoThread(Script.of(() -> ThreadCalls.sleep(100)), "sleeper");
        PicoThread observer = new PicoThread(Script.of(
                () -> {
                    seen.add(ThreadCalls.currentThread().getState());
                    seen.add(sleeper.getState());
                    seen.add(ThreadCalls.isAlive(sleeper));
                },
                () -> ThreadCalls.join(sleeper),
                () -> {
                    seen.add(sleeper.getState());
                    seen.add(ThreadCalls.isAlive(sleeper));
                }), "observer");
        PicoThread watcher = new PicoThread(() -> seen.add(observer.getState()), "watcher");
        PicoThread launcher = new PicoThread(() -> {
            sleeper.start();
            seen.add(sleeper.getState());
            observer.start();
            watcher.start();
        });

        assertEquals(Thread.State.NEW, sleeper.getState());
        assertFalse(ThreadCalls.isAlive(sleeper));
        launcher.start();
        awaitTermination(launcher, sleeper, observer, watcher);

        assertEquals(List.of(Thread.State.RUNNABLE, Thread.State.RUNNABLE, Thread.State.TIMED_WAITING, true,
                Thread.State.WAITING, Thread.State.TERMINATED, false), seen);
        assertEquals(Thread.State.TERMINATED, sleeper.getState());
        assertFalse(ThreadCalls.isAlive(sleeper));
    }

    @Test
    void starting_a_thread_twice_throws_illegal_thread_state() throws InterruptedException {
        PicoThread thread = new PicoThread(() -> { });
        thread.start();
        assertThrows(IllegalThreadStateException.class, thread::start);
        awaitTermination(thread);
        assertThrows(IllegalThreadStateException.class, thread::start);
    }

    @Test
    void daemon_status_can_change_only_while_the_thread_is_not_alive() throws InterruptedException {
        List<Object> events = events();
        PicoThread thread = new PicoThread(Script.of(() -> ThreadCalls.sleep(50)));
        assertFalse(thread.isDaemon());
        ThreadCalls.setDaemon(thread, true);
        assertTrue(thread.isDaemon());
        PicoThread checker = new PicoThread(() -> {
            try {
                ThreadCalls.setDaemon(thread, false);
                events.add("changed");
            } catch (IllegalThreadStateException expected) {
                events.add("refused");
            }
        });
        runAll(thread, checker);
        assertEquals(List.of("refused"), events);
        assertTrue(thread.isDaemon());
        ThreadCalls.setDaemon(thread, false);
        assertFalse(thread.isDaemon());
    }

    @Test
    void a_thread_created_by_a_pico_thread_inherits_its_daemon_status_not_the_carriers() throws InterruptedException {
        AtomicReference<PicoThread> childOfDaemon = new AtomicReference<>();
        AtomicReference<PicoThread> childOfNonDaemon = new AtomicReference<>();
        PicoThread daemon = new PicoThread(() -> childOfDaemon.set(new PicoThread()));
        ThreadCalls.setDaemon(daemon, true);
        daemon.setPriority(Thread.NORM_PRIORITY - 1);
        PicoThread nonDaemon = new PicoThread(() -> childOfNonDaemon.set(new PicoThread()));
        runAll(daemon, nonDaemon);

        assertTrue(childOfDaemon.get().isDaemon());
        assertEquals(Thread.NORM_PRIORITY - 1, childOfDaemon.get().getPriority());
        assertFalse(childOfNonDaemon.get().isDaemon());
        assertEquals(Thread.NORM_PRIORITY, childOfNonDaemon.get().getPriority());
    }

    @Test
    void every_pico_thread_runs_on_daemon_carrier_threads_and_on_one_of_them_with_one_carrier()
            throws InterruptedException {
        List<Object> carriers = events();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < 5; index++) {
            threads.add(new PicoThread(Script.of(
                    () -> carriers.add(Thread.currentThread()),
                    () -> ThreadCalls.sleep(2),
                    () -> carriers.add(Thread.currentThread()),
                    ThreadCalls::yieldNow,
                    () -> carriers.add(Thread.currentThread()))));
        }
        runAll(threads.toArray(new Thread[0]));

        assertEquals(15, carriers.size());
        Thread carrier = (Thread) carriers.get(0);
        for (Object each : carriers) {
            Thread eachCarrier = (Thread) each;
            assertTrue(eachCarrier.getName().startsWith("pico-carrier-"), eachCarrier.getName());
            assertTrue(eachCarrier.isDaemon());
            assertNotSame(Thread.currentThread(), eachCarrier);
            if (PicoTesting.oneCarrier() && PicoThreads.statistics().spareCarriersStarted() == 0) {
                assertSame(carrier, eachCarrier);
            }
        }
    }

    @Test
    void current_thread_is_the_pico_thread_inside_it_and_the_platform_thread_outside() throws InterruptedException {
        AtomicReference<Thread> inside = new AtomicReference<>();
        PicoThread thread = new PicoThread(Script.of(() -> ThreadCalls.sleep(1),
                () -> inside.set(ThreadCalls.currentThread())));
        runAll(thread);
        assertSame(thread, inside.get());
        assertSame(Thread.currentThread(), ThreadCalls.currentThread());
    }

    @Test
    void the_uncaught_exception_handler_gets_the_thread_and_its_exception() throws InterruptedException {
        List<Object> handled = events();
        IllegalStateException failure = new IllegalStateException("boom");
        PicoThread thread = new PicoThread(Script.of(() -> ThreadCalls.sleep(1), () -> {
            throw failure;
        }), "failing");
        thread.setUncaughtExceptionHandler((dying, exception) -> {
            handled.add(dying);
            handled.add(exception);
            handled.add(ThreadCalls.currentThread());
            handled.add(ThreadCalls.isAlive(dying));
        });
        assertNotSame(null, thread.getUncaughtExceptionHandler());
        runAll(thread);

        assertEquals(List.of(thread, failure, thread, true), handled);
        assertNull(thread.getUncaughtExceptionHandler());
    }

    @Test
    void without_a_handler_the_thread_group_handles_the_exception() throws InterruptedException {
        List<Object> handled = events();
        ThreadGroup group = new ThreadGroup("recording") {
            @Override
            public void uncaughtException(Thread thread, Throwable exception) {
                handled.add(thread.getName() + ": " + exception.getMessage());
            }
        };
        PicoThread thread = new PicoThread(group, () -> {
            throw new IllegalArgumentException("bad argument");
        }, "grouped");
        assertSame(group, thread.getUncaughtExceptionHandler());
        runAll(thread);
        assertEquals(List.of("grouped: bad argument"), handled);
    }

    @Test
    void to_string_matches_a_platform_thread_before_and_after_running() throws InterruptedException {
        Thread platform = new Thread(() -> { }, "same name");
        PicoThread pico = new PicoThread(() -> { }, "same name");
        assertEquals(withoutId(platform.toString()), withoutId(pico.toString()));
        assertTrue(pico.toString().contains(pico.getName()));

        platform.start();
        platform.join();
        runAll(pico);
        assertEquals(withoutId(platform.toString()), withoutId(pico.toString()));
    }

    private static String withoutId(String text) {
        return text.replaceFirst("#\\d+,", "");
    }

    @Test
    void interrupting_a_thread_before_it_starts_is_seen_when_it_runs() throws InterruptedException {
        List<Object> events = events();
        PicoThread thread = new PicoThread(() -> {
            events.add(ThreadCalls.currentThread().isInterrupted());
            try {
                ThreadCalls.sleep(10_000);
                events.add("slept");
            } catch (InterruptedException expected) {
                events.add(expected.getMessage());
                events.add(ThreadCalls.currentThread().isInterrupted());
            }
        });
        thread.interrupt();
        assertTrue(thread.isInterrupted());
        runAll(thread);
        assertEquals(List.of(true, "sleep interrupted", false), events);
    }

    @Test
    void a_thread_subclass_runs_its_own_run_method() throws InterruptedException {
        List<Object> events = events();
        class Worker extends PicoThread {
            private int step;

            Worker() {
                super("worker");
            }

            @Override
            public void run() {
                if (step == 0) {
                    events.add("before sleep");
                    step = 1;
                }
                try {
                    sleep(5);
                } catch (InterruptedException e) {
                    events.add(e);
                }
                events.add("after sleep on " + currentThread().getName());
            }
        }
        Worker worker = new Worker();
        long suspensionsBefore = PicoThreads.statistics().suspensions();
        runAll(worker);
        assertEquals(List.of("before sleep", "after sleep on worker"), events);
        assertTrue(PicoThreads.statistics().suspensions() > suspensionsBefore);
    }

    @Test
    void statistics_count_started_terminated_suspended_and_resumed_threads() throws InterruptedException {
        PicoThreads.Statistics before = PicoThreads.statistics();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < 10; index++) {
            threads.add(new PicoThread(Script.of(() -> ThreadCalls.sleep(1), () -> ThreadCalls.sleep(1))));
        }
        runAll(threads.toArray(new Thread[0]));
        PicoThreads.Statistics after = PicoThreads.statistics();

        assertEquals(11, after.threadsStarted() - before.threadsStarted());
        assertEquals(11, after.threadsTerminated() - before.threadsTerminated());
        assertEquals(after.threadsStarted() - after.threadsTerminated(), after.liveThreads());
        assertEquals(20, after.suspensions() - before.suspensions());
        assertEquals(20, after.resumes() - before.resumes());
    }

    @Test
    void configuring_the_policy_after_the_scheduler_booted_is_refused() throws InterruptedException {
        runAll(new PicoThread(() -> { }));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> PicoThreads.configure(SchedulingPolicy.LIFO, 1));
        assertTrue(refused.getMessage().contains("before the first PicoThread starts"), refused.getMessage());
    }
}
