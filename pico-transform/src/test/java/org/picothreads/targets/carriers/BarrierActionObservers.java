package org.picothreads.targets.carriers;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What other threads see of a {@code CyclicBarrier} of two parties while its last arrival runs the barrier action,
 * which the JDK runs holding the lock that every other method of the barrier takes: a waiting thread whose timeout
 * passes during the action, or which the action interrupts, still returns its arrival index once the trip is over
 * (with its interrupt status set again); threads that call {@code getNumberWaiting}, {@code isBroken} and
 * {@code reset} during the action see the barrier as it is after the trip, and the reset breaks nobody's wait; the
 * action's own thread calls them without waiting.
 */
public final class BarrierActionObservers {
    /** How long the action runs: long beside the time the program's threads take to get where they are going. */
    private static final long ACTION_MILLIS = 1_000;
    /** The first arrival's timeout in the first case: it passes during the action. */
    private static final long TIMEOUT_MILLIS = 300;

    private BarrierActionObservers() {
    }

    public static String run() throws Exception {
        return "timeout during the action: " + timeoutDuringTheAction() + "; interrupt during the action: "
                + interruptDuringTheAction() + "; calls during the action: " + callsDuringTheAction();
    }

    private static String timeoutDuringTheAction() throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(2, () -> Pause.sleep(ACTION_MILLIS));
        AtomicReference<String> first = new AtomicReference<>();
        Thread waiting = new Thread(() -> first.set(await(barrier, TIMEOUT_MILLIS)));
        waiting.start();
        String last = arriveSecond(barrier, waiting);
        waiting.join();
        return "first " + first.get() + ", last " + last + ", broken " + barrier.isBroken();
    }

    private static String interruptDuringTheAction() throws Exception {
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        CyclicBarrier barrier = new CyclicBarrier(2, () -> {
            firstThread.get().interrupt();
            Pause.sleep(ACTION_MILLIS);
        });
        AtomicReference<String> first = new AtomicReference<>();
        Thread waiting = new Thread(() -> {
            String result = await(barrier, -1);
            first.set(result + " with its interrupt status " + Thread.currentThread().isInterrupted());
        });
        firstThread.set(waiting);
        waiting.start();
        String last = arriveSecond(barrier, waiting);
        waiting.join();
        return "first " + first.get() + ", last " + last + ", broken " + barrier.isBroken();
    }

    private static String callsDuringTheAction() throws Exception {
        AtomicReference<CyclicBarrier> barrierReference = new AtomicReference<>();
        AtomicReference<String> seenInTheAction = new AtomicReference<>();
        AtomicReference<String> waitingSeen = new AtomicReference<>();
        AtomicReference<String> brokenSeen = new AtomicReference<>();
        Thread[] observers = {
            new Thread(() -> waitingSeen.set(String.valueOf(barrierReference.get().getNumberWaiting()))),
            new Thread(() -> brokenSeen.set(String.valueOf(barrierReference.get().isBroken()))),
            new Thread(() -> barrierReference.get().reset()),
        };
        CyclicBarrier barrier = new CyclicBarrier(2, () -> {
            CyclicBarrier self = barrierReference.get();
            seenInTheAction.set("waiting " + self.getNumberWaiting() + ", broken " + self.isBroken());
            for (Thread observer : observers) {
                observer.start();
            }
            Pause.sleep(ACTION_MILLIS);
        });
        barrierReference.set(barrier);
        AtomicReference<String> first = new AtomicReference<>();
        Thread waiting = new Thread(() -> first.set(await(barrier, -1)));
        waiting.start();
        String last = arriveSecond(barrier, waiting);
        waiting.join();
        for (Thread observer : observers) {
            observer.join();
        }
        return "in the action " + seenInTheAction.get() + "; other threads saw waiting " + waitingSeen.get()
                + ", broken " + brokenSeen.get() + "; first " + first.get() + ", last " + last + ", broken after the"
                + " reset " + barrier.isBroken();
    }

    /** Waits until {@code first} waits at the barrier, then arrives as its last party. */
    private static String arriveSecond(CyclicBarrier barrier, Thread first) {
        while (barrier.getNumberWaiting() == 0 || first.getState() == Thread.State.RUNNABLE) {
            Pause.sleep(1);
        }
        return await(barrier, -1);
    }

    /** Awaits the barrier (for at most {@code timeoutMillis}, when it is not negative) and says how that ended. */
    private static String await(CyclicBarrier barrier, long timeoutMillis) {
        try {
            int index = timeoutMillis < 0 ? barrier.await() : barrier.await(timeoutMillis, TimeUnit.MILLISECONDS);
            return "returned " + index;
        } catch (TimeoutException exception) {
            return "timed out";
        } catch (BrokenBarrierException exception) {
            return "found the barrier broken";
        } catch (InterruptedException exception) {
            return "was interrupted";
        }
    }
}
