package org.picothreads.targets.concurrent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * LockSupport and TimeUnit.sleep: a thread parks until another thread unparks it, a permit given before the park
 * makes it return at once, the calling platform thread unparks a parked thread and is unparked by one, parkNanos
 * returns after its time, an interrupt ends a park, and TimeUnit.sleep sleeps and can be interrupted.
 */
public final class ParkingAndSleeping {
    /** Set before the unpark that ends each wait below. */
    private static volatile boolean released;

    private ParkingAndSleeping() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        released = false;
        StringBuilder parked = new StringBuilder();
        Thread parker = new Thread(() -> {
            int parks = 0;
            while (!released) {
                LockSupport.park(ParkingAndSleeping.class);
                parks++;
            }
            parked.append("released after at least one park ").append(parks >= 1);
        });
        Thread unparker = new Thread(() -> {
            sleep(10);
            released = true;
            LockSupport.unpark(parker);
        });
        parker.start();
        unparker.start();
        parker.join();
        unparker.join();
        log.append("park and unpark: ").append(parked);

        StringBuilder permit = new StringBuilder();
        Thread early = new Thread(() -> {
            LockSupport.unpark(Thread.currentThread());
            long start = System.nanoTime();
            LockSupport.park();
            permit.append("permit consumed at once ")
                    .append(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30));
        });
        early.start();
        early.join();
        log.append("\n").append(permit);

        released = false;
        Thread platformReleased = new Thread(() -> {
            while (!released) {
                LockSupport.park();
            }
        });
        platformReleased.start();
        Thread.sleep(10);
        released = true;
        LockSupport.unpark(platformReleased);
        platformReleased.join();
        log.append("\nunparked by the platform thread: alive ").append(platformReleased.isAlive());

        released = false;
        Thread caller = Thread.currentThread();
        Thread releaser = new Thread(() -> {
            sleep(10);
            released = true;
            LockSupport.unpark(caller);
        });
        releaser.start();
        while (!released) {
            LockSupport.park();
        }
        releaser.join();
        log.append("\nthe platform thread unparked by a thread: ").append(released);

        StringBuilder timed = new StringBuilder();
        Thread nanos = new Thread(() -> {
            long start = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            timed.append("parkNanos waited ").append(System.nanoTime() - start >= 0);
            Thread.currentThread().interrupt();
            LockSupport.park();
            timed.append(", park with interrupt status returns, flag ").append(Thread.interrupted());
        });
        nanos.start();
        nanos.join();
        log.append("\n").append(timed);

        StringBuilder interrupted = new StringBuilder();
        Thread interruptedParker = new Thread(() -> {
            LockSupport.park();
            interrupted.append("interrupt ends park, flag ").append(Thread.currentThread().isInterrupted());
        });
        interruptedParker.start();
        Thread.sleep(10);
        interruptedParker.interrupt();
        interruptedParker.join();
        log.append("\n").append(interrupted);

        StringBuilder slept = new StringBuilder();
        CountDownLatch shortSleepsDone = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            try {
                long start = System.nanoTime();
                TimeUnit.MILLISECONDS.sleep(10);
                TimeUnit.MICROSECONDS.sleep(1500);
                TimeUnit.SECONDS.sleep(0);
                slept.append("slept at least 11 ms ")
                        .append(System.nanoTime() - start >= TimeUnit.MICROSECONDS.toNanos(11_500));
                shortSleepsDone.countDown();
                TimeUnit.MINUTES.sleep(1);
                slept.append(", slept a minute");
            } catch (InterruptedException exception) {
                slept.append(", interrupted: ").append(exception.getMessage());
            }
        });
        sleeper.start();
        // Interrupt the minute-long sleep, not the short ones: on a loaded machine a fixed delay could do either.
        shortSleepsDone.await();
        Thread.sleep(5);
        sleeper.interrupt();
        sleeper.join();
        log.append("\n").append(slept);
        return log.toString();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }
}
