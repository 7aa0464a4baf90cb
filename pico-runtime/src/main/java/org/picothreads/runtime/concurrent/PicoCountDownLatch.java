package org.picothreads.runtime.concurrent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The CountDownLatch that rewritten code creates: awaiting it suspends only the calling PicoThread, and PicoThreads
 * and platform threads may count it down and await it in any combination. The count is the superclass's.
 */
public class PicoCountDownLatch extends CountDownLatch {
    /** The internal lock that makes a waiter's check and registration atomic against the count reaching zero. */
    private final Object guard = new Object();
    /** Threads waiting for the count to reach zero. */
    private final WaitQueue waiters = new WaitQueue();

    /** As {@link CountDownLatch#CountDownLatch(int)}. */
    public PicoCountDownLatch(int count) {
        super(count);
    }

    @Override
    public void await() throws InterruptedException {
        awaitZero(-1);
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return awaitZero(Math.max(0, unit.toNanos(timeout)));
    }

    /** The blocking primitive behind both awaits: waits for zero, at most {@code nanos} when that is not negative. */
    final boolean awaitZero(long nanos) throws InterruptedException {
        Waiter waiter = Waiter.enter(guard, nanos);
        return waiter.await(waiters, () -> super.getCount() == 0, true, this);
    }

    @Override
    public void countDown() {
        if (super.getCount() == 0) {
            return;
        }
        super.countDown();
        if (super.getCount() == 0) {
            synchronized (guard) {
                waiters.wakeAll();
            }
        }
    }
}
