package org.picothreads.runtime.concurrent;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The LinkedTransferQueue that rewritten code creates: a take waiting for an element and a transfer waiting for its
 * consumer suspend only the calling PicoThread, and PicoThreads and platform threads may use it together in any
 * combination. The elements are kept here, each in a node that knows the thread transferring it, so that whatever
 * removes the element (a take, a poll, {@code remove}, an iterator, {@code clear}, {@code drainTo}) completes the
 * transfer; the superclass holds no element except while the queue is being deserialized.
 *
 * <p>An element offered while a consumer waits is handed to the longest waiting consumer directly, as the JDK
 * does. Iterators are weakly consistent, as the JDK's are. A predicate, collection or action given to a bulk
 * method runs without the queue's internal lock held.
 */
public class PicoLinkedTransferQueue<E> extends LinkedTransferQueue<E> implements BlockingOperations<E> {
    private static final long serialVersionUID = 1L;
    /** A waiter's {@code step} once its element was handed over (a consumer) or removed (a transferring producer). */
    private static final int MATCHED = 1;

    /** The elements and the waiting consumers; replaced only when the queue is deserialized. */
    private transient volatile Contents<E> contents = new Contents<>();

    /** As {@link LinkedTransferQueue#LinkedTransferQueue()}. */
    public PicoLinkedTransferQueue() {
        super();
    }

    /** As {@link LinkedTransferQueue#LinkedTransferQueue(Collection)}. */
    public PicoLinkedTransferQueue(Collection<? extends E> elements) {
        super();
        for (E element : elements) {
            contents.nodes.add(new Node<>(Objects.requireNonNull(element), null));
        }
    }

    /** An element in the queue and the waiter of the thread transferring it, if one is. */
    private static final class Node<E> {
        final E item;
        /** The transferring producer's waiter, or null for an element that was only offered. */
        final Waiter transferrer;

        Node(E item, Waiter transferrer) {
            this.item = item;
            this.transferrer = transferrer;
        }
    }

    /**
     * What the queue keeps, with its internal lock (the object itself), which makes handing over, enqueueing and
     * removing atomic against waiting consumers and producers; never held while code of the program runs.
     */
    private static final class Contents<E> {
        /** The elements, oldest first. */
        final ConcurrentLinkedQueue<Node<E>> nodes = new ConcurrentLinkedQueue<>();
        /** Consumers waiting in take or a timed poll; a producer leaves its element in the waiter's attachment. */
        final WaitQueue consumers = new WaitQueue();

        /** Under the lock: gives {@code item} to the longest waiting consumer, if there is one. */
        boolean handOff(Object item) {
            Waiter consumer = consumers.first();
            if (consumer == null) {
                return false;
            }
            consumer.attachment = item;
            consumer.step = MATCHED;
            consumers.wakeFirst();
            return true;
        }

        /** Under the lock: removes {@code node} if it is still queued, completing its transfer; false if it was not. */
        boolean remove(Node<E> node) {
            if (!nodes.remove(node)) {
                return false;
            }
            completed(node);
            return true;
        }

        /** Under the lock: removes the oldest element, completing its transfer, or returns null. */
        E poll() {
            Node<E> node = nodes.poll();
            if (node == null) {
                return null;
            }
            completed(node);
            return node.item;
        }

        private static void completed(Node<?> node) {
            if (node.transferrer != null) {
                node.transferrer.step = MATCHED;
                node.transferrer.wake();
            }
        }
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
        return offer(element);
    }

    @Override
    public boolean offer(E element) {
        Objects.requireNonNull(element);
        Contents<E> held = contents;
        synchronized (held) {
            if (!held.handOff(element)) {
                held.nodes.add(new Node<>(element, null));
            }
        }
        return true;
    }

    @Override
    public boolean tryTransfer(E element) {
        Objects.requireNonNull(element);
        Contents<E> held = contents;
        synchronized (held) {
            return held.handOff(element);
        }
    }

    @Override
    public void transfer(E element) throws InterruptedException {
        transferWithin(element, -1);
    }

    @Override
    public boolean tryTransfer(E element, long timeout, TimeUnit unit) throws InterruptedException {
        return transferWithin(element, Math.max(0, unit.toNanos(timeout)));
    }

    /**
     * The blocking primitive behind transfer and the timed tryTransfer: hands {@code element} to a waiting consumer
     * or enqueues it and waits until something removes it, at most {@code nanos} when that is not negative; false
     * when the time passed first, and then the element is no longer in the queue.
     */
    final boolean transferWithin(E element, long nanos) throws InterruptedException {
        Objects.requireNonNull(element);
        Contents<E> held = contents;
        Waiter waiter = Waiter.enter(held, nanos);
        if (waiter.isFresh()) {
            synchronized (held) {
                if (held.handOff(element)) {
                    waiter.finish();
                    return true;
                }
                Node<E> node = new Node<>(element, waiter);
                held.nodes.add(node);
                waiter.attachment = node;
            }
        }
        @SuppressWarnings("unchecked")
        Node<E> node = (Node<E>) waiter.attachment;
        while (true) {
            boolean interrupted = waiter.takeInterrupt();
            synchronized (held) {
                if (waiter.step == MATCHED) {
                    waiter.attachment = null;
                    if (interrupted) {
                        waiter.deferInterrupt();
                    }
                    waiter.finish();
                    return true;
                }
                if (interrupted || waiter.timedOut()) {
                    held.nodes.remove(node);
                    waiter.attachment = null;
                    waiter.finish();
                    if (interrupted) {
                        throw new InterruptedException();
                    }
                    return false;
                }
            }
            waiter.park(this);
        }
    }

    @Override
    public E take() throws InterruptedException {
        return takeWithin(false, -1);
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        return takeWithin(false, Math.max(0, unit.toNanos(timeout)));
    }

    @Override
    public E poll() {
        Contents<E> held = contents;
        if (held.nodes.isEmpty()) {
            return null;
        }
        synchronized (held) {
            return held.poll();
        }
    }

    /**
     * The blocking primitive behind take and the timed poll: the oldest element, or one a producer hands over while
     * this consumer waits; null when {@code nanos} (if not negative) passed first. As with the JDK, an element that is
     * there is taken even when the thread's interrupt status is set.
     */
    @Override
    public final E takeWithin(boolean fromTail, long nanos) throws InterruptedException {
        Contents<E> held = contents;
        Waiter waiter = Waiter.enter(held, nanos);
        while (true) {
            boolean interrupted = waiter.takeInterrupt();
            synchronized (held) {
                E item = null;
                if (waiter.step == MATCHED) {
                    @SuppressWarnings("unchecked")
                    E handed = (E) waiter.attachment;
                    item = handed;
                    waiter.attachment = null;
                } else {
                    item = held.poll();
                }
                if (item != null) {
                    held.consumers.remove(waiter);
                    if (interrupted) {
                        waiter.deferInterrupt();
                    }
                    waiter.finish();
                    return item;
                }
                if (interrupted || waiter.timedOut()) {
                    held.consumers.remove(waiter);
                    waiter.finish();
                    if (interrupted) {
                        throw new InterruptedException();
                    }
                    return null;
                }
                held.consumers.add(waiter);
            }
            waiter.park(this);
        }
    }

    @Override
    public final boolean putWithin(E element, boolean atHead, long nanos) {
        return offer(element);
    }

    @Override
    public boolean hasWaitingConsumer() {
        Contents<E> held = contents;
        synchronized (held) {
            return !held.consumers.isEmpty();
        }
    }

    @Override
    public int getWaitingConsumerCount() {
        Contents<E> held = contents;
        synchronized (held) {
            return held.consumers.size();
        }
    }

    @Override
    public E peek() {
        for (Node<E> node : contents.nodes) {
            return node.item;
        }
        return null;
    }

    @Override
    public boolean isEmpty() {
        return contents.nodes.isEmpty();
    }

    @Override
    public int size() {
        return contents.nodes.size();
    }

    @Override
    public int drainTo(Collection<? super E> collection) {
        return drainTo(collection, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super E> collection, int maxElements) {
        return QueueDraining.byPolling(this, collection, maxElements);
    }

    @Override
    public boolean contains(Object object) {
        if (object == null) {
            return false;
        }
        for (Node<E> node : contents.nodes) {
            if (object.equals(node.item)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean remove(Object object) {
        if (object == null) {
            return false;
        }
        Contents<E> held = contents;
        for (Node<E> node : held.nodes) {
            if (object.equals(node.item)) {
                synchronized (held) {
                    if (held.remove(node)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Override
    public boolean removeIf(Predicate<? super E> filter) {
        Objects.requireNonNull(filter);
        return removeWhere(filter);
    }

    @Override
    public boolean removeAll(Collection<?> collection) {
        Objects.requireNonNull(collection);
        return removeWhere(collection::contains);
    }

    @Override
    public boolean retainAll(Collection<?> collection) {
        Objects.requireNonNull(collection);
        return removeWhere(element -> !collection.contains(element));
    }

    @Override
    public void clear() {
        removeWhere(element -> true);
    }

    /** Removes, in one pass, every element {@code filter} accepts; true when it removed any. */
    private boolean removeWhere(Predicate<? super E> filter) {
        Contents<E> held = contents;
        boolean removed = false;
        for (Node<E> node : held.nodes) {
            if (filter.test(node.item)) {
                synchronized (held) {
                    removed |= held.remove(node);
                }
            }
        }
        return removed;
    }

    @Override
    public void forEach(Consumer<? super E> action) {
        Objects.requireNonNull(action);
        for (Node<E> node : contents.nodes) {
            action.accept(node.item);
        }
    }

    @Override
    public Iterator<E> iterator() {
        Contents<E> held = contents;
        Iterator<Node<E>> nodes = held.nodes.iterator();
        return new Iterator<>() {
            private Node<E> last;

            @Override
            public boolean hasNext() {
                return nodes.hasNext();
            }

            @Override
            public E next() {
                if (!nodes.hasNext()) {
                    throw new NoSuchElementException();
                }
                last = nodes.next();
                return last.item;
            }

            @Override
            public void remove() {
                if (last == null) {
                    throw new IllegalStateException();
                }
                synchronized (held) {
                    held.remove(last);
                }
                last = null;
            }
        };
    }

    @Override
    public Spliterator<E> spliterator() {
        return Spliterators.spliteratorUnknownSize(iterator(),
                Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.CONCURRENT);
    }

    @Override
    public Object[] toArray() {
        return snapshot().toArray();
    }

    @Override
    public <T> T[] toArray(T[] array) {
        return snapshot().toArray(array);
    }

    @Override
    public String toString() {
        return snapshot().toString();
    }

    /** The elements at one moment, oldest first. */
    private List<E> snapshot() {
        List<E> elements = new ArrayList<>();
        for (Node<E> node : contents.nodes) {
            elements.add(node.item);
        }
        return elements;
    }

    /**
     * Reads the queue as the JDK's {@code LinkedTransferQueue} wrote it (its elements, which it wrote through this
     * class's iterator, in order): the superclass has just read them into its own nodes, from which they move here.
     */
    private void readObject(ObjectInputStream input) throws IOException, ClassNotFoundException {
        input.defaultReadObject();
        Contents<E> fresh = new Contents<>();
        for (E element; (element = super.poll()) != null; ) {
            fresh.nodes.add(new Node<>(element, null));
        }
        contents = fresh;
    }
}
