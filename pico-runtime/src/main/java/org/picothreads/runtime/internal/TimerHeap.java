package org.picothreads.runtime.internal;

import java.util.Arrays;

/**
 * The scheduler's timers: a binary min-heap of (deadline, key, task) entries kept in three parallel arrays,
 * ordered by deadline and, for equal deadlines, by the order in which they were armed. Used under the lock of the
 * {@link Lane} that holds it.
 *
 * <p>Cancellation is lazy: cancelling a timer only clears the task's {@link Task#timerKey}, and an entry whose
 * key no longer matches its task's is dropped when it reaches the top. So that cancelled entries cannot pile
 * up (a thread doing timed joins that keep being satisfied early), the heap is rebuilt without them once they
 * are more than half of it, which costs amortized constant time per cancellation.
 *
 * <pre>
 *   index:      0        1        2       ...     children of i: 2i+1, 2i+2
 *   deadlines: [t0]     [t1]     [t2]             deadlines are System.nanoTime() values, compared by
 *   keys:      [k0]     [k1]     [k2]             subtraction so that they may wrap
 *   tasks:     [task]   [task]   [task]
 * </pre>
 */
final class TimerHeap {
    private static final int INITIAL_CAPACITY = 64;
    /** Below this many cancelled entries the heap is never rebuilt. */
    private static final int MINIMUM_REBUILD = 256;

    private long[] deadlines = new long[INITIAL_CAPACITY];
    private int[] keys = new int[INITIAL_CAPACITY];
    private Task[] tasks = new Task[INITIAL_CAPACITY];
    private int size;
    /** How many entries in the heap belong to cancelled timers. */
    private int cancelled;
    /** The key of the last timer armed; keys wrap around and skip 0, which means no timer. */
    private int lastKey;
    /**
     * How far apart this heap's keys are: the number of heaps, each starting at its own offset, so that the keys of
     * the scheduler's heaps differ and a task's key never matches a stale entry of another heap.
     */
    private final int keyStride;

    /** A heap whose keys are 1, 2, 3, ... */
    TimerHeap() {
        this(0, 1);
    }

    /** A heap whose keys are {@code keyOffset + n * keyStride}, skipping 0. */
    TimerHeap(int keyOffset, int keyStride) {
        this.lastKey = keyOffset;
        this.keyStride = keyStride;
    }

    /** True when no entry, live or cancelled, is left. */
    boolean isEmpty() {
        return size == 0;
    }

    /** Arms a timer for a task that has none, to fire at the given System.nanoTime() deadline. */
    void arm(Task task, long deadline) {
        lastKey += keyStride;
        if (lastKey == 0) {
            lastKey += keyStride;
        }
        int key = lastKey;
        task.timerKey = key;
        if (size == deadlines.length) {
            int capacity = size * 2;
            deadlines = Arrays.copyOf(deadlines, capacity);
            keys = Arrays.copyOf(keys, capacity);
            tasks = Arrays.copyOf(tasks, capacity);
        }
        siftUp(size++, deadline, key, task);
    }

    /** Cancels the task's timer, if it has one armed. */
    void cancel(Task task) {
        if (task.timerKey != 0) {
            task.timerKey = 0;
            cancelled++;
            if (cancelled >= MINIMUM_REBUILD && cancelled * 2 > size) {
                rebuildWithoutCancelled();
            }
        }
    }

    /**
     * Removes the first live timer whose deadline is at or before {@code now} and returns its task, whose
     * timer is then disarmed; returns null when no live timer is due.
     */
    Task pollExpired(long now) {
        while (size > 0 && deadlines[0] - now <= 0) {
            Task task = tasks[0];
            int key = keys[0];
            removeTop();
            if (task.timerKey == key) {
                task.timerKey = 0;
                return task;
            }
            cancelled--;
        }
        return null;
    }

    /** The deadline of the earliest live timer; the heap must not be empty after cancelled entries are dropped. */
    long nextDeadline() {
        dropCancelledTop();
        return deadlines[0];
    }

    /** The deadline of the earliest entry, live or cancelled; the heap must not be empty. */
    long earliestEntryDeadline() {
        return deadlines[0];
    }

    /** True when at least one live timer is armed. */
    boolean hasLiveTimers() {
        dropCancelledTop();
        return size > 0;
    }

    private void dropCancelledTop() {
        while (size > 0 && tasks[0].timerKey != keys[0]) {
            removeTop();
            cancelled--;
        }
    }

    private void removeTop() {
        int last = --size;
        long deadline = deadlines[last];
        int key = keys[last];
        Task task = tasks[last];
        tasks[last] = null;
        if (last > 0) {
            siftDown(0, deadline, key, task);
        }
    }

    private void rebuildWithoutCancelled() {
        int kept = 0;
        for (int index = 0; index < size; index++) {
            if (tasks[index].timerKey == keys[index]) {
                deadlines[kept] = deadlines[index];
                keys[kept] = keys[index];
                tasks[kept] = tasks[index];
                kept++;
            }
        }
        Arrays.fill(tasks, kept, size, null);
        size = kept;
        cancelled = 0;
        for (int index = (size >>> 1) - 1; index >= 0; index--) {
            siftDown(index, deadlines[index], keys[index], tasks[index]);
        }
    }

    private void siftUp(int index, long deadline, int key, Task task) {
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            if (!before(deadline, key, deadlines[parent], keys[parent])) {
                break;
            }
            move(parent, index);
            index = parent;
        }
        place(index, deadline, key, task);
    }

    private void siftDown(int index, long deadline, int key, Task task) {
        int half = size >>> 1;
        while (index < half) {
            int child = 2 * index + 1;
            int right = child + 1;
            if (right < size && before(deadlines[right], keys[right], deadlines[child], keys[child])) {
                child = right;
            }
            if (!before(deadlines[child], keys[child], deadline, key)) {
                break;
            }
            move(child, index);
            index = child;
        }
        place(index, deadline, key, task);
    }

    /** True when entry (deadline, key) fires strictly before entry (otherDeadline, otherKey). */
    private static boolean before(long deadline, int key, long otherDeadline, int otherKey) {
        long difference = deadline - otherDeadline;
        return difference < 0 || (difference == 0 && key - otherKey < 0);
    }

    private void move(int from, int to) {
        deadlines[to] = deadlines[from];
        keys[to] = keys[from];
        tasks[to] = tasks[from];
    }

    private void place(int index, long deadline, int key, Task task) {
        deadlines[index] = deadline;
        keys[index] = key;
        tasks[index] = task;
    }
}
