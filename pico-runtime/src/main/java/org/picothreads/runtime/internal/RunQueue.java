package org.picothreads.runtime.internal;

import java.util.SplittableRandom;
import org.picothreads.runtime.SchedulingPolicy;

/**
 * The tasks ready to run, in a circular array, taken in the order the scheduling policy says: FIFO from the
 * front, LIFO from the back, RANDOM from a position drawn from a seeded generator (the task at the front moves
 * into the hole, so every operation is constant time). Used under the lock of the {@link Lane} that holds it.
 *
 * <p>A task that yields goes where it will be taken last: to the back under FIFO, to the front under LIFO (so
 * that a thread spinning on yield cannot starve the others), anywhere under RANDOM.
 *
 * <p>The array doubles when full and halves when a take leaves it less than a quarter full, down to
 * {@link #SMALLEST_SHRUNK_CAPACITY}: a burst of a hundred thousand threads started at once does not leave a
 * megabyte behind once they have run, and each element is copied a constant number of times on average.
 */
final class RunQueue {
    private static final int INITIAL_CAPACITY = 64;
    /** The capacity below which the array is never halved. */
    private static final int SMALLEST_SHRUNK_CAPACITY = 1024;

    private final SchedulingPolicy policy;
    /** Draws positions for the RANDOM policy; null under the others. */
    private final SplittableRandom random;
    private Task[] elements = new Task[INITIAL_CAPACITY];
    /** Index of the front element. */
    private int head;
    private int size;

    RunQueue(SchedulingPolicy policy, long seed) {
        this.policy = policy;
        this.random = policy == SchedulingPolicy.RANDOM ? new SplittableRandom(seed) : null;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Adds a task that has become ready: started, or woken by a timer, a join or an interrupt. */
    void add(Task task) {
        growIfFull();
        elements[(head + size) & (elements.length - 1)] = task;
        size++;
    }

    /** Adds a task that yields, where the policy will take it last. */
    void addYielded(Task task) {
        if (policy != SchedulingPolicy.LIFO) {
            add(task);
            return;
        }
        growIfFull();
        head = (head - 1) & (elements.length - 1);
        elements[head] = task;
        size++;
    }

    /** Removes and returns the next task to run, or null when none is ready. */
    Task poll() {
        if (size == 0) {
            return null;
        }
        int mask = elements.length - 1;
        if (policy == SchedulingPolicy.LIFO) {
            int last = (head + size - 1) & mask;
            Task task = elements[last];
            elements[last] = null;
            size--;
            shrinkIfSparse();
            return task;
        }
        if (policy == SchedulingPolicy.RANDOM && size > 1) {
            int chosen = (head + random.nextInt(size)) & mask;
            Task task = elements[chosen];
            elements[chosen] = elements[head];
            elements[head] = task;
        }
        Task task = elements[head];
        elements[head] = null;
        head = (head + 1) & mask;
        size--;
        shrinkIfSparse();
        return task;
    }

    private void growIfFull() {
        if (size == elements.length) {
            moveTo(new Task[elements.length * 2]);
        }
    }

    private void shrinkIfSparse() {
        if (size < elements.length >> 2 && elements.length > SMALLEST_SHRUNK_CAPACITY) {
            moveTo(new Task[elements.length >> 1]);
        }
    }

    /** Moves the elements, in order, to the start of {@code array}, which becomes the queue's. */
    private void moveTo(Task[] array) {
        int firstPart = Math.min(size, elements.length - head);
        System.arraycopy(elements, head, array, 0, firstPart);
        System.arraycopy(elements, 0, array, firstPart, size - firstPart);
        elements = array;
        head = 0;
    }
}
