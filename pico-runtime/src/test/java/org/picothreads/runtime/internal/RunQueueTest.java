package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.SchedulingPolicy;

/**
 * The run queue against a plain list that does what each policy says, through bursts that make its array grow to
 * tens of thousands of slots and drain back: the same task at every take, and the array halved again once drained.
 */
class RunQueueTest {
    private static final long SEED = 42;

    @Test
    void every_policy_takes_the_same_tasks_as_a_plain_list_while_the_array_grows_and_shrinks() throws Exception {
        for (SchedulingPolicy policy : SchedulingPolicy.values()) {
            RunQueue queue = new RunQueue(policy, SEED);
            PlainQueue expected = new PlainQueue(policy, SEED);
            Random operations = new Random(3);
            int largest = 0;
            for (int burst = 0; burst < 6; burst++) {
                int added = 1 + operations.nextInt(40_000);
                for (int index = 0; index < added; index++) {
                    Task task = new Task();
                    if (operations.nextInt(5) == 0) {
                        queue.addYielded(task);
                        expected.addYielded(task);
                    } else {
                        queue.add(task);
                        expected.add(task);
                    }
                    // a take now and then while the burst goes on, as carriers take tasks while others start them
                    if (operations.nextInt(4) == 0) {
                        assertSame(expected.poll(), queue.poll(), policy + " burst " + burst);
                    }
                }
                largest = Math.max(largest, capacity(queue));
                while (expected.size() > 0) {
                    assertSame(expected.poll(), queue.poll(), policy + " burst " + burst);
                    assertEquals(expected.size(), queue.size());
                }
                assertNull(queue.poll());
                assertTrue(capacity(queue) <= 1024, policy + ": " + capacity(queue) + " slots left after a drain");
            }
            assertTrue(largest >= 16_384, policy + ": the bursts never made the array grow (" + largest + ")");
        }
    }

    private static int capacity(RunQueue queue) throws ReflectiveOperationException {
        Field elements = RunQueue.class.getDeclaredField("elements");
        elements.setAccessible(true);
        return ((Object[]) elements.get(queue)).length;
    }

    /**
     * What each policy means, on an array that never wraps nor moves: the tasks between {@code front} and
     * {@code back}, the front first, with room for every task a test adds on either side.
     */
    private static final class PlainQueue {
        private static final int ROOM = 1 << 20;
        private final SchedulingPolicy policy;
        private final SplittableRandom random;
        private final Task[] tasks = new Task[2 * ROOM];
        private int front = ROOM;
        private int back = ROOM;

        PlainQueue(SchedulingPolicy policy, long seed) {
            this.policy = policy;
            this.random = new SplittableRandom(seed);
        }

        int size() {
            return back - front;
        }

        void add(Task task) {
            tasks[back++] = task;
        }

        void addYielded(Task task) {
            if (policy == SchedulingPolicy.LIFO) {
                tasks[--front] = task;
            } else {
                tasks[back++] = task;
            }
        }

        Task poll() {
            if (size() == 0) {
                return null;
            }
            if (policy == SchedulingPolicy.LIFO) {
                return tasks[--back];
            }
            if (policy == SchedulingPolicy.RANDOM && size() > 1) {
                // the chosen task is taken; the one at the front moves into its place
                int chosen = front + random.nextInt(size());
                Task task = tasks[chosen];
                tasks[chosen] = tasks[front];
                tasks[front++] = null;
                return task;
            }
            return tasks[front++];
        }
    }
}
