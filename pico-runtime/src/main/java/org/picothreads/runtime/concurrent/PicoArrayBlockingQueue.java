package org.picothreads.runtime.concurrent;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The ArrayBlockingQueue that rewritten code creates: waiting for an element or for room suspends only the calling PicoThread, and PicoThreads and
 * platform threads may use it together in any combination. The elements are kept by the superclass; the blocking
 * methods are retry loops around its non-blocking ones, and every method that adds or removes wakes the waiters.
 */
public class PicoArrayBlockingQueue<E> extends ArrayBlockingQueue<E> implements BlockingOperations<E> {
    private static final long serialVersionUID = 1L;

    /**
     * The threads waiting for an element or for room; made on first use, because the superclass's constructor
     * (and its readObject) may call an overridden method before this class's constructor (or readObject) runs.
     */
    private transient QueueSignals signals;

    /** As {@link ArrayBlockingQueue#ArrayBlockingQueue(int)}. */
    public PicoArrayBlockingQueue(int capacity) {
        super(capacity);
        signals();
    }

    /** As {@link ArrayBlockingQueue#ArrayBlockingQueue(int, boolean)}. */
    public PicoArrayBlockingQueue(int capacity, boolean fair) {
        super(capacity, fair);
        signals();
    }

    /** As {@link ArrayBlockingQueue#ArrayBlockingQueue(int, boolean, Collection)}. */
    public PicoArrayBlockingQueue(int capacity, boolean fair, Collection<? extends E> elements) {
        super(capacity, fair, elements);
        signals();
    }

    @Override
    public void put(E element) throws InterruptedException {
        putWithin(element, false, -1);
    }

    @Override
    public boolean offer(E element, long timeout, TimeUnit unit) throws InterruptedException {
        return putWithin(element, false, QueueSignals.nanos(timeout, unit));
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

    @Override
    public E remove() {
        return signals().removedIf(super.remove());
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

    @Override
    public final boolean putWithin(E element, boolean atHead, long nanos) throws InterruptedException {
        Objects.requireNonNull(element);
        return signals().put(() -> super.offer(element), nanos, this);
    }

    @Override
    public final E takeWithin(boolean fromTail, long nanos) throws InterruptedException {
        return signals().take(super::poll, nanos, this);
    }

    /** The waiters' signals, made by the first call (during construction or deserialization, before publication). */
    private QueueSignals signals() {
        QueueSignals current = signals;
        if (current == null) {
            current = new QueueSignals();
            signals = current;
        }
        return current;
    }

    /** Reads the elements as the superclass does; the waiters start empty. */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        signals();
    }
}
