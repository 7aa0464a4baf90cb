package org.picothreads.targets.resume;

/**
 * Synchronized regions held by several activations while the innermost blocks: each thread takes a region on a
 * shared object in an outer method and one on another shared object in a method it calls, sleeps at the bottom with
 * both held, and updates counters after each call returns; the counters stay exact only if a region's monitor
 * still excludes the other threads while its activation is saved, and after it continues lazily. A synchronized
 * method at the bottom blocks too, and a wait/notify pair crosses restored frames.
 */
public final class MonitorsAcrossRestoredFrames {
    private static final Object OUTER = new Object();
    private static final Object INNER = new Object();
    private static int outerCount;
    private static int innerCount;
    private static int methodCount;

    private MonitorsAcrossRestoredFrames() {
    }

    public static String run() throws Exception {
        outerCount = 0;
        innerCount = 0;
        methodCount = 0;
        Thread[] threads = new Thread[4];
        long[] sums = new long[threads.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> {
                for (int round = 0; round < 5; round++) {
                    sums[seed] += outer(seed, round);
                }
            });
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        StringBuilder result = new StringBuilder();
        result.append("outer=").append(outerCount).append(" inner=").append(innerCount).append(" method=")
                .append(methodCount);
        for (long sum : sums) {
            result.append(' ').append(sum);
        }
        result.append(' ').append(waitAcrossFrames());
        return result.toString();
    }

    static long outer(int seed, int round) {
        synchronized (OUTER) {
            int before = outerCount;
            long value = middle(seed, round) + before * 0L;
            outerCount = before + 1;
            return value + round;
        }
    }

    static long middle(int seed, int round) {
        double scale = 1.5 * seed;
        synchronized (INNER) {
            int before = innerCount;
            long value = bottom(seed) + (long) scale;
            innerCount = before + 1;
            return value;
        }
    }

    static long bottom(int seed) {
        long kept = seed * 3L;
        sleep(1);
        return kept + counted();
    }

    static synchronized int counted() {
        int before = methodCount;
        sleep(1);
        methodCount = before + 1;
        return 1;
    }

    /** A thread waits on a monitor three calls deep while a second one notifies it. */
    static String waitAcrossFrames() throws InterruptedException {
        Object lock = new Object();
        boolean[] ready = new boolean[1];
        String[] seen = new String[1];
        Thread waiter = new Thread(() -> seen[0] = "waited " + awaitDeep(lock, ready, 3));
        waiter.start();
        Thread notifier = new Thread(() -> {
            sleep(5);
            synchronized (lock) {
                ready[0] = true;
                lock.notifyAll();
            }
        });
        notifier.start();
        waiter.join();
        notifier.join();
        return seen[0];
    }

    static int awaitDeep(Object lock, boolean[] ready, int depth) {
        if (depth > 0) {
            return depth + awaitDeep(lock, ready, depth - 1);
        }
        synchronized (lock) {
            while (!ready[0]) {
                try {
                    lock.wait();
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
            }
            return 100;
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
