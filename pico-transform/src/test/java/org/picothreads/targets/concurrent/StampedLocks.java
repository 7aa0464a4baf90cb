package org.picothreads.targets.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.StampedLock;

/**
 * StampedLock: writers that sleep while holding the write lock keep readers (stamped and optimistic) from seeing a
 * half-done update; a reader waits for the calling (platform) thread's write lock; a timed write lock times out
 * under a read lock and an interruptible one throws, while an uninterruptible one keeps waiting and keeps the
 * status; the Lock views wait for each other; a read lock converts to a write lock.
 */
public final class StampedLocks {
    private StampedLocks() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        StampedLock lock = new StampedLock();
        int[] pair = new int[2];
        AtomicInteger torn = new AtomicInteger();
        AtomicInteger optimisticRetries = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            threads.add(new Thread(() -> {
                for (int round = 0; round < 5; round++) {
                    long stamp = lock.writeLock();
                    try {
                        pair[0]++;
                        sleep(1);
                        pair[1]++;
                    } finally {
                        lock.unlockWrite(stamp);
                    }
                }
            }));
        }
        for (int index = 0; index < 3; index++) {
            threads.add(new Thread(() -> {
                for (int round = 0; round < 5; round++) {
                    long stamp = lock.readLock();
                    try {
                        if (pair[0] != pair[1]) {
                            torn.incrementAndGet();
                        }
                        sleep(1);
                    } finally {
                        lock.unlockRead(stamp);
                    }
                    long optimistic = lock.tryOptimisticRead();
                    int first = pair[0];
                    int second = pair[1];
                    if (!lock.validate(optimistic)) {
                        optimisticRetries.incrementAndGet();
                        long read = lock.readLock();
                        first = pair[0];
                        second = pair[1];
                        lock.unlockRead(read);
                    }
                    if (first != second) {
                        torn.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        log.append("writers and readers: pair ").append(pair[0]).append(' ').append(pair[1]).append(", torn reads ")
                .append(torn.get()).append(", locked ").append(lock.isWriteLocked() || lock.isReadLocked());

        long written = lock.writeLock();
        StringBuilder reader = new StringBuilder();
        Thread waitingReader = new Thread(() -> {
            long stamp = lock.readLock();
            reader.append("read ").append(pair[0]).append(" with ").append(lock.getReadLockCount()).append(" reader");
            lock.unlockRead(stamp);
        });
        waitingReader.start();
        Thread.sleep(10);
        boolean waited = waitingReader.isAlive();
        pair[0] = 100;
        lock.unlockWrite(written);
        waitingReader.join();
        log.append("\nreader behind the caller's write lock: waited ").append(waited).append(", ").append(reader);

        long readStamp = lock.readLock();
        StringBuilder writers = new StringBuilder();
        AtomicInteger stage = new AtomicInteger();
        Thread impatient = new Thread(() -> {
            try {
                writers.append("timed ").append(lock.tryWriteLock(10, TimeUnit.MILLISECONDS));
                stage.set(1);
                lock.writeLockInterruptibly();
                writers.append(", acquired");
            } catch (InterruptedException exception) {
                writers.append(", interrupted, flag ").append(Thread.currentThread().isInterrupted());
            }
        });
        impatient.start();
        while (stage.get() < 1) {
            Thread.sleep(1);
        }
        Thread.sleep(5);
        impatient.interrupt();
        impatient.join();
        Thread stubborn = new Thread(() -> {
            long stamp = lock.writeLock();
            writers.append(", stubborn writer got it, flag ").append(Thread.currentThread().isInterrupted());
            lock.unlockWrite(stamp);
        });
        stubborn.start();
        Thread.sleep(10);
        stubborn.interrupt();
        Thread.sleep(5);
        lock.unlockRead(readStamp);
        stubborn.join();
        log.append("\nwriters under a read lock: ").append(writers);

        Lock writeView = lock.asWriteLock();
        Lock readView = lock.asReadWriteLock().readLock();
        writeView.lock();
        StringBuilder views = new StringBuilder();
        Thread viewReader = new Thread(() -> {
            readView.lock();
            views.append("read view locked, read locked ").append(lock.isReadLocked());
            readView.unlock();
        });
        viewReader.start();
        Thread.sleep(10);
        boolean viewWaited = viewReader.isAlive();
        writeView.unlock();
        viewReader.join();
        String unlockedTwice;
        try {
            writeView.unlock();
            unlockedTwice = "unlocked";
        } catch (IllegalMonitorStateException exception) {
            unlockedTwice = "IllegalMonitorStateException";
        }
        log.append("\nviews: waited ").append(viewWaited).append(", ").append(views).append(", unlocking again ")
                .append(unlockedTwice);

        long stamp = lock.readLock();
        long converted = lock.tryConvertToWriteLock(stamp);
        boolean convertedToWrite = converted != 0L && lock.isWriteLocked();
        StringBuilder afterConversion = new StringBuilder();
        Thread lateReader = new Thread(() -> {
            long read = lock.readLock();
            afterConversion.append("late reader got it");
            lock.unlockRead(read);
        });
        lateReader.start();
        Thread.sleep(5);
        lock.unlock(converted);
        lateReader.join();
        log.append("\nconversion: to write ").append(convertedToWrite).append(", ").append(afterConversion);
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
