package org.picothreads.targets.carriers;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Five times, sixteen threads each await one {@code CyclicBarrier} of four parties once, and the barrier action sleeps
 * two milliseconds, so threads keep arriving while it runs (as in the JSR-166 TCK's
 * {@code CyclicBarrierTest.testMoreTasksThanParties}). A thread that arrives during the action belongs to the next
 * generation: the barrier trips exactly twenty times, every await returns, and each generation's arrival indices
 * are 3, 2, 1 and 0. (Each thread awaits once: threads that awaited several times each could all be waiting in one
 * generation with arrivals left only among themselves, on platform threads too.)
 */
public final class BarrierActionArrivals {
    private static final int PARTIES = 4;
    private static final int THREADS = 16;
    private static final int ROUNDS = 5;
    /** How long an await waits before the program gives up on it. */
    private static final long WAIT_LIMIT_SECONDS = 5;

    private BarrierActionArrivals() {
    }

    public static String run() throws Exception {
        AtomicInteger trips = new AtomicInteger();
        CyclicBarrier barrier = new CyclicBarrier(PARTIES, () -> {
            trips.incrementAndGet();
            Pause.sleep(2);
        });
        AtomicInteger returned = new AtomicInteger();
        AtomicLong indexSum = new AtomicLong();
        AtomicInteger timedOut = new AtomicInteger();
        AtomicInteger broken = new AtomicInteger();
        for (int round = 0; round < ROUNDS; round++) {
            Thread[] threads = new Thread[THREADS];
            for (int index = 0; index < THREADS; index++) {
                threads[index] = new Thread(() -> {
                    try {
                        indexSum.addAndGet(barrier.await(WAIT_LIMIT_SECONDS, TimeUnit.SECONDS));
                        returned.incrementAndGet();
                    } catch (TimeoutException exception) {
                        timedOut.incrementAndGet();
                    } catch (BrokenBarrierException exception) {
                        broken.incrementAndGet();
                    } catch (InterruptedException exception) {
                        throw new IllegalStateException("interrupted", exception);
                    }
                });
            }
            Pause.startAndJoin(threads);
        }
        return "trips " + trips.get() + ", awaits that returned " + returned.get() + ", sum of arrival indices "
                + indexSum.get() + ", awaits that timed out " + timedOut.get() + ", awaits that found the barrier broken "
                + broken.get();
    }
}
