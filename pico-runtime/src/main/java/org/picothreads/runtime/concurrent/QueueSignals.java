package org.picothreads.runtime.concurrent;

import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The waiting side of a runtime blocking queue whose storage is its JDK superclass: the threads waiting for an
 * element and for room, the blocking take and put as retry loops around the superclass's non-blocking poll and
 * offer, and the wake-ups every other change of the queue must send. Every blocking method of the queue waits
 * here, so the superclass's own conditions never have a waiter.
 */
final class QueueSignals {
    /** The internal lock that makes a waiter's check and registration atomic against a change of the queue. */
    private final Object guard = new Object();
    /** Threads waiting for an element. */
    private final WaitQueue notEmpty = new WaitQueue();
    /** Threads waiting for room (bounded queues only). */
    private final WaitQueue notFull = new WaitQueue();

    /** Called after one element was added: wakes one taker. */
    void added() {
        synchronized (guard) {
            notEmpty.wakeFirst();
        }
    }

    /** Called after one element was removed: wakes one putter. */
    void removed() {
        synchronized (guard) {
            notFull.wakeFirst();
        }
    }

    /** Called after any number of elements were added or removed: wakes every waiter to re-check. */
    void changed() {
        synchronized (guard) {
            notEmpty.wakeAll();
            notFull.wakeAll();
        }
    }

    /**
     * The blocking primitive behind take and timed poll: retries {@code poll} (the superclass's non-blocking one)
     * until it returns an element, or until {@code nanos} have passed (negative: no limit); returns null then.
     */
    <E> E take(Supplier<E> poll, long nanos, Object blocker) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        boolean taken = waiter.await(notEmpty, () -> {
            E item = poll.get();
            if (item == null) {
                return false;
            }
            waiter.attachment = item;
            notFull.wakeFirst();
            return true;
        }, true, blocker);
        @SuppressWarnings("unchecked")
        E item = taken ? (E) waiter.attachment : null;
        waiter.attachment = null;
        return item;
    }

    /**
     * The blocking primitive behind a DelayQueue's take and timed poll: like {@link #take}, but while the queue
     * holds an element that has not expired yet, parks at most until it does ({@code headDelay} tells how long).
     */
    <E> E takeWhenDue(Supplier<E> poll, LongSupplier headDelay, long nanos, Object blocker)
            throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        while (true) {
            waiter.checkInterrupt(notEmpty, true);
            long delay;
            synchronized (guard) {
                E item = poll.get();
                if (item != null) {
                    notEmpty.remove(waiter);
                    waiter.finish();
                    return item;
                }
                if (waiter.timedOut()) {
                    waiter.leave(notEmpty);
                    waiter.finish();
                    return null;
                }
                delay = headDelay.getAsLong();
                notEmpty.add(waiter);
            }
            if (delay > 0) {
                waiter.parkAtMost(blocker, delay);
            }
        }
    }

    /**
     * The blocking primitive behind put and timed offer: retries {@code offer} (the superclass's non-blocking one)
     * until it succeeds, or until {@code nanos} have passed (negative: no limit); returns whether it succeeded.
     */
    boolean put(BooleanSupplier offer, long nanos, Object blocker) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        return waiter.await(notFull, () -> {
            if (!offer.getAsBoolean()) {
                return false;
            }
            notEmpty.wakeFirst();
            return true;
        }, true, blocker);
    }

    /** Wakes one taker when {@code added} is true; returns it. */
    boolean addedIf(boolean added) {
        if (added) {
            added();
        }
        return added;
    }

    /** Wakes one putter when {@code item} is not null; returns it. */
    <E> E removedIf(E item) {
        if (item != null) {
            removed();
        }
        return item;
    }

    /** Wakes every waiter when {@code changed} is true; returns it. */
    boolean changedIf(boolean changed) {
        if (changed) {
            changed();
        }
        return changed;
    }

    /** Wakes every waiter when {@code count} is positive; returns it. */
    int changedIf(int count) {
        if (count > 0) {
            changed();
        }
        return count;
    }

    /** An iterator whose remove wakes a putter. */
    <E> Iterator<E> signallingIterator(Iterator<E> delegate) {
        return new Iterator<E>() {
            @Override
            public boolean hasNext() {
                return delegate.hasNext();
            }

            @Override
            public E next() {
                return delegate.next();
            }

            @Override
            public void remove() {
                delegate.remove();
                removed();
            }

            @Override
            public void forEachRemaining(Consumer<? super E> action) {
                delegate.forEachRemaining(action);
            }
        };
    }

    /** The nanoseconds of a timeout, at least 0. */
    static long nanos(long timeout, TimeUnit unit) {
        return Math.max(0, unit.toNanos(timeout));
    }
}
