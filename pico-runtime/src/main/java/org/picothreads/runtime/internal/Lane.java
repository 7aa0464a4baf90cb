package org.picothreads.runtime.internal;

import java.util.Arrays;
import java.util.function.Supplier;
import org.picothreads.runtime.SchedulingPolicy;

/**
 * The ready threads and the timers of one configured carrier: its {@link RunQueue} and its {@link TimerHeap}, each
 * under a lock of its own, so that carriers that make threads ready, arm timers or take work on different lanes never
 * meet on one lock. The owning carrier takes from its lane first; a carrier whose lane is empty takes from the others
 * (it steals). A spare carrier, started while carriers are blocked by pinned threads, shares a lane with a configured
 * one. With one carrier there is one lane, and it orders threads exactly as the paper's single run queue.
 *
 * <p>Two fields are read without the locks, as hints: {@link #readyHint} and {@link #earliestDeadline}. A carrier
 * that finds nothing through them before it parks looks again under the locks, after it has announced that it is
 * idle, so that a thread made ready meanwhile either sees the idle carrier or is seen by it.
 */
final class Lane {
    /** The lane's position among the scheduler's lanes. */
    final int index;
    /** The ready threads; guarded by itself. */
    private final RunQueue queue;
    /** The armed timers; guarded by itself. */
    private final TimerHeap timers;
    /** How many threads are ready in this lane, as of the last change; read without the lock. */
    private volatile int readyHint;
    /** The deadline of the earliest entry in the timer heap (possibly a cancelled one), valid while {@link #timersArmed}. */
    private volatile long earliestDeadline;
    /** True while the timer heap holds an entry, live or cancelled; read without the lock. */
    private volatile boolean timersArmed;
    /**
     * The idle carrier of this lane that waits on the lane's share of the I/O poller, or null; written under the
     * scheduler's lock, read without it as a hint.
     */
    volatile Carrier idlePoller;
    /**
     * How many dispatches the lane's carriers have begun (a plain count, which wraps): another carrier that finds it
     * unchanged between two of its looks knows that they have all stayed inside one dispatch, or idle, meanwhile.
     */
    int dispatches;

    /** Lane {@code index} of {@code laneCount}, ordering its ready threads by {@code policy} (RANDOM drawing from {@code seed}). */
    Lane(int index, int laneCount, SchedulingPolicy policy, long seed) {
        this.index = index;
        this.queue = new RunQueue(policy, seed);
        this.timers = new TimerHeap(index, laneCount);
    }

    /** True when this lane may have ready threads; without the lock. */
    boolean mayHaveReady() {
        return readyHint > 0;
    }

    /** How many threads are ready in this lane, as of the last change; without the lock. */
    int readyCountHint() {
        return readyHint;
    }

    /** True when this lane has ready threads; under its lock. */
    boolean hasReady() {
        synchronized (queue) {
            return !queue.isEmpty();
        }
    }

    /**
     * Adds a task that has become ready (or, with {@code yielded}, that yields, where the policy takes it last).
     *
     * @return how many tasks are ready in this lane now
     */
    int add(Task task, boolean yielded) {
        synchronized (queue) {
            enqueue(task, yielded);
            int size = queue.size();
            readyHint = size;
            return size;
        }
    }

    /**
     * Takes the next ready task in the policy's order and marks it running and dispatched by a carrier of
     * {@code runsOn} (this lane, or the lane of a carrier that steals it), or returns null when none is ready.
     */
    Task take(Lane runsOn) {
        synchronized (queue) {
            return takeLocked(runsOn);
        }
    }

    /**
     * Adds a task as {@link #add} does, then takes the next as {@link #take} does, under one acquisition of the lock:
     * what a carrier does when the thread it ran has just suspended ready again (it yielded) and no timer is due.
     */
    Task addAndTake(Task task, boolean yielded, Lane runsOn) {
        synchronized (queue) {
            enqueue(task, yielded);
            return takeLocked(runsOn);
        }
    }

    /** Queues a task in the policy's order (a yielding one where the policy takes it last); under the lock. */
    private void enqueue(Task task, boolean yielded) {
        if (yielded) {
            queue.addYielded(task);
        } else {
            queue.add(task);
        }
    }

    /** {@link #take}'s work, under the lock: skips terminated tasks and updates the hint. */
    private Task takeLocked(Lane runsOn) {
        Task next = queue.poll();
        while (next != null && next.state() == Task.TERMINATED) {
            next = queue.poll();
        }
        readyHint = queue.size();
        if (next != null) {
            next.beginDispatch(runsOn);
        }
        return next;
    }

    /** Returns what {@code action} returns, run with the queue locked, so that no task of this lane is taken meanwhile. */
    <T> T whileNoneTaken(Supplier<T> action) {
        synchronized (queue) {
            return action.get();
        }
    }

    /** Arms {@code task}'s timer for {@code deadline} in this lane; the task must have none armed. */
    void arm(Task task, long deadline) {
        synchronized (timers) {
            timers.arm(task, deadline);
            task.timerLane = this;
            publishTimers();
        }
    }

    /** Cancels {@code task}'s timer if it is still armed in this lane. */
    void cancel(Task task) {
        synchronized (timers) {
            if (task.timerLane == this) {
                timers.cancel(task);
                task.timerLane = null;
                publishTimers();
            }
        }
    }

    /** True when a timer entry, live or cancelled, is due at {@code now}; without the lock. */
    boolean mayHaveDue(long now) {
        return timersArmed && earliestDeadline - now <= 0;
    }

    /**
     * Disarms the live timers due at {@code now} and adds each task, with the status it had then, to {@code due};
     * the caller wakes them outside the lock.
     */
    void takeDue(long now, DueTimers due) {
        synchronized (timers) {
            Task task;
            while ((task = timers.pollExpired(now)) != null) {
                task.timerLane = null;
                due.add(task, task.status());
            }
            publishTimers();
        }
    }

    /** True when a live timer is armed here; under its lock. */
    boolean hasLiveTimers() {
        synchronized (timers) {
            boolean live = timers.hasLiveTimers();
            publishTimers();
            return live;
        }
    }

    /** The hint of the earliest timer entry, or {@code fallback} when none is armed; without the lock. */
    long earliestDeadlineOr(long fallback) {
        return timersArmed ? earliestDeadline : fallback;
    }

    /** True when a timer entry may be armed here; without the lock. */
    boolean mayHaveTimers() {
        return timersArmed;
    }

    private void publishTimers() {
        boolean armed = !timers.isEmpty();
        if (armed) {
            earliestDeadline = timers.earliestEntryDeadline();
        }
        timersArmed = armed;
    }

    /** The tasks whose timers a carrier took as due, with their statuses then, waiting to be woken; reused. */
    static final class DueTimers {
        private Task[] tasks = new Task[16];
        private int[] statuses = new int[16];
        private int size;

        void add(Task task, int status) {
            if (size == tasks.length) {
                tasks = Arrays.copyOf(tasks, size * 2);
                statuses = Arrays.copyOf(statuses, size * 2);
            }
            tasks[size] = task;
            statuses[size] = status;
            size++;
        }

        int size() {
            return size;
        }

        Task task(int index) {
            return tasks[index];
        }

        int status(int index) {
            return statuses[index];
        }

        void clear() {
            Arrays.fill(tasks, 0, size, null);
            size = 0;
        }
    }
}
