package org.picothreads.runtime.concurrent;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Collection;
import java.util.concurrent.locks.AbstractQueuedLongSynchronizer;

/**
 * The superclass that rewritten code gives its subclasses of AbstractQueuedLongSynchronizer, as
 * {@link PicoAbstractQueuedSynchronizer} does for AbstractQueuedSynchronizer: acquiring suspends only the calling
 * PicoThread, the queued threads are the PicoThreads and platform threads that wait, and conditions
 * made with {@code new ConditionObject()} become {@link PicoConditionObject}s. The state is the JDK superclass's;
 * the queue is the runtime's ({@link SynchronizerQueue}).
 *
 * <p>AbstractQueuedLongSynchronizer's public methods are final, so rewritten code reaches these through the
 * redirected calls of {@link SynchronizerCalls}; code that was not rewritten and calls them on an object of this class
 * gets the JDK's queue, which this class never wakes.
 */
public abstract class PicoAbstractQueuedLongSynchronizer extends AbstractQueuedLongSynchronizer {
    private static final long serialVersionUID = 1L;

    /** The runtime's queue; made again when the synchronizer is deserialized. */
    private transient volatile SynchronizerQueue queue = newQueue();

    /** As {@link AbstractQueuedLongSynchronizer#AbstractQueuedLongSynchronizer()}. */
    public PicoAbstractQueuedLongSynchronizer() {
        super();
    }

    /** This synchronizer's queue. */
    final SynchronizerQueue queue() {
        return queue;
    }

    private SynchronizerQueue newQueue() {
        return new SynchronizerQueue(new SynchronizerQueue.Hooks() {
            @Override
            public boolean tryAcquire(long argument) {
                return PicoAbstractQueuedLongSynchronizer.this.tryAcquire(argument);
            }

            @Override
            public boolean tryRelease(long argument) {
                return PicoAbstractQueuedLongSynchronizer.this.tryRelease(argument);
            }

            @Override
            public boolean tryAcquireShared(long argument) {
                return PicoAbstractQueuedLongSynchronizer.this.tryAcquireShared(argument) >= 0;
            }

            @Override
            public boolean tryReleaseShared(long argument) {
                return PicoAbstractQueuedLongSynchronizer.this.tryReleaseShared(argument);
            }

            @Override
            public boolean isHeldExclusively() {
                return PicoAbstractQueuedLongSynchronizer.this.isHeldExclusively();
            }

            @Override
            public long state() {
                return getState();
            }
        });
    }

    /** {@code owns(ConditionObject)}: true when {@code condition} is a runtime condition of this synchronizer. */
    final boolean ownsCondition(ConditionObject condition) {
        if (condition == null) {
            throw new NullPointerException();
        }
        return condition instanceof PicoConditionObject && ((PicoConditionObject) condition).owner() == this;
    }

    /** The runtime condition {@code condition}, or IllegalArgumentException when it is not this synchronizer's. */
    final PicoConditionObject ownCondition(ConditionObject condition) {
        if (!ownsCondition(condition)) {
            throw new IllegalArgumentException("Not owner");
        }
        return (PicoConditionObject) condition;
    }

    /** As the JDK's, with the runtime's queue. */
    @Override
    public String toString() {
        return getClass().getName() + "@" + Integer.toHexString(hashCode()) + "[State = " + getState() + ", "
                + (queue.hasQueuedThreads() ? "non" : "") + "empty queue]";
    }

    private void readObject(ObjectInputStream input) throws IOException, ClassNotFoundException {
        input.defaultReadObject();
        queue = newQueue();
    }

    /**
     * The ConditionObject that rewritten code creates with {@code new ConditionObject()} in a subclass of
     * AbstractQueuedLongSynchronizer: awaiting it releases the synchronizer and suspends only the calling PicoThread.
     * Its owner is the synchronizer given to the constructor; under an owner that is not a runtime synchronizer
     * (a class that was not rewritten) it is the JDK's condition.
     */
    public static class PicoConditionObject extends ConditionObject {
        private static final long serialVersionUID = 1L;

        private final AbstractQueuedLongSynchronizer owner;
        /** The threads awaiting a signal; made again when the condition is deserialized. */
        private transient volatile SynchronizerQueue.Condition waits = new SynchronizerQueue.Condition();

        /** As {@code owner.new ConditionObject()}. */
        public PicoConditionObject(AbstractQueuedLongSynchronizer owner) {
            owner.super();
            this.owner = owner;
        }

        AbstractQueuedLongSynchronizer owner() {
            return owner;
        }

        /** True when the runtime runs this condition's methods: its owner is a runtime synchronizer. */
        boolean isRuntimeCondition() {
            return owner instanceof PicoAbstractQueuedLongSynchronizer;
        }

        /** The blocking primitive behind every await; see {@link SynchronizerQueue#await}. */
        long awaitSignal(long nanos, boolean interruptible) throws InterruptedException {
            return ((PicoAbstractQueuedLongSynchronizer) owner).queue().await(waits, nanos, interruptible, this);
        }

        void signalWaiters(boolean all) {
            ((PicoAbstractQueuedLongSynchronizer) owner).queue().signal(waits, all);
        }

        Collection<Thread> waitingThreadsOf() {
            return ((PicoAbstractQueuedLongSynchronizer) owner).queue().waitingThreads(waits);
        }

        private void readObject(ObjectInputStream input) throws IOException, ClassNotFoundException {
            input.defaultReadObject();
            waits = new SynchronizerQueue.Condition();
        }
    }
}
