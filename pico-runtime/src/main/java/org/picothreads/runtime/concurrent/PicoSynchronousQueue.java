package org.picothreads.runtime.concurrent;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The SynchronousQueue that rewritten code creates: each put waits for a take and each take for a put, suspending
 * only the calling PicoThread, and PicoThreads and platform threads may hand elements to each other in any
 * combination. The hand-off happens here, between waiters kept first come, first served (fair or not); the
 * superclass is unused.
 */
public class PicoSynchronousQueue<E> extends SynchronousQueue<E> implements BlockingOperations<E> {
    private static final long serialVersionUID = 1L;
    /** A waiter's {@code step} once a partner has matched it. */
    private static final int MATCHED = 1;

    /** Whether the queue was made fair; serialized, since JDK 21 and later keep it only in a transient field. */
    private final boolean fair;
    /** The internal lock guarding both queues; made again, with them, when the queue is deserialized. */
    private transient Object guard = new Object();
    /** Waiting puts; each waiter's attachment is its element. */
    private transient WaitQueue putters = new WaitQueue();
    /** Waiting takes; a put leaves its element in the waiter's attachment. */
    private transient WaitQueue takers = new WaitQueue();

    /** As {@link SynchronousQueue#SynchronousQueue()}. */
    public PicoSynchronousQueue() {
        this(false);
    }

    /** As {@link SynchronousQueue#SynchronousQueue(boolean)}; waiters are matched first come, first served. */
    public PicoSynchronousQueue(boolean fair) {
        super(fair);
        this.fair = fair;
    }

    @Override
    public void put(E element) throws InterruptedException {
        Objects.requireNonNull(element);
        transfer(element, -1);
    }

    @Override
    public boolean offer(E element, long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(element);
        return transfer(element, QueueSignals.nanos(timeout, unit)) != null;
    }

    @Override
    public boolean offer(E element) {
        Objects.requireNonNull(element);
        synchronized (guard) {
            return handTo(element);
        }
    }

    @Override
    public E take() throws InterruptedException {
        return transfer(null, -1);
    }

    @Override
    public E poll(long timeout, TimeUnit unit) throws InterruptedException {
        return transfer(null, QueueSignals.nanos(timeout, unit));
    }

    @Override
    public E poll() {
        synchronized (guard) {
            return takeFromPutter();
        }
    }

    @Override
    public int drainTo(Collection<? super E> collection) {
        return drainTo(collection, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super E> collection, int maxElements) {
        return QueueDraining.byPolling(this, collection, maxElements);
    }

    /**
     * The blocking primitive behind every put and take: {@code element} non-null puts it and returns it once a
     * taker has it, null takes and returns the element a putter handed over; null when the timeout passed.
     */
    final E transfer(E element, long nanos) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        boolean putting = element != null;
        WaitQueue mine = putting ? putters : takers;
        if (waiter.isFresh()) {
            if (waiter.takeInterrupt()) {
                waiter.finish();
                throw new InterruptedException();
            }
            synchronized (guard) {
                E partner = putting ? (handTo(element) ? element : null) : takeFromPutter();
                if (partner != null || waiter.timedOut()) {
                    waiter.finish();
                    return partner;
                }
                waiter.attachment = element;
                mine.add(waiter);
            }
        }
        while (true) {
            boolean interrupted = waiter.takeInterrupt();
            synchronized (guard) {
                if (waiter.step == MATCHED) {
                    @SuppressWarnings("unchecked")
                    E handed = (E) waiter.attachment;
                    waiter.attachment = null;
                    if (interrupted) {
                        waiter.deferInterrupt();
                    }
                    waiter.finish();
                    return putting ? element : handed;
                }
                if (interrupted || waiter.timedOut()) {
                    mine.remove(waiter);
                    waiter.attachment = null;
                    waiter.finish();
                    if (interrupted) {
                        throw new InterruptedException();
                    }
                    return null;
                }
                mine.add(waiter);
            }
            waiter.park(this);
        }
    }

    /** Under the guard: gives {@code element} to the longest waiting taker, if there is one. */
    private boolean handTo(E element) {
        Waiter taker = takers.first();
        if (taker == null) {
            return false;
        }
        taker.attachment = element;
        taker.step = MATCHED;
        takers.wakeFirst();
        return true;
    }

    /** Under the guard: takes the element of the longest waiting putter, or null. */
    @SuppressWarnings("unchecked")
    private E takeFromPutter() {
        Waiter putter = putters.first();
        if (putter == null) {
            return null;
        }
        E element = (E) putter.attachment;
        putter.step = MATCHED;
        putters.wakeFirst();
        return element;
    }

    @Override
    public final boolean putWithin(E element, boolean atHead, long nanos) throws InterruptedException {
        Objects.requireNonNull(element);
        return transfer(element, nanos) != null;
    }

    @Override
    public final E takeWithin(boolean fromTail, long nanos) throws InterruptedException {
        return transfer(null, nanos);
    }

    /**
     * A fresh queue with the same fairness in place of a deserialized one, as the JDK's own readResolve does (which,
     * private, does not apply to a subclass; nor does this one, so a subclass's copy keeps the queues that
     * {@code readObject} made).
     */
    private Object readResolve() {
        return new PicoSynchronousQueue<E>(fair);
    }

    /** Reads the queue as the superclass does; no thread waits on the copy. */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        guard = new Object();
        putters = new WaitQueue();
        takers = new WaitQueue();
    }
}
