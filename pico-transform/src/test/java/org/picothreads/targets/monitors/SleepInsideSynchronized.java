package org.picothreads.targets.monitors;

/**
 * Read-modify-write with a sleep between the read and the write, inside synchronized blocks and methods:
 * the count is exact only if mutual exclusion holds across each suspension.
 */
public final class SleepInsideSynchronized {
    private static final Object LOCK = new Object();
    private static int blockCounter;
    private static int staticMethodCounter;
    private int instanceMethodCounter;
    private int reentrantCounter;

    private SleepInsideSynchronized() {
    }

    public static String run() throws Exception {
        blockCounter = 0;
        staticMethodCounter = 0;
        SleepInsideSynchronized shared = new SleepInsideSynchronized();
        Thread[] threads = new Thread[40];
        for (int index = 0; index < threads.length; index++) {
            threads[index] = new Thread(() -> {
                try {
                    for (int round = 0; round < 3; round++) {
                        incrementInBlock();
                        incrementInStaticMethod();
                        shared.incrementInInstanceMethod();
                        shared.incrementReentrantly();
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            threads[index].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return "block=" + blockCounter + " static=" + staticMethodCounter + " instance="
                + shared.instanceMethodCounter + " reentrant=" + shared.reentrantCounter;
    }

    private static void incrementInBlock() throws InterruptedException {
        synchronized (LOCK) {
            int read = blockCounter;
            Thread.sleep(1);
            blockCounter = read + 1;
        }
    }

    private static synchronized void incrementInStaticMethod() throws InterruptedException {
        int read = staticMethodCounter;
        Thread.yield();
        staticMethodCounter = read + 1;
    }

    private synchronized void incrementInInstanceMethod() throws InterruptedException {
        int read = instanceMethodCounter;
        Thread.sleep(1);
        instanceMethodCounter = read + 1;
    }

    private void incrementReentrantly() throws InterruptedException {
        synchronized (this) {
            synchronized (this) {
                int read = reentrantCounter;
                Thread.sleep(1);
                incrementInInstanceMethodNested(read);
            }
        }
    }

    private synchronized void incrementInInstanceMethodNested(int read) throws InterruptedException {
        Thread.yield();
        reentrantCounter = read + 1;
    }
}
