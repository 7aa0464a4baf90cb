package org.picothreads.runtime.concurrent;

import java.util.concurrent.Exchanger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The Exchanger that rewritten code creates: a thread waiting for its partner suspends only the calling
 * PicoThread, and PicoThreads and platform threads may exchange with each other in any combination. The pairing
 * happens here, first come, first served; the superclass is unused.
 *
 * <p>As with the JDK, a thread that finds a partner waiting exchanges with it even when its interrupt status is set
 * (the status stays set); a thread that has to wait and is interrupted throws InterruptedException.
 *
 * <p>A thread that finds no partner joins the queue in the same hold of the guard in which it looked: two threads
 * arriving together on two carriers would otherwise each find the queue empty and both wait.
 */
public class PicoExchanger<V> extends Exchanger<V> {
    /** A waiter's {@code step} once a partner has taken its item and left one in its attachment. */
    private static final int MATCHED = 1;

    /** The internal lock that makes pairing a thread with a waiting partner atomic. */
    private final Object guard = new Object();
    /** Threads waiting for a partner; each waiter's attachment is the item it offers until it is matched. */
    private final WaitQueue waiting = new WaitQueue();

    /** As {@link Exchanger#Exchanger()}. */
    public PicoExchanger() {
        super();
    }

    @Override
    public V exchange(V item) throws InterruptedException {
        try {
            return exchangeWithin(item, -1);
        } catch (TimeoutException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public V exchange(V item, long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
        return exchangeWithin(item, Math.max(0, unit.toNanos(timeout)));
    }

    /**
     * The blocking primitive behind both exchanges: gives {@code item} to a partner and returns the partner's
     * item, waiting at most {@code nanos} when that is not negative.
     */
    final V exchangeWithin(V item, long nanos) throws InterruptedException, TimeoutException {
        Waiter waiter = Waiter.enter(guard, nanos);
        if (waiter.isFresh()) {
            synchronized (guard) {
                Waiter partner = waiting.first();
                if (partner != null) {
                    @SuppressWarnings("unchecked")
                    V received = (V) partner.attachment;
                    partner.attachment = item;
                    partner.step = MATCHED;
                    waiting.wakeFirst();
                    waiter.finish();
                    return received;
                }
                waiter.attachment = item;
                waiting.add(waiter);
            }
        }
        while (true) {
            boolean interrupted = waiter.takeInterrupt();
            synchronized (guard) {
                if (waiter.step == MATCHED) {
                    @SuppressWarnings("unchecked")
                    V received = (V) waiter.attachment;
                    waiter.attachment = null;
                    if (interrupted) {
                        waiter.deferInterrupt();
                    }
                    waiter.finish();
                    return received;
                }
                if (interrupted || waiter.timedOut()) {
                    waiting.remove(waiter);
                    waiter.attachment = null;
                    waiter.finish();
                    if (interrupted) {
                        throw new InterruptedException();
                    }
                    throw new TimeoutException();
                }
                waiting.add(waiter);
            }
            waiter.park(this);
        }
    }

    @Override
    public String toString() {
        return JdkNames.identity(this, PicoExchanger.class, Exchanger.class);
    }
}
