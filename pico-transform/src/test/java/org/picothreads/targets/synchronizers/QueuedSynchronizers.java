package org.picothreads.targets.synchronizers;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.AbstractQueuedLongSynchronizer;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/**
 * Synchronizers of the program's own, built on AbstractQueuedSynchronizer as its javadoc shows: a mutex keeps
 * threads that sleep while holding it apart, and the queue shows the waiting threads; a boolean latch releases
 * every thread in shared mode; a fair mutex using hasQueuedPredecessors serves threads in the order they queued;
 * conditions are awaited, signalled, timed out and interrupted; a timed acquire times out and an interrupted one
 * throws; a serialized mutex comes back with its state and works; a synchronizer of long permits, built on
 * AbstractQueuedLongSynchronizer, queues threads in shared mode and has a condition.
 */
public final class QueuedSynchronizers {
    private QueuedSynchronizers() {
    }

    /** The mutex of AbstractQueuedSynchronizer's javadoc, fair when asked. */
    static final class Mutex extends AbstractQueuedSynchronizer {
        private static final long serialVersionUID = 1L;
        private final boolean fair;

        Mutex(boolean fair) {
            this.fair = fair;
        }

        @Override
        protected boolean isHeldExclusively() {
            return getState() == 1 && getExclusiveOwnerThread() == Thread.currentThread();
        }

        @Override
        protected boolean tryAcquire(int acquires) {
            if (fair && hasQueuedPredecessors()) {
                return false;
            }
            if (compareAndSetState(0, 1)) {
                setExclusiveOwnerThread(Thread.currentThread());
                return true;
            }
            return false;
        }

        @Override
        protected boolean tryRelease(int releases) {
            if (!isHeldExclusively()) {
                throw new IllegalMonitorStateException();
            }
            setExclusiveOwnerThread(null);
            setState(0);
            return true;
        }

        ConditionObject newCondition() {
            return new ConditionObject();
        }

        boolean isLocked() {
            return getState() == 1;
        }

        Thread owner() {
            return getExclusiveOwnerThread();
        }

        /** Comes back unlocked, as the javadoc's mutex does. */
        private void readObject(ObjectInputStream input) throws IOException, ClassNotFoundException {
            input.defaultReadObject();
            setState(0);
        }
    }

    /** The boolean latch of AbstractQueuedSynchronizer's javadoc: shared mode. */
    static final class BooleanLatch extends AbstractQueuedSynchronizer {
        private static final long serialVersionUID = 1L;

        boolean isSignalled() {
            return getState() != 0;
        }

        @Override
        protected int tryAcquireShared(int ignored) {
            return isSignalled() ? 1 : -1;
        }

        @Override
        protected boolean tryReleaseShared(int ignored) {
            setState(1);
            return true;
        }
    }

    /** Permits beyond the range of int, in shared mode, with an exclusive mode for a condition: a long synchronizer. */
    static final class LongPermits extends AbstractQueuedLongSynchronizer {
        private static final long serialVersionUID = 1L;

        LongPermits(long permits) {
            setState(permits);
        }

        @Override
        protected long tryAcquireShared(long wanted) {
            while (true) {
                long available = getState();
                long left = available - wanted;
                if (left < 0 || compareAndSetState(available, left)) {
                    return left;
                }
            }
        }

        @Override
        protected boolean tryReleaseShared(long returned) {
            while (true) {
                long available = getState();
                if (compareAndSetState(available, available + returned)) {
                    return true;
                }
            }
        }

        @Override
        protected boolean tryAcquire(long wanted) {
            if (getExclusiveOwnerThread() == null && tryAcquireShared(wanted) >= 0) {
                setExclusiveOwnerThread(Thread.currentThread());
                return true;
            }
            return false;
        }

        @Override
        protected boolean tryRelease(long returned) {
            if (getExclusiveOwnerThread() != Thread.currentThread()) {
                throw new IllegalMonitorStateException();
            }
            setExclusiveOwnerThread(null);
            return tryReleaseShared(returned);
        }

        @Override
        protected boolean isHeldExclusively() {
            return getExclusiveOwnerThread() == Thread.currentThread();
        }

        ConditionObject newCondition() {
            return new ConditionObject();
        }

        long available() {
            return getState();
        }
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        exclusion(log);
        sharedAndFair(log);
        conditions(log);
        timeoutsAndSerialization(log);
        longSynchronizer(log);
        return log.toString();
    }

    private static void exclusion(StringBuilder log) throws Exception {
        Mutex mutex = new Mutex(false);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        int[] counter = new int[1];
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < 4; index++) {
            threads.add(new Thread(() -> {
                for (int round = 0; round < 3; round++) {
                    mutex.acquire(1);
                    try {
                        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        int seen = counter[0];
                        sleep(1);
                        counter[0] = seen + 1;
                        inside.decrementAndGet();
                    } finally {
                        mutex.release(1);
                    }
                }
            }, "worker-" + index));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        log.append("exclusion: counter ").append(counter[0]).append(", most inside at once ").append(mostInside.get())
                .append(", locked ").append(mutex.isLocked());

        StringBuilder queue = new StringBuilder();
        boolean[] holderOwned = new boolean[1];
        AtomicInteger gate = new AtomicInteger();
        Thread holder = new Thread(() -> {
            mutex.acquire(1);
            holderOwned[0] = mutex.owner() == Thread.currentThread();
            while (gate.get() == 0) {
                sleep(1);
            }
            mutex.release(1);
        }, "holder");
        holder.start();
        while (!mutex.isLocked()) {
            Thread.sleep(1);
        }
        Thread waiter = new Thread(() -> {
            mutex.acquire(1);
            mutex.release(1);
        }, "waiter");
        waiter.start();
        while (!mutex.hasQueuedThreads()) {
            Thread.sleep(1);
        }
        List<String> names = new ArrayList<>();
        for (Thread thread : mutex.getQueuedThreads()) {
            names.add(thread.getName());
        }
        String described = mutex.toString();
        queue.append("queued ").append(names).append(", isQueued(waiter) ").append(mutex.isQueued(waiter))
                .append(", isQueued(holder) ").append(mutex.isQueued(holder))
                .append(", first ").append(mutex.getFirstQueuedThread() == waiter)
                .append(", length ").append(mutex.getQueueLength())
                .append(", exclusive ").append(mutex.getExclusiveQueuedThreads().size())
                .append(", shared ").append(mutex.getSharedQueuedThreads().size())
                .append(", described ").append(described.substring(described.indexOf('[')));
        gate.set(1);
        holder.join();
        waiter.join();
        queue.append(", holder was owner ").append(holderOwned[0]).append(", contended ").append(mutex.hasContended())
                .append(", afterwards queued ")
                .append(mutex.hasQueuedThreads()).append(' ')
                .append(mutex.toString().substring(mutex.toString().indexOf('[')));
        log.append("\nqueue: ").append(queue);
    }

    private static void sharedAndFair(StringBuilder log) throws Exception {
        BooleanLatch latch = new BooleanLatch();
        AtomicInteger passed = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < 3; index++) {
            threads.add(new Thread(() -> {
                try {
                    latch.acquireSharedInterruptibly(1);
                    passed.incrementAndGet();
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        while (latch.getQueueLength() < 3) {
            Thread.sleep(1);
        }
        int sharedWaiting = latch.getSharedQueuedThreads().size();
        int passedBefore = passed.get();
        latch.releaseShared(1);
        for (Thread thread : threads) {
            thread.join();
        }
        latch.acquireShared(1);
        log.append("\nboolean latch: ").append(sharedWaiting).append(" waiting in shared mode, passed before ")
                .append(passedBefore).append(", after ").append(passed.get()).append(", queue empty ")
                .append(!latch.hasQueuedThreads());

        Mutex fair = new Mutex(true);
        fair.acquire(1);
        List<String> order = new ArrayList<>();
        List<Thread> queued = new ArrayList<>();
        for (int index = 0; index < 4; index++) {
            int number = index;
            Thread thread = new Thread(() -> {
                fair.acquire(1);
                order.add("t" + number);
                sleep(1);
                fair.release(1);
            });
            queued.add(thread);
            thread.start();
            while (!fair.isQueued(thread)) {
                Thread.sleep(1);
            }
        }
        boolean predecessors = fair.hasQueuedPredecessors();
        fair.release(1);
        for (Thread thread : queued) {
            thread.join();
        }
        log.append("\nfair mutex: order ").append(order).append(", the caller had predecessors ")
                .append(predecessors);
    }

    private static void conditions(StringBuilder log) throws Exception {
        Mutex mutex = new Mutex(false);
        AbstractQueuedSynchronizer.ConditionObject ready = mutex.newCondition();
        boolean[] flag = new boolean[1];
        StringBuilder waited = new StringBuilder();
        List<Thread> waiters = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            waiters.add(new Thread(() -> {
                mutex.acquire(1);
                try {
                    while (!flag[0]) {
                        ready.await();
                    }
                    synchronized (waited) {
                        waited.append("woke holding ").append(mutex.isHeldExclusively()).append("; ");
                    }
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                } finally {
                    mutex.release(1);
                }
            }));
        }
        for (Thread thread : waiters) {
            thread.start();
        }
        int waiting = 0;
        while (waiting < 2) {
            Thread.sleep(1);
            mutex.acquire(1);
            waiting = mutex.getWaitQueueLength(ready);
            mutex.release(1);
        }
        mutex.acquire(1);
        boolean hasWaiters = mutex.hasWaiters(ready);
        int waitingThreads = mutex.getWaitingThreads(ready).size();
        boolean owns = mutex.owns(ready) && !new Mutex(false).owns(ready);
        flag[0] = true;
        ready.signalAll();
        mutex.release(1);
        for (Thread thread : waiters) {
            thread.join();
        }
        String notHeld;
        try {
            ready.signal();
            notHeld = "signalled";
        } catch (IllegalMonitorStateException exception) {
            notHeld = "IllegalMonitorStateException";
        }
        log.append("\ncondition: had waiters ").append(hasWaiters).append(" (").append(waitingThreads)
                .append("), owns ").append(owns).append(", ").append(waited).append("signal without the mutex: ")
                .append(notHeld);

        StringBuilder timed = new StringBuilder();
        AtomicInteger stage = new AtomicInteger();
        Thread timedWaiter = new Thread(() -> {
            mutex.acquire(1);
            try {
                timed.append("awaitNanos left ").append(ready.awaitNanos(TimeUnit.MILLISECONDS.toNanos(10)) <= 0)
                        .append(", await(time) ").append(ready.await(5, TimeUnit.MILLISECONDS))
                        .append(", holding ").append(mutex.isHeldExclusively());
                stage.set(1);
                ready.await();
                timed.append(", woke");
            } catch (InterruptedException exception) {
                timed.append(", interrupted, holding ").append(mutex.isHeldExclusively()).append(", flag ")
                        .append(Thread.currentThread().isInterrupted());
            } finally {
                mutex.release(1);
            }
        });
        timedWaiter.start();
        while (stage.get() < 1) {
            Thread.sleep(1);
        }
        Thread.sleep(5);
        timedWaiter.interrupt();
        timedWaiter.join();
        log.append("\ntimed and interrupted awaits: ").append(timed);
    }

    private static void timeoutsAndSerialization(StringBuilder log) throws Exception {
        Mutex mutex = new Mutex(false);
        mutex.acquire(1);
        StringBuilder tried = new StringBuilder();
        AtomicInteger stage = new AtomicInteger();
        Thread trier = new Thread(() -> {
            try {
                tried.append("timed ").append(mutex.tryAcquireNanos(1, TimeUnit.MILLISECONDS.toNanos(10)));
                stage.set(1);
                mutex.acquireInterruptibly(1);
                tried.append(", acquired");
                mutex.release(1);
            } catch (InterruptedException exception) {
                tried.append(", interrupted, flag ").append(Thread.currentThread().isInterrupted())
                        .append(", queued ").append(mutex.isQueued(Thread.currentThread()));
            }
        });
        trier.start();
        while (stage.get() < 1) {
            Thread.sleep(1);
        }
        Thread.sleep(5);
        trier.interrupt();
        trier.join();
        String releasedByOther;
        try {
            Thread other = new Thread(() -> mutex.release(1));
            StringBuilder failure = new StringBuilder();
            other.setUncaughtExceptionHandler(
                    (thread, exception) -> failure.append(exception.getClass().getSimpleName()));
            other.start();
            other.join();
            releasedByOther = failure.toString();
        } finally {
            mutex.release(1);
        }
        log.append("\nacquire timeouts: ").append(tried).append(", release by another thread: ")
                .append(releasedByOther);

        Mutex locked = new Mutex(false);
        locked.acquire(1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream output = new ObjectOutputStream(bytes)) {
            output.writeObject(locked);
        }
        Mutex copy;
        try (ObjectInputStream input = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (Mutex) input.readObject();
        }
        boolean copyLocked = copy.isLocked();
        StringBuilder used = new StringBuilder();
        copy.acquire(1);
        Thread contender = new Thread(() -> {
            copy.acquire(1);
            used.append("contender acquired the copy");
            copy.release(1);
        });
        contender.start();
        while (!copy.hasQueuedThreads()) {
            Thread.sleep(1);
        }
        copy.release(1);
        contender.join();
        log.append("\nserialized: copy locked ").append(copyLocked).append(", ").append(used);
    }

    private static void longSynchronizer(StringBuilder log) throws Exception {
        long billion = 1_000_000_000L;
        LongPermits permits = new LongPermits(3 * billion);
        permits.acquireShared(2 * billion);
        AtomicInteger gate = new AtomicInteger();
        Thread first = new Thread(() -> {
            permits.acquireShared(billion);
            while (gate.get() == 0) {
                sleep(1);
            }
            permits.releaseShared(billion);
        });
        Thread second = new Thread(() -> {
            permits.acquireShared(billion);
            permits.releaseShared(billion);
        });
        first.start();
        while (permits.available() != 0) {
            Thread.sleep(1);
        }
        second.start();
        while (!permits.hasQueuedThreads()) {
            Thread.sleep(1);
        }
        int sharedQueued = permits.getSharedQueuedThreads().size();
        permits.releaseShared(2 * billion);
        second.join();
        gate.set(1);
        first.join();
        log.append("\nlong synchronizer: shared queued ").append(sharedQueued).append(", available ")
                .append(permits.available());

        AbstractQueuedLongSynchronizer.ConditionObject refilled = permits.newCondition();
        StringBuilder waited = new StringBuilder();
        Thread waiter = new Thread(() -> {
            permits.acquire(billion);
            try {
                while (permits.available() < 4 * billion) {
                    refilled.await();
                }
                waited.append("woke with ").append(permits.available() / billion).append(" billion left");
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            } finally {
                permits.release(billion);
            }
        });
        waiter.start();
        int waiting = 0;
        while (waiting == 0) {
            Thread.sleep(1);
            permits.acquire(0);
            waiting = permits.getWaitQueueLength(refilled);
            permits.release(0);
        }
        permits.acquire(0);
        permits.releaseShared(2 * billion);
        refilled.signal();
        permits.release(0);
        waiter.join();
        log.append(", condition: ").append(waited).append(", available ").append(permits.available() / billion);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }
}
