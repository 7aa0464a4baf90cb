package org.picothreads.runtime.concurrent;

import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.picothreads.runtime.internal.WaitQueue;
import org.picothreads.runtime.internal.Waiter;

/**
 * The Phaser that rewritten code creates: awaiting an advance suspends only the calling PicoThread, and
 * PicoThreads and platform threads may arrive and await in any combination. Parties, arrivals, phases, tiering,
 * {@code onAdvance} and termination are the superclass's; only the waits are the runtime's.
 *
 * <p>The threads waiting on any phaser of a tree wait at its root (phases are the root's): every arrival,
 * deregistration and forced termination through a phaser of this class wakes them to check the phase again. A
 * phaser whose root is a JDK Phaser (made by code that was not rewritten) advances without telling this class, so
 * its waiters check the phase every 1 to 16 ms instead.
 */
public class PicoPhaser extends Phaser {
    private static final long FIRST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LONGEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(16);

    /** The internal lock that makes a waiter's phase check and registration atomic against an advance. */
    private final Object guard = new Object();
    /** Threads waiting for the phase of the tree this phaser is the root of to change. */
    private final WaitQueue waiters = new WaitQueue();

    /** As {@link Phaser#Phaser()}. */
    public PicoPhaser() {
        super();
    }

    /** As {@link Phaser#Phaser(int)}. */
    public PicoPhaser(int parties) {
        super(parties);
    }

    /** As {@link Phaser#Phaser(Phaser)}. */
    public PicoPhaser(Phaser parent) {
        super(parent);
    }

    /** As {@link Phaser#Phaser(Phaser, int)}. */
    public PicoPhaser(Phaser parent, int parties) {
        super(parent, parties);
    }

    @Override
    public int arrive() {
        int phase = super.arrive();
        wakeWaiters();
        return phase;
    }

    @Override
    public int arriveAndDeregister() {
        int phase = super.arriveAndDeregister();
        wakeWaiters();
        return phase;
    }

    @Override
    public void forceTermination() {
        super.forceTermination();
        wakeWaiters();
    }

    @Override
    public int arriveAndAwaitAdvance() {
        return arriveAndAwait();
    }

    @Override
    public int awaitAdvance(int phase) {
        try {
            return awaitPhaseChange(phase, -1, false);
        } catch (InterruptedException | TimeoutException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public int awaitAdvanceInterruptibly(int phase) throws InterruptedException {
        try {
            return awaitPhaseChange(phase, -1, true);
        } catch (TimeoutException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public int awaitAdvanceInterruptibly(int phase, long timeout, TimeUnit unit)
            throws InterruptedException, TimeoutException {
        return awaitPhaseChange(phase, Math.max(0, unit.toNanos(timeout)), true);
    }

    /**
     * The blocking primitive behind {@code arriveAndAwaitAdvance}: arrives once (not again when a PicoThread
     * continues the call after a suspension), then waits, not interruptibly, for the phase to change; returns the
     * next phase, or the negative phase once the phaser is terminated. As with the JDK, the thread whose arrival
     * advanced the phase gets the next phase even when {@code onAdvance} terminated the phaser.
     */
    final int arriveAndAwait() {
        PicoPhaser home = waitHome();
        Waiter waiter = Waiter.enter(home.guard, -1);
        if (waiter.isFresh()) {
            int phase;
            try {
                phase = super.arrive();
            } catch (RuntimeException | Error failure) {
                waiter.finish();
                throw failure;
            }
            wakeWaiters();
            if (phase >= 0 && getPhase() != phase) {
                waiter.finish();
                return (phase + 1) & Integer.MAX_VALUE;
            }
            waiter.count = phase;
        }
        try {
            return awaitWith(waiter, home, (int) waiter.count, false);
        } catch (InterruptedException | TimeoutException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * The blocking primitive behind the three awaits: waits until the phase is no longer {@code phase}, at most
     * {@code nanos} when that is not negative, and returns the current phase; a negative {@code phase} is returned
     * at once, as by the JDK.
     */
    final int awaitPhaseChange(int phase, long nanos, boolean interruptible)
            throws InterruptedException, TimeoutException {
        PicoPhaser home = waitHome();
        Waiter waiter = Waiter.enter(home.guard, nanos);
        return awaitWith(waiter, home, phase, interruptible);
    }

    private int awaitWith(Waiter waiter, PicoPhaser home, int phase, boolean interruptible)
            throws InterruptedException, TimeoutException {
        if (phase < 0) {
            waiter.finish();
            return phase;
        }
        boolean polling = home != getRoot();
        if (waiter.isFresh() && polling) {
            waiter.attachment = FIRST_POLL_NANOS;
        }
        while (true) {
            boolean interrupted = waiter.takeInterrupt();
            synchronized (home.guard) {
                int current = getPhase();
                if (current != phase) {
                    home.waiters.remove(waiter);
                    if (interrupted) {
                        waiter.deferInterrupt();
                    }
                    waiter.finish();
                    return current;
                }
                if (interrupted) {
                    if (interruptible) {
                        home.waiters.remove(waiter);
                        waiter.finish();
                        throw new InterruptedException();
                    }
                    waiter.deferInterrupt();
                }
                if (waiter.timedOut()) {
                    home.waiters.remove(waiter);
                    waiter.finish();
                    throw new TimeoutException();
                }
                home.waiters.add(waiter);
            }
            if (polling) {
                long pause = (Long) waiter.attachment;
                waiter.attachment = Math.min(pause * 2, LONGEST_POLL_NANOS);
                waiter.parkAtMost(this, pause);
            } else {
                waiter.park(this);
            }
        }
    }

    /** The phaser whose guard and queue the waits on this one use: the root, or this one under a JDK root. */
    private PicoPhaser waitHome() {
        Phaser root = getRoot();
        return root instanceof PicoPhaser ? (PicoPhaser) root : this;
    }

    /** Wakes every thread waiting on this phaser's tree, after a change that may have advanced its phase. */
    private void wakeWaiters() {
        PicoPhaser home = waitHome();
        synchronized (home.guard) {
            home.waiters.wakeAll();
        }
    }
}
