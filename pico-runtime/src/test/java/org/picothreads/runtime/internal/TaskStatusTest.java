package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.picothreads.runtime.SchedulingPolicy;

/** The status word of a task: its state, its dispatch bit and the number of its wait, as the scheduler changes them. */
class TaskStatusTest {
    private static final Lane LANE = new Lane(0, 1, SchedulingPolicy.FIFO, 0);

    @Test
    void a_waker_that_read_an_earlier_wait_cannot_end_a_later_one() {
        Task task = new Task();
        task.beginDispatch(LANE);
        int firstWait = task.beginWait(Task.PARKED_TIMED);
        assertTrue(task.compareAndSetStatus(firstWait, Task.withState(firstWait, Task.RUNNING)),
                "the task ends its first wait itself");
        int secondWait = task.beginWait(Task.PARKED_TIMED);

        assertFalse(task.compareAndSetStatus(firstWait, Task.withState(firstWait, Task.WAKING)),
                "a timer popped for the first wait must not end the second");
        assertEquals(Task.PARKED_TIMED, task.state());
        assertTrue(task.compareAndSetStatus(secondWait, Task.withState(secondWait, Task.WAKING)));
        assertEquals(Task.WAKING, task.state());
    }

    @Test
    void ending_a_dispatch_clears_only_its_bit_and_returns_the_state_the_carrier_acts_on() {
        Task task = new Task();
        task.beginDispatch(LANE);
        assertTrue(task.isDispatched());
        int waiting = task.beginWait(Task.SLEEPING);
        assertTrue(task.compareAndSetStatus(waiting, Task.withState(waiting, Task.WAKING)), "a waker wins the wait");

        assertEquals(Task.WAKING, task.endDispatch(), "the waker, not the carrier, will queue it");
        assertFalse(task.isDispatched());
        assertEquals(Task.WAKING, task.state());
        assertEquals(waiting & ~Task.DISPATCHED, Task.withState(task.status(), Task.SLEEPING),
                "the wait number is kept");
    }
}
