package org.picothreads.targets.monitors;

import java.util.ArrayList;
import java.util.List;

/**
 * Synchronized regions that cannot suspend (a block, a synchronized method, a block in a constructor), run by
 * threads and by the calling platform thread while another thread sleeps inside a region on the same object: each
 * must wait until the sleeper leaves, BLOCKED while it waits, so no contender ever finds the sleeper inside and every
 * count is exact; a region on another object enters at once.
 */
public final class RegionsAgainstSuspendedHolders {
    private static final int CONTENDERS = 4;
    private static final long DEADLINE_NANOS = 5_000_000_000L;

    private static final Object LOCK = new Object();
    private static final Object OTHER_LOCK = new Object();
    private static int counter;
    /** How many times a region that cannot suspend found the sleeping holder inside: 0 when exclusion holds. */
    private static int overlaps;
    private static volatile boolean holderInside;
    /** Set once the holder has entered, and left set, so that no waiter can miss a short stay. */
    private static volatile boolean holderEntered;
    private static int otherLockEntriesWhileHolderInside;

    private RegionsAgainstSuspendedHolders() {
    }

    public static String run() throws Exception {
        counter = 0;
        overlaps = 0;
        String block = contend(RegionsAgainstSuspendedHolders::incrementInBlock);
        Account account = new Account();
        String method = contend(account::depositQuickly, account);
        String constructor = contend(() -> new Recorder(LOCK));
        return "block: " + block + "; synchronized method: " + method + " balance=" + account.balance
                + "; constructor: " + constructor + "; counter=" + counter + " overlaps=" + overlaps;
    }

    /** One thread holds LOCK across sleeps while contenders run {@code quickRegion} on LOCK. */
    private static String contend(Runnable quickRegion) throws Exception {
        return contend(quickRegion, LOCK);
    }

    /**
     * One thread holds {@code lock}'s monitor across sleeps until it has seen every contender BLOCKED. Once the
     * holder is inside, each contender first runs a region on another object, which must not wait, then runs
     * {@code quickRegion} (a region on {@code lock} that cannot suspend) three times; the calling platform thread
     * runs {@code quickRegion} once as well.
     */
    private static String contend(Runnable quickRegion, Object lock) throws Exception {
        holderInside = false;
        holderEntered = false;
        otherLockEntriesWhileHolderInside = 0;
        List<Thread> contenders = new ArrayList<>();
        int[] seenBlocked = new int[1];
        Thread holder = new Thread(() -> holdUntilBlocked(lock, contenders, seenBlocked));
        for (int index = 0; index < CONTENDERS; index++) {
            contenders.add(new Thread(() -> {
                awaitHolderInside();
                synchronized (OTHER_LOCK) {
                    if (holderInside) {
                        otherLockEntriesWhileHolderInside++;
                    }
                }
                for (int round = 0; round < 3; round++) {
                    quickRegion.run();
                }
            }));
        }
        holder.start();
        for (Thread contender : contenders) {
            contender.start();
        }
        awaitHolderInside();
        quickRegion.run();
        holder.join();
        for (Thread contender : contenders) {
            contender.join();
        }
        return "contenders seen BLOCKED together=" + seenBlocked[0] + " regions on another object entered while"
                + " the holder was inside=" + otherLockEntriesWhileHolderInside;
    }

    private static void awaitHolderInside() {
        try {
            while (!holderEntered) {
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void holdUntilBlocked(Object lock, List<Thread> contenders, int[] seenBlocked) {
        try {
            synchronized (lock) {
                holderInside = true;
                holderEntered = true;
                long start = System.nanoTime();
                int read = counter;
                int blocked = 0;
                while (blocked < CONTENDERS && System.nanoTime() - start < DEADLINE_NANOS) {
                    Thread.sleep(1);
                    blocked = 0;
                    for (Thread contender : contenders) {
                        blocked += contender.getState() == Thread.State.BLOCKED ? 1 : 0;
                    }
                }
                seenBlocked[0] = blocked;
                counter = read + 100;
                holderInside = false;
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void incrementInBlock() {
        synchronized (LOCK) {
            if (holderInside) {
                overlaps++;
            }
            counter++;
        }
    }

    /** A synchronized method that cannot suspend, against a holder that sleeps in {@code synchronized (this)}. */
    private static final class Account {
        int balance;

        synchronized void depositQuickly() {
            if (holderInside) {
                overlaps++;
            }
            balance++;
            counter++;
        }
    }

    /** A constructor whose synchronized block cannot suspend. */
    private static final class Recorder {
        Recorder(Object lock) {
            synchronized (lock) {
                if (holderInside) {
                    overlaps++;
                }
                counter++;
            }
        }
    }
}
