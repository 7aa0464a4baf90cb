package org.picothreads.runtime.concurrent;

import java.util.Collection;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedLongSynchronizer;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.AbstractQueuedSynchronizer.ConditionObject;
import java.util.concurrent.locks.Condition;

/**
 * The targets to which the transformer redirects the final public methods of AbstractQueuedSynchronizer and
 * AbstractQueuedLongSynchronizer (listed in the transformer's {@code redirects.txt}): static methods that take the
 * synchronizer first. On a {@link PicoAbstractQueuedSynchronizer} or {@link PicoAbstractQueuedLongSynchronizer} (a
 * subclass that rewritten code declared) they run the runtime's queue; on any other synchronizer, the JDK's method.
 * The await and signal methods of conditions come here from {@link ConcurrentCalls}.
 */
public final class SynchronizerCalls {
    private SynchronizerCalls() {
    }

    // AbstractQueuedSynchronizer

    public static void acquire(AbstractQueuedSynchronizer sync, int argument) {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            try {
                queue(sync).acquire(argument, false, -1, false, sync);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        } else {
            sync.acquire(argument);
        }
    }

    public static void acquireInterruptibly(AbstractQueuedSynchronizer sync, int argument)
            throws InterruptedException {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            queue(sync).acquire(argument, false, -1, true, sync);
        } else {
            sync.acquireInterruptibly(argument);
        }
    }

    public static boolean tryAcquireNanos(AbstractQueuedSynchronizer sync, int argument, long nanos)
            throws InterruptedException {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            return queue(sync).acquire(argument, false, Math.max(0, nanos), true, sync);
        }
        return sync.tryAcquireNanos(argument, nanos);
    }

    public static boolean release(AbstractQueuedSynchronizer sync, int argument) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).release(argument, false)
                : sync.release(argument);
    }

    public static void acquireShared(AbstractQueuedSynchronizer sync, int argument) {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            try {
                queue(sync).acquire(argument, true, -1, false, sync);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        } else {
            sync.acquireShared(argument);
        }
    }

    public static void acquireSharedInterruptibly(AbstractQueuedSynchronizer sync, int argument)
            throws InterruptedException {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            queue(sync).acquire(argument, true, -1, true, sync);
        } else {
            sync.acquireSharedInterruptibly(argument);
        }
    }

    public static boolean tryAcquireSharedNanos(AbstractQueuedSynchronizer sync, int argument, long nanos)
            throws InterruptedException {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            return queue(sync).acquire(argument, true, Math.max(0, nanos), true, sync);
        }
        return sync.tryAcquireSharedNanos(argument, nanos);
    }

    public static boolean releaseShared(AbstractQueuedSynchronizer sync, int argument) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).release(argument, true)
                : sync.releaseShared(argument);
    }

    public static boolean hasQueuedThreads(AbstractQueuedSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).hasQueuedThreads()
                : sync.hasQueuedThreads();
    }

    public static boolean hasContended(AbstractQueuedSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).hasContended() : sync.hasContended();
    }

    public static Thread getFirstQueuedThread(AbstractQueuedSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).firstQueuedThread()
                : sync.getFirstQueuedThread();
    }

    public static boolean isQueued(AbstractQueuedSynchronizer sync, Thread thread) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).isQueued(thread) : sync.isQueued(thread);
    }

    public static boolean hasQueuedPredecessors(AbstractQueuedSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).hasQueuedPredecessors()
                : sync.hasQueuedPredecessors();
    }

    public static int getQueueLength(AbstractQueuedSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).queueLength() : sync.getQueueLength();
    }

    public static Collection<Thread> getQueuedThreads(AbstractQueuedSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).queuedThreads(null)
                : sync.getQueuedThreads();
    }

    public static Collection<Thread> getExclusiveQueuedThreads(AbstractQueuedSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).queuedThreads(Boolean.FALSE)
                : sync.getExclusiveQueuedThreads();
    }

    public static Collection<Thread> getSharedQueuedThreads(AbstractQueuedSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedSynchronizer ? queue(sync).queuedThreads(Boolean.TRUE)
                : sync.getSharedQueuedThreads();
    }

    public static boolean owns(AbstractQueuedSynchronizer sync, ConditionObject condition) {
        return sync instanceof PicoAbstractQueuedSynchronizer
                ? ((PicoAbstractQueuedSynchronizer) sync).ownsCondition(condition) : sync.owns(condition);
    }

    public static boolean hasWaiters(AbstractQueuedSynchronizer sync, ConditionObject condition) {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            return !((PicoAbstractQueuedSynchronizer) sync).ownCondition(condition).waitingThreadsOf().isEmpty();
        }
        return sync.hasWaiters(condition);
    }

    public static int getWaitQueueLength(AbstractQueuedSynchronizer sync, ConditionObject condition) {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            return ((PicoAbstractQueuedSynchronizer) sync).ownCondition(condition).waitingThreadsOf().size();
        }
        return sync.getWaitQueueLength(condition);
    }

    public static Collection<Thread> getWaitingThreads(AbstractQueuedSynchronizer sync, ConditionObject condition) {
        if (sync instanceof PicoAbstractQueuedSynchronizer) {
            return ((PicoAbstractQueuedSynchronizer) sync).ownCondition(condition).waitingThreadsOf();
        }
        return sync.getWaitingThreads(condition);
    }

    // AbstractQueuedLongSynchronizer

    public static void acquire(AbstractQueuedLongSynchronizer sync, long argument) {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            try {
                queue(sync).acquire(argument, false, -1, false, sync);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        } else {
            sync.acquire(argument);
        }
    }

    public static void acquireInterruptibly(AbstractQueuedLongSynchronizer sync, long argument)
            throws InterruptedException {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            queue(sync).acquire(argument, false, -1, true, sync);
        } else {
            sync.acquireInterruptibly(argument);
        }
    }

    public static boolean tryAcquireNanos(AbstractQueuedLongSynchronizer sync, long argument, long nanos)
            throws InterruptedException {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            return queue(sync).acquire(argument, false, Math.max(0, nanos), true, sync);
        }
        return sync.tryAcquireNanos(argument, nanos);
    }

    public static boolean release(AbstractQueuedLongSynchronizer sync, long argument) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).release(argument, false)
                : sync.release(argument);
    }

    public static void acquireShared(AbstractQueuedLongSynchronizer sync, long argument) {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            try {
                queue(sync).acquire(argument, true, -1, false, sync);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        } else {
            sync.acquireShared(argument);
        }
    }

    public static void acquireSharedInterruptibly(AbstractQueuedLongSynchronizer sync, long argument)
            throws InterruptedException {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            queue(sync).acquire(argument, true, -1, true, sync);
        } else {
            sync.acquireSharedInterruptibly(argument);
        }
    }

    public static boolean tryAcquireSharedNanos(AbstractQueuedLongSynchronizer sync, long argument, long nanos)
            throws InterruptedException {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            return queue(sync).acquire(argument, true, Math.max(0, nanos), true, sync);
        }
        return sync.tryAcquireSharedNanos(argument, nanos);
    }

    public static boolean releaseShared(AbstractQueuedLongSynchronizer sync, long argument) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).release(argument, true)
                : sync.releaseShared(argument);
    }

    public static boolean hasQueuedThreads(AbstractQueuedLongSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).hasQueuedThreads()
                : sync.hasQueuedThreads();
    }

    public static boolean hasContended(AbstractQueuedLongSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).hasContended() : sync.hasContended();
    }

    public static Thread getFirstQueuedThread(AbstractQueuedLongSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).firstQueuedThread()
                : sync.getFirstQueuedThread();
    }

    public static boolean isQueued(AbstractQueuedLongSynchronizer sync, Thread thread) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).isQueued(thread)
                : sync.isQueued(thread);
    }

    public static boolean hasQueuedPredecessors(AbstractQueuedLongSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).hasQueuedPredecessors()
                : sync.hasQueuedPredecessors();
    }

    public static int getQueueLength(AbstractQueuedLongSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).queueLength() : sync.getQueueLength();
    }

    public static Collection<Thread> getQueuedThreads(AbstractQueuedLongSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).queuedThreads(null)
                : sync.getQueuedThreads();
    }

    public static Collection<Thread> getExclusiveQueuedThreads(AbstractQueuedLongSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).queuedThreads(Boolean.FALSE)
                : sync.getExclusiveQueuedThreads();
    }

    public static Collection<Thread> getSharedQueuedThreads(AbstractQueuedLongSynchronizer sync) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer ? queue(sync).queuedThreads(Boolean.TRUE)
                : sync.getSharedQueuedThreads();
    }

    public static boolean owns(AbstractQueuedLongSynchronizer sync,
            AbstractQueuedLongSynchronizer.ConditionObject condition) {
        return sync instanceof PicoAbstractQueuedLongSynchronizer
                ? ((PicoAbstractQueuedLongSynchronizer) sync).ownsCondition(condition) : sync.owns(condition);
    }

    public static boolean hasWaiters(AbstractQueuedLongSynchronizer sync,
            AbstractQueuedLongSynchronizer.ConditionObject condition) {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            return !((PicoAbstractQueuedLongSynchronizer) sync).ownCondition(condition).waitingThreadsOf()
                    .isEmpty();
        }
        return sync.hasWaiters(condition);
    }

    public static int getWaitQueueLength(AbstractQueuedLongSynchronizer sync,
            AbstractQueuedLongSynchronizer.ConditionObject condition) {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            return ((PicoAbstractQueuedLongSynchronizer) sync).ownCondition(condition).waitingThreadsOf().size();
        }
        return sync.getWaitQueueLength(condition);
    }

    public static Collection<Thread> getWaitingThreads(AbstractQueuedLongSynchronizer sync,
            AbstractQueuedLongSynchronizer.ConditionObject condition) {
        if (sync instanceof PicoAbstractQueuedLongSynchronizer) {
            return ((PicoAbstractQueuedLongSynchronizer) sync).ownCondition(condition).waitingThreadsOf();
        }
        return sync.getWaitingThreads(condition);
    }

    // Conditions, called from ConcurrentCalls' redirected Condition methods

    /** True when {@code condition}'s methods are the runtime's: a condition of a runtime synchronizer. */
    static boolean isRuntimeCondition(Condition condition) {
        if (condition instanceof PicoAbstractQueuedSynchronizer.PicoConditionObject) {
            return ((PicoAbstractQueuedSynchronizer.PicoConditionObject) condition).isRuntimeCondition();
        }
        return condition instanceof PicoAbstractQueuedLongSynchronizer.PicoConditionObject
                && ((PicoAbstractQueuedLongSynchronizer.PicoConditionObject) condition).isRuntimeCondition();
    }

    /**
     * An await of a runtime condition: {@code nanos} negative waits without a limit; returns the nanoseconds left,
     * 0 or less when the timeout passed.
     */
    static long await(Condition condition, long nanos, boolean interruptible) throws InterruptedException {
        if (condition instanceof PicoAbstractQueuedSynchronizer.PicoConditionObject) {
            return ((PicoAbstractQueuedSynchronizer.PicoConditionObject) condition).awaitSignal(nanos, interruptible);
        }
        return ((PicoAbstractQueuedLongSynchronizer.PicoConditionObject) condition).awaitSignal(nanos, interruptible);
    }

    /** {@code awaitUntil(Date)} of a runtime condition. */
    static boolean awaitUntil(Condition condition, Date deadline) throws InterruptedException {
        long millis = deadline.getTime() - System.currentTimeMillis();
        return await(condition, Math.max(0, TimeUnit.MILLISECONDS.toNanos(millis)), true) > 0;
    }

    /** {@code signal()} or {@code signalAll()} of a runtime condition. */
    static void signal(Condition condition, boolean all) {
        if (condition instanceof PicoAbstractQueuedSynchronizer.PicoConditionObject) {
            ((PicoAbstractQueuedSynchronizer.PicoConditionObject) condition).signalWaiters(all);
        } else {
            ((PicoAbstractQueuedLongSynchronizer.PicoConditionObject) condition).signalWaiters(all);
        }
    }

    private static SynchronizerQueue queue(AbstractQueuedSynchronizer sync) {
        return ((PicoAbstractQueuedSynchronizer) sync).queue();
    }

    private static SynchronizerQueue queue(AbstractQueuedLongSynchronizer sync) {
        return ((PicoAbstractQueuedLongSynchronizer) sync).queue();
    }
}
