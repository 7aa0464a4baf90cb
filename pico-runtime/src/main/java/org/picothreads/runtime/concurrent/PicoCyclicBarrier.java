package org.picothreads.runtime.concurrent;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The CyclicBarrier that rewritten code creates: waiting at it suspends only the calling PicoThread, and PicoThreads
 * and platform threads may meet at it together. The state lives here, not in the superclass. The barrier action
 * runs in the thread that arrives last, inside this runtime frame, so a blocking call in the action pins that
 * thread (blocks without suspending) rather than suspending it.
 *
 * <p>The JDK's barrier runs its action holding the lock that every other method takes, so nothing else happens at
 * the barrier until the trip has ended; this one runs it outside its guard, with {@code actionThread} set meanwhile.
 * Every other thread therefore treats that as the JDK's held lock: an arriving thread waits to arrive in the
 * next generation, a waiting thread's timeout or interrupt does not break the generation being tripped (it ends as
 * the JDK's does once the trip is over: returning its index, with the interrupt status set again), and
 * {@code reset}, {@code getNumberWaiting} and {@code isBroken} wait for the trip to end (blocking for real, as they
 * are not suspension points). The action's own thread, which holds the JDK's lock, calls them without waiting.
 */
public class PicoCyclicBarrier extends CyclicBarrier {
    /** A waiter's step once it has arrived and counted itself in its generation. */
    private static final int ARRIVED = 1;
    /** A waiter's step while it waits for a trip to end, after an interrupt that it reports when it arrives. */
    private static final int INTERRUPTED_BEFORE_ARRIVAL = 2;

    private final Object guard = new Object();
    /** Threads waiting for the current generation to trip or break. */
    private final WaitQueue waiters = new WaitQueue();
    private final int parties;
    private final Runnable barrierCommand;
    /** The current generation; replaced when the barrier trips or is reset. */
    private Generation generation = new Generation();
    /** Parties still to arrive in the current generation. */
    private int count;
    /** The last arrival while it runs the barrier action and ends the trip (as user code sees it), or null. */
    private Thread actionThread;

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
     * The blocking primitive behind both awaits. A thread arrives once (its arrival index and generation are kept in
     * the waiter, whose step becomes {@link #ARRIVED}); a re-invocation after a suspension only waits on. A thread
     * that comes while the last arrival runs the barrier action (outside the guard, {@code actionThread} set) waits
     * for the trip to end and then arrives in the next generation, as the JDK's arrivals wait for the lock that its
     * last arrival holds while running the action (counted into the generation being tripped, it would be released
     * with it, one party too many, and leave the next generation one short). Such a wait is not timed, as the JDK's
     * wait for its lock is not; an interrupt during it is reported on arrival, as the JDK does.
     */
    final int arrive(long nanos) throws InterruptedException, BrokenBarrierException, TimeoutException {
        Waiter waiter = Waiter.enter(guard, nanos);
        Generation mine;
        while (waiter.step != ARRIVED) {
            Runnable command = null;
            int index;
            synchronized (guard) {
                mine = generation;
                waiters.remove(waiter);
                waiter.clearSignal();
                if (mine.broken) {
                    waiter.finish();
                    throw new BrokenBarrierException();
                }
                boolean interrupted = waiter.takeInterrupt() || waiter.step == INTERRUPTED_BEFORE_ARRIVAL;
                if (actionThread != null) {
                    waiter.step = interrupted ? INTERRUPTED_BEFORE_ARRIVAL : 0;
                    waiters.add(waiter);
                    index = -1;
                } else {
                    if (interrupted) {
                        breakBarrier();
                        waiter.finish();
                        throw new InterruptedException();
                    }
                    index = --count;
                    if (index == 0) {
                        command = barrierCommand;
                        actionThread = waiter.thread();
                    }
                    waiter.step = ARRIVED;
                    waiter.count = index;
                    waiter.attachment = mine;
                }
            }
            if (index == 0) {
                waiter.finish();
                return trip(command);
            }
            if (index < 0) {
                waiter.parkUntimed(this);
            }
        }
        mine = (Generation) waiter.attachment;
        boolean tripping;
        while (true) {
            if (waiter.takeInterrupt()) {
                synchronized (guard) {
                    if (mine == generation && !mine.broken && actionThread == null) {
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
                tripping = actionThread != null;
                if (!tripping && waiter.timedOut()) {
                    breakBarrier();
                    waiter.leave(waiters);
                    waiter.finish();
                    throw new TimeoutException();
                }
                waiters.add(waiter);
            }
            if (tripping) {
                waiter.parkUntimed(this);
            } else {
                waiter.park(this);
            }
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
                actionThread = null;
                generation = new Generation();
                count = parties;
                waiters.wakeAll();
            }
            return 0;
        } finally {
            if (!ran) {
                synchronized (guard) {
                    actionThread = null;
                    breakBarrier();
                }
            }
        }
    }

    /**
     * Runs {@code step} under the guard once no barrier action runs, or at once in the action's own thread: the JDK
     * runs these steps holding its lock, which the action's thread holds throughout the action. The wait is not
     * interruptible, as the JDK's lock is not (an interrupt meanwhile stays set).
     */
    private void whenNoActionRuns(Runnable step) {
        synchronized (guard) {
            if (actionThread == null || actionThread == ThreadCalls.currentThread()) {
                step.run();
                return;
            }
        }
        Waiter waiter = Waiter.enter(guard, -1);
        try {
            waiter.await(waiters, () -> {
                if (actionThread != null) {
                    return false;
                }
                step.run();
                return true;
            }, false, this);
        } catch (InterruptedException impossible) {
            throw new IllegalStateException(impossible);
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
        boolean[] broken = new boolean[1];
        whenNoActionRuns(() -> broken[0] = generation.broken);
        return broken[0];
    }

    @Override
    public void reset() {
        whenNoActionRuns(() -> {
            breakBarrier();
            generation = new Generation();
        });
    }

    @Override
    public int getNumberWaiting() {
        int[] number = new int[1];
        whenNoActionRuns(() -> number[0] = parties - count);
        return number[0];
    }
}
