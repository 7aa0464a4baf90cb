package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.awaitTermination;
import static org.picothreads.runtime.PicoTesting.events;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.ThreadCalls;

class ThreadLocalTest {

    @Test
    void each_pico_thread_keeps_its_own_value_across_a_suspension_and_the_platform_thread_keeps_its_own()
            throws InterruptedException {
        List<Object> events = events();
        PicoThreadLocal<String> local = new PicoThreadLocal<>() {
            @Override
            protected String initialValue() {
                return "initial for " + ThreadCalls.currentThread().getName();
            }
        };
        local.set("platform value");
        List<Thread> threads = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            threads.add(new PicoThread(Script.of(
                    () -> {
                        events.add(local.get());
                        local.set(name + "'s value");
                    },
                    () -> ThreadCalls.sleep(10),
                    () -> {
                        events.add(local.get());
                        local.remove();
                        events.add(local.get());
                    }), name));
        }
        runAll(threads.toArray(new Thread[0]));

        for (String name : List.of("a", "b")) {
            assertEquals(List.of("initial for " + name, name + "'s value", "initial for " + name),
                    events.stream().filter(event -> ((String) event).endsWith(" " + name)
                            || ((String) event).startsWith(name + "'")).toList());
        }
        assertEquals("platform value", local.get());
        local.remove();
        assertEquals("initial for " + Thread.currentThread().getName(), local.get());
    }

    @Test
    void with_initial_gives_a_pico_thread_local_whose_supplier_runs_once_per_thread() throws InterruptedException {
        List<Object> events = events();
        AtomicInteger supplied = new AtomicInteger();
        ThreadLocal<Integer> local = PicoThreadLocal.withInitial(supplied::incrementAndGet);
        PicoThread first = new PicoThread(() -> events.add(local.get() + "," + local.get()));
        PicoThread second = new PicoThread(() -> events.add(local.get() + "," + local.get()));
        runAll(first, second);

        assertTrue(local instanceof PicoThreadLocal, local.getClass().getName());
        assertEquals(List.of("1,1", "2,2"), events.stream().sorted().toList());
        assertEquals(2, supplied.get());
    }

    @Test
    void inheritable_values_pass_through_child_value_from_platform_threads_and_from_pico_threads()
            throws InterruptedException {
        List<Object> events = events();
        PicoInheritableThreadLocal<String> context = new PicoInheritableThreadLocal<>() {
            @Override
            protected String childValue(String parentValue) {
                return parentValue + " > child";
            }
        };
        context.set("main");
        PicoThread[] grandchild = new PicoThread[1];
        PicoThread parent = new PicoThread(Script.of(
                () -> {
                    events.add(context.get());
                    context.set("parent");
                    grandchild[0] = new PicoThread(() -> events.add(context.get()));
                    context.set("parent, changed after creating the child");
                    grandchild[0].start();
                },
                () -> ThreadCalls.join(grandchild[0]),
                () -> events.add(context.get())));
        List<Object> isolatedSaw = events();
        PicoThread isolated = new PicoThread(null, () -> isolatedSaw.add(String.valueOf(context.get())), "isolated", 0,
                false);
        String[] platformChildSaw = new String[1];
        Thread platformChild = new Thread(() -> platformChildSaw[0] = context.get());
        platformChild.start();
        platformChild.join();
        runAll(parent, isolated);

        assertEquals(List.of("main > child", "parent > child", "parent, changed after creating the child"), events);
        assertEquals(List.of("null"), isolatedSaw);
        assertEquals("main > child", platformChildSaw[0]);
        assertEquals("main", context.get());
        context.remove();
        assertEquals(null, context.get());
    }

    @Test
    void a_platform_thread_that_inherited_no_values_creates_threads_that_inherit_none() throws InterruptedException {
        PicoInheritableThreadLocal<String> context = new PicoInheritableThreadLocal<>();
        context.set("set, then removed");
        context.remove();
        Object[] seen = new Object[2];
        Thread parent = new Thread(() -> {
            Thread platformChild = new Thread(() -> seen[0] = context.get());
            platformChild.start();
            PicoThread picoChild = new PicoThread(() -> seen[1] = context.get());
            picoChild.start();
            try {
                platformChild.join();
                awaitTermination(picoChild);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        parent.start();
        parent.join();

        assertEquals(Arrays.asList(null, null), Arrays.asList(seen));
    }

    @Test
    void on_platform_threads_a_pico_thread_local_behaves_as_the_jdk_thread_local() throws InterruptedException {
        PicoThreadLocal<List<String>> local = new PicoThreadLocal<>() {
            @Override
            protected List<String> initialValue() {
                return new ArrayList<>(List.of(Thread.currentThread().getName()));
            }
        };
        List<String> mine = local.get();
        assertSame(mine, local.get());
        Object[] other = new Object[1];
        Thread thread = new Thread(() -> other[0] = local.get(), "other platform thread");
        thread.start();
        thread.join();

        assertEquals(List.of("other platform thread"), other[0]);
        assertEquals(List.of(Thread.currentThread().getName()), local.get());
    }
}
