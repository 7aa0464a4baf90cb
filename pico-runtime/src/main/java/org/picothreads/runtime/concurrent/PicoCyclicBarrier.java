package org.picothreads.runtime.concurrent;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The CyclicBarrier that rewritten code creates: waiting at it suspends only the calling PicoThread, and PicoThreads
 * and platform threads may meet at it together. The state lives here, not in the superclass. The barrier action
 * runs in the thread that arrives last, inside this runtime frame, so a blocking call in the action pins that
 * thread (blocks without suspending) rather than suspending it.
 */
public class PicoCyclicBarrier extends CyclicBarrier {
    private final Object guard = new Object();
    /** Threads waiting for the current generation to trip or break. */
    private final WaitQueue waiters = new WaitQueue();
    private final int parties;
    private final Runnable barrierCommand;
    /** The current generation; replaced when the barrier trips or is reset. */
    private Generation generation = new Generation();
    /** Parties still to arrive in the current generation. */
    private int count;

    /** One use of the barrier. */
    private static final class Generation {
        boolean broken;
    }

    /** As {@link CyclicBarrier#CyclicBarrier(int, Runnable)}. */
    public PicoCyclicBarrier(int parties, Runnable barrierAction) {
        super(parties, barrierAction);
        this.parties = parties;
        this.count = parties;
        this.barrierCommand = barrierAction;
    }

    /** As {@link CyclicBarrier#CyclicBarrier(int)}. */
    public PicoCyclicBarrier(int parties) {
        this(parties, null);
    }

    @Override
    public int await() throws InterruptedException, BrokenBarrierException {
        try {
            return arrive(-1);
        } catch (TimeoutException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public int await(long timeout, TimeUnit unit) throws InterruptedException, BrokenBarrierException,
            TimeoutException {
        return arrive(Math.max(0, unit.toNanos(timeout)));
    }

    /**
     * The blocking primitive behind both awaits. The first invocation arrives (its arrival index and generation are
     * kept in the waiter); a re-invocation after a suspension only waits on.
     */
    final int arrive(long nanos) throws InterruptedException, BrokenBarrierException, TimeoutException {
        Waiter waiter = Waiter.enter(guard, nanos);
        Generation mine;
        if (waiter.isFresh()) {
            Runnable command = null;
            int index;
            synchronized (guard) {
                mine = generation;
                if (mine.broken) {
                    waiter.finish();
                    throw new BrokenBarrierException();
                }
                if (waiter.takeInterrupt()) {
                    breakBarrier();
                    waiter.finish();
                    throw new InterruptedException();
                }
                index = --count;
                if (index == 0) {
                    command = barrierCommand;
                }
                waiter.count = index;
                waiter.attachment = mine;
            }
            if (index == 0) {
                waiter.finish();
                return trip(command);
            }
        }
        mine = (Generation) waiter.attachment;
        while (true) {
            if (waiter.takeInterrupt()) {
                synchronized (guard) {
                    if (mine == generation && !mine.broken) {
                        breakBarrier();
                        waiter.leave(waiters);
                        waiter.finish();
                        throw new InterruptedException();
                    }
                }
                waiter.deferInterrupt();
            }
            synchronized (guard) {
                if (mine.broken) {
                    waiter.leave(waiters);
                    waiter.finish();
                    throw new BrokenBarrierException();
                }
                if (mine != generation) {
                    waiters.remove(waiter);
                    waiter.finish();
                    return (int) waiter.count;
                }
                if (waiter.timedOut()) {
                    breakBarrier();
                    waiter.leave(waiters);
                    waiter.finish();
                    throw new TimeoutException();
                }
                waiters.add(waiter);
            }
            waiter.park(this);
        }
    }

    /** The last arrival: runs the action, then starts the next generation, or breaks the barrier if it threw. */
    private int trip(Runnable command) {
        boolean ran = false;
        try {
            if (command != null) {
                command.run();
            }
            ran = true;
            synchronized (guard) {
                generation = new Generation();
                count = parties;
                waiters.wakeAll();
            }
            return 0;
        } finally {
            if (!ran) {
                synchronized (guard) {
                    breakBarrier();
                }
            }
        }
    }

    /** Under the guard: marks the current generation broken and wakes its waiters. */
    private void breakBarrier() {
        generation.broken = true;
        count = parties;
        waiters.wakeAll();
    }

    @Override
    public int getParties() {
        return parties;
    }

    @Override
    public boolean isBroken() {
        synchronized (guard) {
            return generation.broken;
        }
    }

    @Override
    public void reset() {
        synchronized (guard) {
            breakBarrier();
            generation = new Generation();
        }
    }

    @Override
    public int getNumberWaiting() {
        synchronized (guard) {
            return parties - count;
        }
    }
}
