package org.picothreads.targets.carriers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A thread holds the JVM monitor of a {@code Collections.synchronizedList} for real (inside a constructor, which
 * cannot be captured) while it waits for a latch that only the last thread started counts down; the threads started
 * before it call the list's own synchronized {@code add}, the JDK's code, and wait to enter that monitor where the
 * runtime does not see them, each blocking its carrier. With as many adders as carriers, only a carrier that something
 * else starts can run the thread that releases the holder. The holder gives up after {@link #LIMIT_SECONDS}, so that
 * the program ends either way, and says so.
 */
public final class JdkMonitorHeldByPinnedThread {
    /** Threads that add to the list while the holder holds its monitor: more than the carriers of any test run. */
    private static final int ADDERS = 8;
    /** How long the holder waits to be released, and the caller for the holder to hold the monitor. */
    private static final long LIMIT_SECONDS = 10;
    /**
     * How long the releaser sleeps before it releases the holder: long enough that the adders, which sleep 1 ms, have
     * blocked their carriers for longer than the watchdog's threshold, even on a loaded machine.
     */
    private static final long RELEASE_AFTER_MILLIS = 200;

    private JdkMonitorHeldByPinnedThread() {
    }

    /** Holds the list's monitor, built in a constructor, until released or the limit passes. */
    private static final class Holder {
        /** True when the releaser released it, false when it gave up. */
        final boolean released;

        Holder(List<String> list, CountDownLatch holding, CountDownLatch release) throws InterruptedException {
            synchronized (list) {
                list.add("holder");
                holding.countDown();
                released = release.await(LIMIT_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    public static String run() throws Exception {
        List<String> list = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        String[] holderOutcome = new String[1];
        Thread holder = new Thread(() -> {
            try {
                holderOutcome[0] = new Holder(list, holding, release).released ? "was released" : "gave up";
            } catch (InterruptedException exception) {
                holderOutcome[0] = "interrupted";
            }
        }, "holder");
        holder.start();
        boolean held = holding.await(LIMIT_SECONDS, TimeUnit.SECONDS);
        Thread[] adders = new Thread[ADDERS];
        for (int index = 0; index < ADDERS; index++) {
            String element = "adder " + index;
            adders[index] = new Thread(() -> {
                Pause.sleep(1);
                list.add(element);
            }, "adder-" + index);
            adders[index].start();
        }
        Thread releaser = new Thread(() -> {
            Pause.sleep(RELEASE_AFTER_MILLIS);
            release.countDown();
        }, "releaser");
        releaser.start();
        holder.join();
        releaser.join();
        for (Thread adder : adders) {
            adder.join();
        }
        List<String> sorted = new ArrayList<>(list);
        Collections.sort(sorted);
        return "the holder held the monitor " + held + " and " + holderOutcome[0] + "; the list has "
                + sorted.size() + " elements, the holder's first: " + list.get(0) + "; " + sorted;
    }
}
