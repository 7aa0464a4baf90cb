package org.picothreads.runtime.concurrent;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Exchanger;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TransferQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.BooleanSupplier;
import org.picothreads.runtime.PicoThread;
import org.picothreads.runtime.internal.CallerToken;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Monitors;
import org.picothreads.runtime.internal.Parking;
import org.picothreads.runtime.internal.Task;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.Waiter;

/**
 * The targets to which the transformer redirects calls of java.util.concurrent (and of LockSupport, TimeUnit.sleep
 * and JDK 21's thread builders), listed in the transformer's {@code redirects.txt}: static methods that take the
 * receiver of an instance method first.
 *
 * <p>On an object the runtime created (a {@code PicoCountDownLatch} that rewritten code made with
 * {@code new CountDownLatch}, a future of a {@link PicoExecutorService}) a call runs the runtime's implementation,
 * which suspends only the calling PicoThread. The call is virtual, so an override in a user subclass runs; when
 * that override calls its super method, the redirected super call runs the runtime's implementation directly.
 * Futures and executors the JDK made are waited for by suspending too: a CompletableFuture wakes its waiter through
 * a completion callback, any other future or executor is polled with a growing back-off (1 to 16 ms). Any other
 * JDK object (a latch, lock or queue that code which was not rewritten created) gets the JDK's own method, which
 * blocks the carrier when called by a PicoThread.
 */
public final class ConcurrentCalls {
    private static final String RUNTIME_PACKAGE = "org.picothreads.runtime.";
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final long FIRST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LONGEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(16);
    /** {@code ExecutorService.close()} of JDK 19 and later, or null before. */
    private static final MethodHandle EXECUTOR_CLOSE = executorClose();

    private ConcurrentCalls() {
    }

    // CountDownLatch

    public static void await(CountDownLatch latch) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, latch, ConcurrentCalls::isDirect);
        try {
            if (latch instanceof PicoCountDownLatch && isSuperCall(latch, "await")) {
                ((PicoCountDownLatch) latch).awaitZero(-1);
            } else {
                latch.await();
            }
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static boolean await(CountDownLatch latch, long timeout, TimeUnit unit) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, latch, ConcurrentCalls::isDirect);
        try {
            if (latch instanceof PicoCountDownLatch && isSuperCall(latch, "await")) {
                return ((PicoCountDownLatch) latch).awaitZero(Math.max(0, unit.toNanos(timeout)));
            }
            return latch.await(timeout, unit);
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
            return false;
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    // CyclicBarrier

    public static int await(CyclicBarrier barrier) throws InterruptedException, BrokenBarrierException {
        if (barrier instanceof PicoCyclicBarrier && isSuperCall(barrier, "await")) {
            try {
                return ((PicoCyclicBarrier) barrier).arrive(-1);
            } catch (TimeoutException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        return barrier.await();
    }

    public static int await(CyclicBarrier barrier, long timeout, TimeUnit unit) throws InterruptedException,
            BrokenBarrierException, TimeoutException {
        if (barrier instanceof PicoCyclicBarrier && isSuperCall(barrier, "await")) {
            return ((PicoCyclicBarrier) barrier).arrive(Math.max(0, unit.toNanos(timeout)));
        }
        return barrier.await(timeout, unit);
    }

    // Exchanger

    public static Object exchange(Exchanger<Object> exchanger, Object item) throws InterruptedException {
        if (exchanger instanceof PicoExchanger && isSuperCall(exchanger, "exchange")) {
            try {
                return ((PicoExchanger<Object>) exchanger).exchangeWithin(item, -1);
            } catch (TimeoutException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        return exchanger.exchange(item);
    }

    public static Object exchange(Exchanger<Object> exchanger, Object item, long timeout, TimeUnit unit)
            throws InterruptedException, TimeoutException {
        if (exchanger instanceof PicoExchanger && isSuperCall(exchanger, "exchange")) {
            return ((PicoExchanger<Object>) exchanger).exchangeWithin(item, Math.max(0, unit.toNanos(timeout)));
        }
        return exchanger.exchange(item, timeout, unit);
    }

    // Phaser

    public static int arriveAndAwaitAdvance(Phaser phaser) {
        if (phaser instanceof PicoPhaser && isSuperCall(phaser, "arriveAndAwaitAdvance")) {
            return ((PicoPhaser) phaser).arriveAndAwait();
        }
        return phaser.arriveAndAwaitAdvance();
    }

    public static int awaitAdvance(Phaser phaser, int phase) {
        if (phaser instanceof PicoPhaser && isSuperCall(phaser, "awaitAdvance")) {
            try {
                return ((PicoPhaser) phaser).awaitPhaseChange(phase, -1, false);
            } catch (InterruptedException | TimeoutException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        return phaser.awaitAdvance(phase);
    }

    public static int awaitAdvanceInterruptibly(Phaser phaser, int phase) throws InterruptedException {
        if (phaser instanceof PicoPhaser && isSuperCall(phaser, "awaitAdvanceInterruptibly")) {
            try {
                return ((PicoPhaser) phaser).awaitPhaseChange(phase, -1, true);
            } catch (TimeoutException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        return phaser.awaitAdvanceInterruptibly(phase);
    }

    public static int awaitAdvanceInterruptibly(Phaser phaser, int phase, long timeout, TimeUnit unit)
            throws InterruptedException, TimeoutException {
        if (phaser instanceof PicoPhaser && isSuperCall(phaser, "awaitAdvanceInterruptibly")) {
            return ((PicoPhaser) phaser).awaitPhaseChange(phase, Math.max(0, unit.toNanos(timeout)), true);
        }
        return phaser.awaitAdvanceInterruptibly(phase, timeout, unit);
    }

    // Semaphore

    public static void acquire(Semaphore semaphore) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, semaphore, ConcurrentCalls::isDirect);
        try {
            if (semaphore instanceof PicoSemaphore && isSuperCall(semaphore, "acquire")) {
                ((PicoSemaphore) semaphore).acquirePermits(1, -1, true);
            } else {
                semaphore.acquire();
            }
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static void acquire(Semaphore semaphore, int permits) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, semaphore, ConcurrentCalls::isDirect);
        try {
            if (semaphore instanceof PicoSemaphore && permits >= 0 && isSuperCall(semaphore, "acquire")) {
                ((PicoSemaphore) semaphore).acquirePermits(permits, -1, true);
            } else {
                semaphore.acquire(permits);
            }
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static void acquireUninterruptibly(Semaphore semaphore) {
        acquireUninterruptibly(semaphore, 1);
    }

    public static void acquireUninterruptibly(Semaphore semaphore, int permits) {
        if (semaphore instanceof PicoSemaphore && permits >= 0 && isSuperCall(semaphore, "acquireUninterruptibly")) {
            try {
                ((PicoSemaphore) semaphore).acquirePermits(permits, -1, false);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        } else {
            semaphore.acquireUninterruptibly(permits);
        }
    }

    public static boolean tryAcquire(Semaphore semaphore, long timeout, TimeUnit unit) throws InterruptedException {
        return tryAcquire(semaphore, 1, timeout, unit);
    }

    public static boolean tryAcquire(Semaphore semaphore, int permits, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (semaphore instanceof PicoSemaphore && permits >= 0 && isSuperCall(semaphore, "tryAcquire")) {
            return ((PicoSemaphore) semaphore).acquirePermits(permits, Math.max(0, unit.toNanos(timeout)), true);
        }
        return semaphore.tryAcquire(permits, timeout, unit);
    }

    /** {@code Semaphore.hasQueuedThreads()}, which is final. */
    public static boolean hasQueuedThreads(Semaphore semaphore) {
        return semaphore instanceof PicoSemaphore ? ((PicoSemaphore) semaphore).hasWaitingThreads()
                : semaphore.hasQueuedThreads();
    }

    /** {@code Semaphore.getQueueLength()}, which is final. */
    public static int getQueueLength(Semaphore semaphore) {
        return semaphore instanceof PicoSemaphore ? ((PicoSemaphore) semaphore).waitingThreadCount()
                : semaphore.getQueueLength();
    }

    // Lock (ReentrantLock, and the read and write locks of ReentrantReadWriteLock)

    public static void lock(Lock lock) {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, lock, ConcurrentCalls::isDirect);
        try {
            if (lock instanceof PicoReentrantLock && isSuperCall(lock, "lock")) {
                try {
                    ((PicoReentrantLock) lock).state().acquire(-1, false, lock);
                } catch (InterruptedException impossible) {
                    throw new IllegalStateException(impossible);
                }
            } else {
                lock.lock();
            }
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static void lockInterruptibly(Lock lock) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, lock, ConcurrentCalls::isDirect);
        try {
            if (lock instanceof PicoReentrantLock && isSuperCall(lock, "lockInterruptibly")) {
                ((PicoReentrantLock) lock).state().acquire(-1, true, lock);
            } else {
                lock.lockInterruptibly();
            }
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static boolean tryLock(Lock lock, long timeout, TimeUnit unit) throws InterruptedException {
        if (lock instanceof PicoReentrantLock && isSuperCall(lock, "tryLock")) {
            return ((PicoReentrantLock) lock).state().acquire(Math.max(0, unit.toNanos(timeout)), true, lock);
        }
        return lock.tryLock(timeout, unit);
    }

    /** {@code ReentrantLock.hasQueuedThreads()}, which is final. */
    public static boolean hasQueuedThreads(ReentrantLock lock) {
        return lock instanceof PicoReentrantLock ? !((PicoReentrantLock) lock).state().waitingThreads().isEmpty()
                : lock.hasQueuedThreads();
    }

    /** {@code ReentrantLock.hasQueuedThread(Thread)}, which is final. */
    public static boolean hasQueuedThread(ReentrantLock lock, Thread thread) {
        if (thread == null) {
            throw new NullPointerException();
        }
        return lock instanceof PicoReentrantLock ? ((PicoReentrantLock) lock).state().isWaiting(thread)
                : lock.hasQueuedThread(thread);
    }

    /** {@code ReentrantLock.getQueueLength()}, which is final. */
    public static int getQueueLength(ReentrantLock lock) {
        return lock instanceof PicoReentrantLock ? ((PicoReentrantLock) lock).state().waitingThreads().size()
                : lock.getQueueLength();
    }

    /** {@code ReentrantReadWriteLock.hasQueuedThreads()}, which is final. */
    public static boolean hasQueuedThreads(ReentrantReadWriteLock lock) {
        return lock instanceof PicoReentrantReadWriteLock
                ? ((PicoReentrantReadWriteLock) lock).waitingThreadCount() > 0 : lock.hasQueuedThreads();
    }

    /** {@code ReentrantReadWriteLock.hasQueuedThread(Thread)}, which is final. */
    public static boolean hasQueuedThread(ReentrantReadWriteLock lock, Thread thread) {
        if (thread == null) {
            throw new NullPointerException();
        }
        return lock instanceof PicoReentrantReadWriteLock ? ((PicoReentrantReadWriteLock) lock).isWaiting(thread)
                : lock.hasQueuedThread(thread);
    }

    /** {@code ReentrantReadWriteLock.getQueueLength()}, which is final. */
    public static int getQueueLength(ReentrantReadWriteLock lock) {
        return lock instanceof PicoReentrantReadWriteLock
                ? ((PicoReentrantReadWriteLock) lock).waitingThreadCount() : lock.getQueueLength();
    }

    // Condition

    public static void await(Condition condition) throws InterruptedException {
        if (SynchronizerCalls.isRuntimeCondition(condition)) {
            SynchronizerCalls.await(condition, -1, true);
            return;
        }
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, condition, ConcurrentCalls::isDirect);
        try {
            condition.await();
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static void awaitUninterruptibly(Condition condition) {
        if (SynchronizerCalls.isRuntimeCondition(condition)) {
            try {
                SynchronizerCalls.await(condition, -1, false);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
            return;
        }
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, condition, ConcurrentCalls::isDirect);
        try {
            condition.awaitUninterruptibly();
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static long awaitNanos(Condition condition, long nanos) throws InterruptedException {
        if (SynchronizerCalls.isRuntimeCondition(condition)) {
            return SynchronizerCalls.await(condition, Math.max(0, nanos), true);
        }
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, condition, ConcurrentCalls::isDirect);
        try {
            return condition.awaitNanos(nanos);
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
            return 0L;
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static boolean await(Condition condition, long time, TimeUnit unit) throws InterruptedException {
        if (SynchronizerCalls.isRuntimeCondition(condition)) {
            return SynchronizerCalls.await(condition, Math.max(0, unit.toNanos(time)), true) > 0;
        }
        return condition.await(time, unit);
    }

    public static boolean awaitUntil(Condition condition, Date deadline) throws InterruptedException {
        if (SynchronizerCalls.isRuntimeCondition(condition)) {
            return SynchronizerCalls.awaitUntil(condition, deadline);
        }
        return condition.awaitUntil(deadline);
    }

    /** {@code Condition.signal()}, final in the conditions of AbstractQueuedSynchronizer. */
    public static void signal(Condition condition) {
        if (SynchronizerCalls.isRuntimeCondition(condition)) {
            SynchronizerCalls.signal(condition, false);
        } else {
            condition.signal();
        }
    }

    /** {@code Condition.signalAll()}, final in the conditions of AbstractQueuedSynchronizer. */
    public static void signalAll(Condition condition) {
        if (SynchronizerCalls.isRuntimeCondition(condition)) {
            SynchronizerCalls.signal(condition, true);
        } else {
            condition.signalAll();
        }
    }

    // StampedLock

    public static long writeLock(StampedLock lock) {
        if (lock instanceof PicoStampedLock && isSuperCall(lock, "writeLock")) {
            return ((PicoStampedLock) lock).acquireWithin(true);
        }
        return lock.writeLock();
    }

    public static long writeLockInterruptibly(StampedLock lock) throws InterruptedException {
        if (lock instanceof PicoStampedLock && isSuperCall(lock, "writeLockInterruptibly")) {
            return ((PicoStampedLock) lock).acquireInterruptiblyWithin(true, -1);
        }
        return lock.writeLockInterruptibly();
    }

    public static long tryWriteLock(StampedLock lock, long time, TimeUnit unit) throws InterruptedException {
        if (lock instanceof PicoStampedLock && isSuperCall(lock, "tryWriteLock")) {
            return ((PicoStampedLock) lock).acquireInterruptiblyWithin(true, Math.max(0, unit.toNanos(time)));
        }
        return lock.tryWriteLock(time, unit);
    }

    public static long readLock(StampedLock lock) {
        if (lock instanceof PicoStampedLock && isSuperCall(lock, "readLock")) {
            return ((PicoStampedLock) lock).acquireWithin(false);
        }
        return lock.readLock();
    }

    public static long readLockInterruptibly(StampedLock lock) throws InterruptedException {
        if (lock instanceof PicoStampedLock && isSuperCall(lock, "readLockInterruptibly")) {
            return ((PicoStampedLock) lock).acquireInterruptiblyWithin(false, -1);
        }
        return lock.readLockInterruptibly();
    }

    public static long tryReadLock(StampedLock lock, long time, TimeUnit unit) throws InterruptedException {
        if (lock instanceof PicoStampedLock && isSuperCall(lock, "tryReadLock")) {
            return ((PicoStampedLock) lock).acquireInterruptiblyWithin(false, Math.max(0, unit.toNanos(time)));
        }
        return lock.tryReadLock(time, unit);
    }

    // BlockingQueue and BlockingDeque

    public static void put(BlockingQueue<Object> queue, Object element) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, queue, ConcurrentCalls::isDirect);
        try {
            if (queue instanceof BlockingOperations && isSuperCall(queue, "put")) {
                operations(queue).putWithin(element, false, -1);
            } else {
                queue.put(element);
            }
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static boolean offer(BlockingQueue<Object> queue, Object element, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (queue instanceof BlockingOperations && isSuperCall(queue, "offer")) {
            return operations(queue).putWithin(element, false, Math.max(0, unit.toNanos(timeout)));
        }
        return queue.offer(element, timeout, unit);
    }

    public static Object take(BlockingQueue<Object> queue) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, queue, ConcurrentCalls::isDirect);
        try {
            if (queue instanceof BlockingOperations && isSuperCall(queue, "take")) {
                return operations(queue).takeWithin(false, -1);
            }
            return queue.take();
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
            return null;
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static Object poll(BlockingQueue<Object> queue, long timeout, TimeUnit unit) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, queue, ConcurrentCalls::isDirect);
        try {
            if (queue instanceof BlockingOperations && isSuperCall(queue, "poll")) {
                return operations(queue).takeWithin(false, Math.max(0, unit.toNanos(timeout)));
            }
            return queue.poll(timeout, unit);
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
            return null;
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    /** {@code DelayQueue.take()}, whose erased descriptor returns Delayed rather than Object. */
    public static Delayed take(DelayQueue<Delayed> queue) throws InterruptedException {
        return (Delayed) take((BlockingQueue<Object>) (BlockingQueue<?>) queue);
    }

    /** {@code DelayQueue.poll(long, TimeUnit)}, whose erased descriptor returns Delayed rather than Object. */
    public static Delayed poll(DelayQueue<Delayed> queue, long timeout, TimeUnit unit) throws InterruptedException {
        return (Delayed) poll((BlockingQueue<Object>) (BlockingQueue<?>) queue, timeout, unit);
    }

    public static void putFirst(BlockingDeque<Object> deque, Object element) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, deque, ConcurrentCalls::isDirect);
        try {
            if (deque instanceof BlockingOperations && isSuperCall(deque, "putFirst")) {
                operations(deque).putWithin(element, true, -1);
            } else {
                deque.putFirst(element);
            }
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static void putLast(BlockingDeque<Object> deque, Object element) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, deque, ConcurrentCalls::isDirect);
        try {
            if (deque instanceof BlockingOperations && isSuperCall(deque, "putLast")) {
                operations(deque).putWithin(element, false, -1);
            } else {
                deque.putLast(element);
            }
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static boolean offerFirst(BlockingDeque<Object> deque, Object element, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (deque instanceof BlockingOperations && isSuperCall(deque, "offerFirst")) {
            return operations(deque).putWithin(element, true, Math.max(0, unit.toNanos(timeout)));
        }
        return deque.offerFirst(element, timeout, unit);
    }

    public static boolean offerLast(BlockingDeque<Object> deque, Object element, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (deque instanceof BlockingOperations && isSuperCall(deque, "offerLast")) {
            return operations(deque).putWithin(element, false, Math.max(0, unit.toNanos(timeout)));
        }
        return deque.offerLast(element, timeout, unit);
    }

    public static Object takeFirst(BlockingDeque<Object> deque) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, deque, ConcurrentCalls::isDirect);
        try {
            if (deque instanceof BlockingOperations && isSuperCall(deque, "takeFirst")) {
                return operations(deque).takeWithin(false, -1);
            }
            return deque.takeFirst();
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
            return null;
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static Object takeLast(BlockingDeque<Object> deque) throws InterruptedException {
        int caller = CallerToken.claimCaller();
        Task trusted = CallerToken.trustIfDirect(caller, deque, ConcurrentCalls::isDirect);
        try {
            if (deque instanceof BlockingOperations && isSuperCall(deque, "takeLast")) {
                return operations(deque).takeWithin(true, -1);
            }
            return deque.takeLast();
        } catch (Capture signal) {
            CallerToken.endCaptureByReturn(caller, signal);
            return null;
        } finally {
            CallerToken.endTrust(trusted);
        }
    }

    public static Object pollFirst(BlockingDeque<Object> deque, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (deque instanceof BlockingOperations && isSuperCall(deque, "pollFirst")) {
            return operations(deque).takeWithin(false, Math.max(0, unit.toNanos(timeout)));
        }
        return deque.pollFirst(timeout, unit);
    }

    public static Object pollLast(BlockingDeque<Object> deque, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (deque instanceof BlockingOperations && isSuperCall(deque, "pollLast")) {
            return operations(deque).takeWithin(true, Math.max(0, unit.toNanos(timeout)));
        }
        return deque.pollLast(timeout, unit);
    }

    // TransferQueue

    public static void transfer(TransferQueue<Object> queue, Object element) throws InterruptedException {
        if (queue instanceof PicoLinkedTransferQueue && isSuperCall(queue, "transfer")) {
            ((PicoLinkedTransferQueue<Object>) queue).transferWithin(element, -1);
        } else {
            queue.transfer(element);
        }
    }

    public static boolean tryTransfer(TransferQueue<Object> queue, Object element, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (queue instanceof PicoLinkedTransferQueue && isSuperCall(queue, "tryTransfer")) {
            return ((PicoLinkedTransferQueue<Object>) queue).transferWithin(element,
                    Math.max(0, unit.toNanos(timeout)));
        }
        return queue.tryTransfer(element, timeout, unit);
    }

    // Future and CompletableFuture

    public static Object get(Future<Object> future) throws InterruptedException, ExecutionException {
        if (!(future instanceof PicoFutureTask) && Parking.onPicoThread()) {
            awaitForeign(future, future::isDone, -1, true);
        }
        return future.get();
    }

    public static Object get(Future<Object> future, long timeout, TimeUnit unit) throws InterruptedException,
            ExecutionException, TimeoutException {
        if (!(future instanceof PicoFutureTask) && Parking.onPicoThread()) {
            if (!awaitForeign(future, future::isDone, Math.max(0, unit.toNanos(timeout)), true)) {
                throw new TimeoutException();
            }
        }
        return future.get(timeout, unit);
    }

    public static Object join(CompletableFuture<Object> future) {
        if (Parking.onPicoThread()) {
            try {
                awaitForeign(future, future::isDone, -1, false);
            } catch (InterruptedException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        return future.join();
    }

    /**
     * Waits, as a PicoThread, until {@code done} holds for an object the JDK made: suspends, woken by a completion
     * callback for a CompletableFuture and otherwise every few milliseconds to check again. Returns false when
     * {@code nanos} (if not negative) passed first.
     */
    private static boolean awaitForeign(Object awaited, BooleanSupplier done, long nanos, boolean interruptible)
            throws InterruptedException {
        Waiter waiter = Waiter.enter(awaited, nanos);
        if (waiter.isFresh()) {
            waiter.count = FIRST_POLL_NANOS;
            if (awaited instanceof CompletableFuture) {
                ((CompletableFuture<?>) awaited).whenComplete((result, failure) -> waiter.wake());
            }
        }
        while (true) {
            if (waiter.takeInterrupt()) {
                if (interruptible) {
                    waiter.finish();
                    throw new InterruptedException();
                }
                waiter.deferInterrupt();
            }
            if (done.getAsBoolean()) {
                waiter.finish();
                return true;
            }
            if (waiter.timedOut()) {
                waiter.finish();
                return false;
            }
            if (awaited instanceof CompletableFuture) {
                waiter.park(awaited);
            } else {
                long pause = waiter.count;
                waiter.count = Math.min(pause * 2, LONGEST_POLL_NANOS);
                waiter.parkAtMost(awaited, pause);
            }
        }
    }

    // ExecutorService

    public static boolean awaitTermination(ExecutorService executor, long timeout, TimeUnit unit)
            throws InterruptedException {
        if (executor instanceof PicoExecutorService) {
            return ((PicoExecutorService) executor).awaitTerminated(Math.max(0, unit.toNanos(timeout)));
        }
        if (Parking.onPicoThread()) {
            return awaitForeign(executor, executor::isTerminated, Math.max(0, unit.toNanos(timeout)), true);
        }
        return executor.awaitTermination(timeout, unit);
    }

    /** {@code ExecutorService.close()} of JDK 19 and later. */
    public static void close(ExecutorService executor) {
        if (executor instanceof PicoExecutorService) {
            ((PicoExecutorService) executor).closeAndWait();
            return;
        }
        if (EXECUTOR_CLOSE == null) {
            throw new UnsupportedOperationException("ExecutorService.close() needs JDK 19 or later");
        }
        try {
            EXECUTOR_CLOSE.invoke(executor);
        } catch (RuntimeException | Error failure) {
            throw failure;
        } catch (Throwable impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    public static List<Future<Object>> invokeAll(ExecutorService executor, Collection<Callable<Object>> tasks)
            throws InterruptedException {
        if (executor instanceof PicoExecutorService) {
            return ((PicoExecutorService) executor).invokeAllWithin(tasks, -1);
        }
        return executor.invokeAll(tasks);
    }

    public static List<Future<Object>> invokeAll(ExecutorService executor, Collection<Callable<Object>> tasks,
            long timeout, TimeUnit unit) throws InterruptedException {
        if (executor instanceof PicoExecutorService) {
            return ((PicoExecutorService) executor).invokeAllWithin(tasks, Math.max(0, unit.toNanos(timeout)));
        }
        return executor.invokeAll(tasks, timeout, unit);
    }

    public static Object invokeAny(ExecutorService executor, Collection<Callable<Object>> tasks)
            throws InterruptedException, ExecutionException {
        return executor.invokeAny(tasks);
    }

    public static Object invokeAny(ExecutorService executor, Collection<Callable<Object>> tasks, long timeout,
            TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (executor instanceof PicoExecutorService) {
            return ((PicoExecutorService) executor).invokeAnyWithin(tasks, Math.max(0, unit.toNanos(timeout)));
        }
        return executor.invokeAny(tasks, timeout, unit);
    }

    // Executors

    public static ExecutorService newFixedThreadPool(int threads) {
        return PicoExecutorService.fixed(threads, null);
    }

    public static ExecutorService newFixedThreadPool(int threads, ThreadFactory factory) {
        if (factory == null) {
            throw new NullPointerException();
        }
        return PicoExecutorService.fixed(threads, factory);
    }

    public static ExecutorService newCachedThreadPool() {
        return PicoExecutorService.cached(null);
    }

    public static ExecutorService newCachedThreadPool(ThreadFactory factory) {
        if (factory == null) {
            throw new NullPointerException();
        }
        return PicoExecutorService.cached(factory);
    }

    public static ExecutorService newSingleThreadExecutor() {
        return PicoExecutorService.fixed(1, null);
    }

    public static ExecutorService newSingleThreadExecutor(ThreadFactory factory) {
        if (factory == null) {
            throw new NullPointerException();
        }
        return PicoExecutorService.fixed(1, factory);
    }

    public static ScheduledExecutorService newScheduledThreadPool(int coreSize) {
        return PicoScheduledExecutorService.withCoreSize(coreSize, null);
    }

    public static ScheduledExecutorService newScheduledThreadPool(int coreSize, ThreadFactory factory) {
        if (factory == null) {
            throw new NullPointerException();
        }
        return PicoScheduledExecutorService.withCoreSize(coreSize, factory);
    }

    public static ScheduledExecutorService newSingleThreadScheduledExecutor() {
        return PicoScheduledExecutorService.withCoreSize(1, null);
    }

    public static ScheduledExecutorService newSingleThreadScheduledExecutor(ThreadFactory factory) {
        if (factory == null) {
            throw new NullPointerException();
        }
        return PicoScheduledExecutorService.withCoreSize(1, factory);
    }

    /** {@code Executors.newThreadPerTaskExecutor(ThreadFactory)} of JDK 21. */
    public static ExecutorService newThreadPerTaskExecutor(ThreadFactory factory) {
        return PicoExecutorService.threadPerTask(factory);
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()} of JDK 21: a PicoThread per task, unnamed and daemon. */
    public static ExecutorService newVirtualThreadPerTaskExecutor() {
        return PicoExecutorService.threadPerTask(runnable -> {
            PicoThread thread = new PicoThread(null, runnable, "", 0, true);
            thread.setDaemon(true);
            return thread;
        });
    }

    // Thread builders of JDK 21

    /** {@code Thread.Builder.start(Runnable)} of JDK 21 (the receiver is the JDK's builder): starts a PicoThread. */
    public static Thread startThread(Object builder, Runnable task) {
        return ThreadBuilderCalls.start(builder, task);
    }

    /** {@code Thread.Builder.unstarted(Runnable)} of JDK 21: an unstarted PicoThread. */
    public static Thread unstartedThread(Object builder, Runnable task) {
        return ThreadBuilderCalls.unstarted(builder, task);
    }

    /** {@code Thread.Builder.factory()} of JDK 21: a ThreadFactory of PicoThreads. */
    public static ThreadFactory threadFactory(Object builder) {
        return ThreadBuilderCalls.factory(builder);
    }

    /** {@code Thread.startVirtualThread(Runnable)}: starts an unnamed daemon PicoThread. */
    public static Thread startVirtualThread(Runnable task) {
        if (task == null) {
            throw new NullPointerException();
        }
        PicoThread thread = new PicoThread(null, task, "", 0, true);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    // LockSupport

    public static void park() {
        Parking.park(null, false, 0);
    }

    public static void park(Object blocker) {
        Parking.park(blocker, false, 0);
    }

    public static void parkNanos(long nanos) {
        Parking.park(null, true, nanos);
    }

    public static void parkNanos(Object blocker, long nanos) {
        Parking.park(blocker, true, nanos);
    }

    public static void parkUntil(long deadline) {
        Parking.park(null, true, TimeUnit.MILLISECONDS.toNanos(deadline - System.currentTimeMillis()));
    }

    public static void parkUntil(Object blocker, long deadline) {
        Parking.park(blocker, true, TimeUnit.MILLISECONDS.toNanos(deadline - System.currentTimeMillis()));
    }

    public static void unpark(Thread thread) {
        Parking.unpark(thread);
    }

    /** {@code LockSupport.getBlocker(Thread)}: for a PicoThread, what it parked on, while it is parked. */
    public static Object getBlocker(Thread thread) {
        return Parking.blocker(thread);
    }

    // TimeUnit

    /**
     * {@code TimeUnit.sleep(long)}: nothing for a timeout of 0 or less, else Thread.sleep for that long. Invoked
     * again by a resumed activation, it reads neither argument (the transformer passes null and 0 and saves none): the
     * sleep it made completes the wait the task kept.
     */
    public static void sleep(TimeUnit unit, long timeout) throws InterruptedException {
        if (Continuation.reinvoking()) {
            ThreadCalls.sleep(0L);
            return;
        }
        if (timeout <= 0) {
            return;
        }
        long nanos = unit.toNanos(timeout);
        ThreadCalls.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    }

    /** {@code TimeUnit.timedJoin(Thread, long)}: Thread.join for that long, nothing for 0 or less. */
    public static void timedJoin(TimeUnit unit, Thread thread, long timeout) throws InterruptedException {
        if (timeout <= 0) {
            return;
        }
        long nanos = unit.toNanos(timeout);
        ThreadCalls.join(thread, nanos / 1_000_000, (int) (nanos % 1_000_000));
    }

    /** {@code TimeUnit.timedWait(Object, long)}: the runtime's Object.wait for that long, nothing for 0 or less. */
    public static void timedWait(TimeUnit unit, Object object, long timeout) throws InterruptedException {
        if (timeout <= 0) {
            return;
        }
        long nanos = unit.toNanos(timeout);
        Monitors.waitOn(object, nanos / 1_000_000, (int) (nanos % 1_000_000));
    }

    /**
     * True for the runtime's own classes whose blocking methods run nothing but the runtime's code up to the
     * scheduler, so that a capture in them called by a restored activation skips the frame check
     * ({@link CallerToken#trustIfDirect(int, Object, java.util.function.Predicate)}). The priority and delay queues
     * (which call the elements' compareTo and getDelay) and the barrier (which runs the barrier action) are not among
     * them, nor any subclass of the program's. Every entry that claims the token also ends a capture by returning when
     * its caller tests for one ({@link CallerToken#endCaptureByReturn}), whatever ran in between.
     */
    private static boolean isDirect(Object receiver) {
        Class<?> type = receiver.getClass();
        return type == PicoLinkedBlockingQueue.class || type == PicoArrayBlockingQueue.class
                || type == PicoSynchronousQueue.class || type == PicoLinkedBlockingDeque.class
                || type == PicoReentrantLock.class || type == PicoCondition.class
                || type == PicoCountDownLatch.class || type == PicoSemaphore.class;
    }

    /**
     * True when this redirected call was made by an override of {@code method} in a user subclass of a runtime type
     * calling its super method: then the runtime's implementation must run directly, since the virtual call would
     * reach the override again. An object of a runtime class itself answers false without looking at the stack.
     */
    private static boolean isSuperCall(Object receiver, String method) {
        Class<?> type = receiver.getClass();
        if (type.getName().startsWith(RUNTIME_PACKAGE)) {
            return false;
        }
        return WALKER.walk(frames -> frames
                .filter(frame -> frame.getDeclaringClass() != ConcurrentCalls.class)
                .findFirst()
                .map(frame -> frame.getMethodName().equals(method)
                        && frame.getDeclaringClass().isAssignableFrom(type)
                        && !frame.getDeclaringClass().getName().startsWith(RUNTIME_PACKAGE))
                .orElse(false));
    }

    @SuppressWarnings("unchecked")
    private static BlockingOperations<Object> operations(Object queue) {
        return (BlockingOperations<Object>) queue;
    }

    private static MethodHandle executorClose() {
        try {
            return MethodHandles.publicLookup().findVirtual(ExecutorService.class, "close",
                    MethodType.methodType(void.class));
        } catch (NoSuchMethodException | IllegalAccessException absent) {
            return null;
        }
    }

}
