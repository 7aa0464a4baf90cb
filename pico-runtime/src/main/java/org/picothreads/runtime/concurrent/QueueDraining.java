package org.picothreads.runtime.concurrent;

import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;

/**
 * {@code drainTo} for the runtime's queues whose elements are their own rather than their JDK superclass's: polls the
 * queue, so that every element leaves through the queue's own removal (which completes a hand-off or a transfer).
 */
final class QueueDraining {
    private QueueDraining() {
    }

    /** {@link BlockingQueue#drainTo(Collection, int)} of {@code queue}, by polling it. */
    static <E> int byPolling(BlockingQueue<E> queue, Collection<? super E> collection, int maxElements) {
        Objects.requireNonNull(collection);
        if (collection == queue) {
            throw new IllegalArgumentException();
        }
        int drained = 0;
        for (E element; drained < maxElements && (element = queue.poll()) != null; drained++) {
            collection.add(element);
        }
        return drained;
    }
}
