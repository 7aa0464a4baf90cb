package org.picothreads.runtime.concurrent;

import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.Delayed;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The DelayQueue that rewritten code creates: waiting for an expired element suspends only the calling PicoThread, and PicoThreads and
 * platform threads may use it together in any combination. The elements are kept by the superclass; the blocking
 * methods are retry loops around its non-blocking ones, and every method that adds or removes wakes the waiters.
 */
public class PicoDelayQueue<E extends Delayed> extends DelayQueue<E> implements BlockingOperations<E> {
    /**
     * The threads waiting for an element; made on first use, because the superclass's constructor that takes a
     * collection calls the overridden {@code add} before this class's constructor runs.
     */
    private transient QueueSignals signals;

    /** As {@link DelayQueue#DelayQueue()}. */
    public PicoDelayQueue() {
        super();
        signals();
    }

    /** As {@link DelayQueue#DelayQueue(Collection)}. */
    public PicoDelayQueue(Collection<? extends E> elements) {
        super(elements);
        signals();
    }

    @Override
    public void put(E element) {
        offer(element);
    }

    @Override
    public boolean offer(E element, long timeout, TimeUnit unit) {
        return offer(element);
    }

    @Override
    public boolean add(E element) {
        return signals().addedIf(super.add(element));
    }

    @Override
    public boolean offer(E element) {
        return signals().addedIf(super.offer(element));
    }

    @Override
    public E poll() {
        return signals().removedIf(super.poll());
    }

    /**
     * As {@code AbstractQueue.remove()}, through this class's {@link #poll()}: JDK 21 declares {@code remove()} in
     * DelayQueue with a bridge method that calls back into this override, so a super call would never return.
     */
    @Override
    public E remove() {
        E element = poll();
        if (element == null) {
            throw new NoSuchElementException();
        }
        return element;
    }

    @Override
    public boolean remove(Object element) {
        return signals().changedIf(super.remove(element));
    }

    @Override
    public void clear() {
        super.clear();
        signals().changed();
    }

    @Override
    public int drainTo(Collection<? super E> collection) {
        return signals().changedIf(super.drainTo(collection));
    }

    @Override
    public int drainTo(Collection<? super E> collection, int maxElements) {
        return signals().changedIf(super.drainTo(collection, maxElements));
    }

    @Override
    public boolean addAll(Collection<? extends E> collection) {
        return signals().changedIf(super.addAll(collection));
    }

    @Override
    public boolean removeIf(Predicate<? super E> filter) {
        return signals().changedIf(super.removeIf(filter));
    }

    @Override
    public boolean removeAll(Collection<?> collection) {
        return signals().changedIf(super.removeAll(collection));
    }

    @Override
    public boolean retainAll(Collection<?> collection) {
        return signals().changedIf(super.retainAll(collection));
    }

    @Override
    public Iterator<E> iterator() {
        return signals().signallingIterator(super.iterator());
    }

    @Override
    public E take() throws InterruptedException {
        return takeWithin(false, -1);
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        return takeWithin(false, QueueSignals.nanos(timeout, unit));
    }

    /** The nanoseconds until the head expires, or Long.MAX_VALUE when the queue is empty. */
    private long headDelayNanos() {
        E head = super.peek();
        return head == null ? Long.MAX_VALUE : head.getDelay(TimeUnit.NANOSECONDS);
    }

    @Override
    public final boolean putWithin(E element, boolean atHead, long nanos) {
        return offer(element);
    }

    @Override
    public final E takeWithin(boolean fromTail, long nanos) throws InterruptedException {
        return signals().takeWhenDue(super::poll, this::headDelayNanos, nanos, this);
    }

    /** The waiters' signals, made by the first call (during construction, before publication). */
    private QueueSignals signals() {
        QueueSignals current = signals;
        if (current == null) {
            current = new QueueSignals();
            signals = current;
        }
        return current;
    }
}
