package org.picothreads.targets.monitors;

import java.util.ArrayList;
import java.util.List;

/**
 * Synchronized regions that cannot suspend (a block, a synchronized method, a block in a constructor), run while
 * another thread sleeps inside a region on the same object: each must wait until the sleeper leaves, BLOCKED while
 * it waits, so no contender ever finds the sleeper inside and every count is exact.
 */
public final class RegionsAgainstSuspendedHolders {
    private static final int CONTENDERS = 4;
    private static final long DEADLINE_NANOS = 5_000_000_000L;

    private static final Object LOCK = new Object();
    private static int counter;
    /** How many times a region that cannot suspend found the sleeping holder inside: 0 when exclusion holds. */
    private static int overlaps;
    private static volatile boolean holderInside;
    private static volatile boolean contendersSeenBlocked;

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

    /** One thread holds LOCK across sleeps while contenders run {@code quickRegion} on LOCK three times each. */
    private static String contend(Runnable quickRegion) throws Exception {
        return contend(quickRegion, LOCK);
    }

    /**
     * One thread holds {@code lock}'s monitor across sleeps until every contender is seen BLOCKED; each contender,
     * once the holder is inside, runs {@code quickRegion} (a region on {@code lock} that cannot suspend) three times.
     */
    private static String contend(Runnable quickRegion, Object lock) throws Exception {
        holderInside = false;
        contendersSeenBlocked = false;
        long start = System.nanoTime();
        Thread holder = new Thread(() -> holdAcrossSleeps(lock, start));
        holder.start();
        List<Thread> contenders = new ArrayList<>();
        for (int index = 0; index < CONTENDERS; index++) {
            Thread contender = new Thread(() -> {
                try {
                    while (!holderInside) {
                        Thread.sleep(1);
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (int round = 0; round < 3; round++) {
                    quickRegion.run();
                }
            });
            contenders.add(contender);
            contender.start();
        }
        int blocked = 0;
        while (blocked < CONTENDERS && System.nanoTime() - start < DEADLINE_NANOS) {
            blocked = 0;
            for (Thread contender : contenders) {
                blocked += contender.getState() == Thread.State.BLOCKED ? 1 : 0;
            }
            if (blocked < CONTENDERS) {
                Thread.sleep(1);
            }
        }
        contendersSeenBlocked = true;
        holder.join();
        for (Thread contender : contenders) {
            contender.join();
        }
        return "contenders seen BLOCKED together=" + blocked;
    }

    private static void holdAcrossSleeps(Object lock, long start) {
        try {
            synchronized (lock) {
                holderInside = true;
                int read = counter;
                while (!contendersSeenBlocked && System.nanoTime() - start < DEADLINE_NANOS) {
                    Thread.sleep(1);
                }
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
