package org.picothreads.targets.carriers;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Threads that spin without {@code Thread.onSpinWait()} or any other blocking call until another thread has done
 * something: a spinner reading a volatile flag that a worker sets after some work, and the shape of the JSR-166 TCK's
 * {@code ReentrantLockTest.testBug8187408}, where one thread spins until the other has taken a lock and is about to
 * wait on its condition, then signals it. A spin never lets another thread run on its own carrier, so this progresses
 * only with a second carrier (or on platform threads). Every spin gives up after {@link #LIMIT_NANOS} so that the
 * program ends either way, and says so.
 */
public final class BusySpinOnVolatileFlag {
    /** How long a spinner spins before it gives up. */
    private static final long LIMIT_NANOS = 10_000_000_000L;

    private static volatile boolean published;
    /** What the worker computed, published by the flag. */
    private static long result;

    private BusySpinOnVolatileFlag() {
    }

    public static String run() throws Exception {
        return spinOnFlag() + "; " + spinUntilWaiting();
    }

    private static String spinOnFlag() throws InterruptedException {
        published = false;
        result = 0;
        String[] seen = new String[1];
        Thread spinner = new Thread(() -> {
            long start = System.nanoTime();
            while (!published) {
                if (System.nanoTime() - start > LIMIT_NANOS) {
                    seen[0] = "the spinner gave up";
                    return;
                }
            }
            seen[0] = "the spinner saw " + result;
        });
        Thread worker = new Thread(() -> {
            Pause.sleep(5);
            result = SpinWaitUntilFlag.sumOfSquares(10_000);
            published = true;
        });
        Pause.startAndJoin(spinner, worker);
        return seen[0];
    }

    private static String spinUntilWaiting() throws InterruptedException {
        ReentrantLock lock = new ReentrantLock();
        Condition condition = lock.newCondition();
        AtomicBoolean ready = new AtomicBoolean();
        String[] outcomes = new String[2];
        Thread waiter = new Thread(() -> {
            lock.lock();
            try {
                ready.set(true);
                outcomes[0] = condition.await(LIMIT_NANOS, TimeUnit.NANOSECONDS)
                        ? "the waiter was signalled"
                        : "the waiter timed out";
            } catch (InterruptedException exception) {
                outcomes[0] = "the waiter was interrupted";
            } finally {
                lock.unlock();
            }
        });
        Thread signaller = new Thread(() -> {
            long start = System.nanoTime();
            while (!ready.get()) {
                if (System.nanoTime() - start > LIMIT_NANOS) {
                    outcomes[1] = "the signaller gave up spinning";
                    return;
                }
            }
            lock.lock();
            try {
                condition.signal();
                outcomes[1] = "the signaller signalled";
            } finally {
                lock.unlock();
            }
        });
        Pause.startAndJoin(signaller, waiter);
        return outcomes[0] + ", " + outcomes[1];
    }
}
