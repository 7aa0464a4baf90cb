package org.picothreads.runtime.concurrent;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The ReentrantLock that rewritten code creates: waiting for it, or for one of its conditions, suspends only the
 * calling PicoThread, and PicoThreads and platform threads may share it in any combination. Its owner is the thread
 * as user code sees it (a PicoThread, not the carrier); the state lives in an {@link ExclusiveLock}, not in the
 * superclass. {@code hasQueuedThreads}, {@code hasQueuedThread} and {@code getQueueLength} are final in the JDK;
 * rewritten code reaches {@link ConcurrentCalls} for them.
 */
public class PicoReentrantLock extends ReentrantLock {
    private static final long serialVersionUID = 1L;

    /** The lock's state; a deserialized lock is unlocked, as the JDK's is, with the fairness it had. */
    private transient ExclusiveLock state;

    /** As {@link ReentrantLock#ReentrantLock()}. */
    public PicoReentrantLock() {
        this(false);
    }

    /** As {@link ReentrantLock#ReentrantLock(boolean)}. */
    public PicoReentrantLock(boolean fair) {
        super(fair);
        state = new ExclusiveLock(fair);
    }

    @Override
    public void lock() {
        try {
            state.acquire(-1, false, this);
        } catch (InterruptedException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        state.acquire(-1, true, this);
    }

    @Override
    public boolean tryLock() {
        return state.tryAcquireNow();
    }

    @Override
    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
        return state.acquire(Math.max(0, unit.toNanos(timeout)), true, this);
    }

    @Override
    public void unlock() {
        state.release();
    }

    @Override
    public Condition newCondition() {
        return new PicoCondition(state);
    }

    @Override
    public int getHoldCount() {
        return state.holdCountOfCurrentThread();
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return state.holdCountOfCurrentThread() > 0;
    }

    @Override
    public boolean isLocked() {
        return state.owner() != null;
    }

    @Override
    protected Thread getOwner() {
        return state.owner();
    }

    @Override
    protected Collection<Thread> getQueuedThreads() {
        return state.waitingThreads();
    }

    @Override
    public boolean hasWaiters(Condition condition) {
        return ownCondition(condition).hasWaiters();
    }

    @Override
    public int getWaitQueueLength(Condition condition) {
        return ownCondition(condition).waitQueueLength();
    }

    @Override
    protected Collection<Thread> getWaitingThreads(Condition condition) {
        return ownCondition(condition).waitingThreads();
    }

    @Override
    public String toString() {
        Thread owner = state.owner();
        return JdkNames.identity(this, PicoReentrantLock.class, ReentrantLock.class)
                + (owner == null ? "[Unlocked]" : "[Locked by thread " + owner.getName() + "]");
    }

    /** The answers of the final query methods, which rewritten code reaches through {@link ConcurrentCalls}. */
    final ExclusiveLock state() {
        return state;
    }

    private PicoCondition ownCondition(Condition condition) {
        if (condition == null) {
            throw new NullPointerException();
        }
        if (!(condition instanceof PicoCondition) || !((PicoCondition) condition).belongsTo(state)) {
            throw new IllegalArgumentException("not owner");
        }
        return (PicoCondition) condition;
    }

    /** Reads the fairness as the superclass does; the copy is unlocked. */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        state = new ExclusiveLock(isFair());
    }
}
