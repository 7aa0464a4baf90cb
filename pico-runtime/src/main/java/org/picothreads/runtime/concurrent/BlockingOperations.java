package org.picothreads.runtime.concurrent;

/**
 * The blocking operations every runtime blocking queue implements, so that {@link ConcurrentCalls} can run them
 * directly when a user subclass's override of {@code put} or {@code take} calls its super method.
 */
interface BlockingOperations<E> {
    /** put, offer with a timeout, and their deque variants: {@code nanos} negative waits without a limit. */
    boolean putWithin(E element, boolean atHead, long nanos) throws InterruptedException;

    /** take, poll with a timeout, and their deque variants: null when {@code nanos} (if not negative) passed. */
    E takeWithin(boolean fromTail, long nanos) throws InterruptedException;
}
