package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimerHeapTest {

    private static Task task() {
        return new Task();
    }

    @Test
    void timers_fire_in_deadline_order_then_in_the_order_they_were_armed() {
        TimerHeap heap = new TimerHeap();
        Random random = new Random(7);
        long base = Long.MAX_VALUE - 1_000_000;
        List<long[]> armed = new ArrayList<>();
        List<Task> tasks = new ArrayList<>();
        for (int index = 0; index < 20_000; index++) {
            Task task = task();
            long deadline = base + random.nextInt(5_000);
            heap.arm(task, deadline);
            tasks.add(task);
            armed.add(new long[] {deadline, index});
        }
        armed.sort(Comparator.<long[]>comparingLong(entry -> entry[0] - base).thenComparingLong(entry -> entry[1]));

        for (long[] entry : armed) {
            assertSame(tasks.get((int) entry[1]), heap.pollExpired(base + 10_000));
        }
        assertNull(heap.pollExpired(base + 10_000));
        assertFalse(heap.hasLiveTimers());
    }

    @Test
    void cancelled_timers_never_fire_and_are_dropped_when_they_pile_up() {
        TimerHeap heap = new TimerHeap();
        Random random = new Random(11);
        List<Task> live = new ArrayList<>();
        List<Long> liveDeadlines = new ArrayList<>();
        for (int index = 0; index < 5_000; index++) {
            Task task = task();
            long deadline = random.nextInt(1_000_000);
            heap.arm(task, deadline);
            if (index % 3 == 0) {
                live.add(task);
                liveDeadlines.add(deadline);
            } else {
                heap.cancel(task);
            }
        }
        Task rearmed = task();
        heap.arm(rearmed, 5);
        heap.cancel(rearmed);
        heap.arm(rearmed, 2_000_000);

        assertEquals(liveDeadlines.stream().mapToLong(Long::longValue).min().getAsLong(), heap.nextDeadline());
        List<Task> fired = new ArrayList<>();
        Task task;
        while ((task = heap.pollExpired(1_000_000)) != null) {
            fired.add(task);
        }
        assertEquals(live.size(), fired.size());
        for (int index = 1; index < fired.size(); index++) {
            long previous = liveDeadlines.get(live.indexOf(fired.get(index - 1)));
            long current = liveDeadlines.get(live.indexOf(fired.get(index)));
            assertFalse(current < previous, "fired out of deadline order at " + index);
        }
        assertEquals(2_000_000, heap.nextDeadline());
        assertSame(rearmed, heap.pollExpired(2_000_000));
        assertFalse(heap.hasLiveTimers());
    }

    @Test
    void a_stale_entry_of_one_lane_never_fires_a_timer_the_task_armed_in_another() {
        TimerHeap first = new TimerHeap(0, 2);
        TimerHeap second = new TimerHeap(1, 2);
        Task task = task();
        first.arm(task, 100);
        first.cancel(task); // its entry stays in the first heap until it reaches the top
        second.arm(task, 200);

        assertNull(first.pollExpired(1_000), "the first heap holds only the cancelled entry");
        assertSame(task, second.pollExpired(1_000));
    }
}
