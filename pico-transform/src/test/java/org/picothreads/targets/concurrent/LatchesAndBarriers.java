package org.picothreads.targets.concurrent;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * CountDownLatch and CyclicBarrier: threads await a latch the calling (platform) thread counts down and the caller
 * awaits a latch the threads count down; a timed await times out; an interrupted await throws; threads meet at a
 * barrier for three rounds with a barrier action; a barrier breaks when one party times out.
 */
public final class LatchesAndBarriers {
    private LatchesAndBarriers() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(3);
        int[] seen = new int[3];
        Thread[] threads = new Thread[3];
        for (int index = 0; index < threads.length; index++) {
            int slot = index;
            threads[index] = new Thread(() -> {
                try {
                    start.await();
                    seen[slot] = slot + 1;
                    Thread.sleep(2 + slot);
                    done.countDown();
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
            });
            threads[index].start();
        }
        Thread.sleep(20);
        boolean nobodyStarted = seen[0] + seen[1] + seen[2] == 0;
        start.countDown();
        done.await();
        log.append("latch: nobody before the count-down ").append(nobodyStarted).append(", seen ")
                .append(seen[0]).append(seen[1]).append(seen[2]).append(", count ").append(done.getCount());

        CountDownLatch never = new CountDownLatch(1);
        StringBuilder timed = new StringBuilder();
        Thread timedWaiter = new Thread(() -> {
            try {
                timed.append(never.await(15, TimeUnit.MILLISECONDS)).append(' ')
                        .append(never.await(0, TimeUnit.MILLISECONDS)).append(' ')
                        .append(done.await(1, TimeUnit.MINUTES));
            } catch (InterruptedException exception) {
                timed.append("interrupted");
            }
        });
        timedWaiter.start();
        timedWaiter.join();
        log.append("\ntimed awaits: ").append(timed);

        StringBuilder interrupted = new StringBuilder();
        Thread interruptedWaiter = new Thread(() -> {
            try {
                never.await();
                interrupted.append("woke");
            } catch (InterruptedException exception) {
                interrupted.append("interrupted, flag ").append(Thread.currentThread().isInterrupted());
            }
        });
        interruptedWaiter.start();
        Thread.sleep(15);
        interruptedWaiter.interrupt();
        interruptedWaiter.join();
        log.append("\ninterrupted await: ").append(interrupted);

        AtomicInteger trips = new AtomicInteger();
        CyclicBarrier barrier = new CyclicBarrier(3, trips::incrementAndGet);
        AtomicInteger arrivals = new AtomicInteger();
        int[] roundsSeen = new int[3];
        Thread[] parties = new Thread[3];
        for (int index = 0; index < parties.length; index++) {
            int slot = index;
            parties[index] = new Thread(() -> {
                try {
                    for (int round = 0; round < 3; round++) {
                        Thread.sleep(1 + slot);
                        arrivals.incrementAndGet();
                        barrier.await();
                        roundsSeen[slot] += trips.get();
                    }
                } catch (InterruptedException | BrokenBarrierException exception) {
                    throw new IllegalStateException(exception);
                }
            });
            parties[index].start();
        }
        for (Thread party : parties) {
            party.join();
        }
        log.append("\nbarrier: trips ").append(trips.get()).append(", arrivals ").append(arrivals.get())
                .append(", trips seen ").append(roundsSeen[0]).append(roundsSeen[1]).append(roundsSeen[2])
                .append(", waiting ").append(barrier.getNumberWaiting()).append(", broken ").append(barrier.isBroken());

        CyclicBarrier pair = new CyclicBarrier(2);
        StringBuilder broken = new StringBuilder();
        Thread impatient = new Thread(() -> {
            try {
                pair.await(10, TimeUnit.MILLISECONDS);
                broken.append("impatient passed");
            } catch (TimeoutException exception) {
                broken.append("impatient timed out");
            } catch (InterruptedException | BrokenBarrierException exception) {
                broken.append("impatient ").append(exception.getClass().getSimpleName());
            }
        });
        impatient.start();
        impatient.join();
        Thread late = new Thread(() -> {
            try {
                pair.await();
                broken.append(", late passed");
            } catch (InterruptedException | BrokenBarrierException exception) {
                broken.append(", late ").append(exception.getClass().getSimpleName());
            }
        });
        late.start();
        late.join();
        broken.append(", broken ").append(pair.isBroken());
        pair.reset();
        broken.append(", after reset ").append(pair.isBroken());
        log.append("\nbroken barrier: ").append(broken);
        return log.toString();
    }
}
