package org.picothreads.runtime.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A first-in first-out list of the threads, PicoThreads and platform threads alike, waiting for one condition of
 * a runtime synchronizer (a latch reaching zero, a lock becoming free, a queue becoming non-empty); every method
 * must be called while holding that synchronizer's guard.
 *
 * <p>A wake-up removes the waiter from the list and unparks its thread, which then re-checks its condition and
 * joins the list again if it still cannot proceed. A waiter that leaves without using a wake-up it received
 * (timeout, interrupt) passes it on to the next one, see {@link Waiter#leave(WaitQueue)}.
 */
public final class WaitQueue {
    /** The waiter that has waited longest, or null. */
    private Waiter head;
    /** The waiter that arrived last, or null. */
    private Waiter tail;
    private int size;

    /** Creates an empty queue. */
    public WaitQueue() {
    }

    /** Appends a waiter unless it is already in a queue. */
    public void add(Waiter waiter) {
        if (waiter.queue != null) {
            return;
        }
        waiter.queue = this;
        waiter.signalled = false;
        waiter.previous = tail;
        waiter.next = null;
        if (tail == null) {
            head = waiter;
        } else {
            tail.next = waiter;
        }
        tail = waiter;
        size++;
    }

    /** Removes a waiter; returns false when it was not in this queue. */
    public boolean remove(Waiter waiter) {
        if (waiter.queue != this) {
            return false;
        }
        Waiter previous = waiter.previous;
        Waiter next = waiter.next;
        if (previous == null) {
            head = next;
        } else {
            previous.next = next;
        }
        if (next == null) {
            tail = previous;
        } else {
            next.previous = previous;
        }
        waiter.previous = null;
        waiter.next = null;
        waiter.queue = null;
        size--;
        return true;
    }

    /** Removes the first waiter and wakes its thread; returns false when the queue was empty. */
    public boolean wakeFirst() {
        Waiter first = head;
        if (first == null) {
            return false;
        }
        remove(first);
        first.signalled = true;
        first.wake();
        return true;
    }

    /** Wakes every waiter. */
    public void wakeAll() {
        while (wakeFirst()) {
            // each wake-up removes one waiter
        }
    }

    /**
     * Wakes every waiter to try again, leaving each where it is in the queue, for a synchronizer whose order of
     * service is the order of the queue: waiters woken at once run in any order, on several carriers, and would
     * otherwise queue again in the order they happen to run.
     */
    public void wakeAllInPlace() {
        for (Waiter waiter = head; waiter != null; waiter = waiter.next) {
            waiter.wake();
        }
    }

    /** The first waiter, or null; it stays in the queue. */
    public Waiter first() {
        return head;
    }

    public boolean isEmpty() {
        return head == null;
    }

    public int size() {
        return size;
    }

    /** True when {@code thread} (as user code sees it: a PicoThread or a platform thread) waits here. */
    public boolean contains(Thread thread) {
        for (Waiter waiter = head; waiter != null; waiter = waiter.next) {
            if (waiter.thread == thread) {
                return true;
            }
        }
        return false;
    }

    /** The waiting threads, longest waiting first. */
    public List<Thread> threads() {
        List<Thread> threads = new ArrayList<>(size);
        for (Waiter waiter = head; waiter != null; waiter = waiter.next) {
            threads.add(waiter.thread);
        }
        return threads;
    }
}
