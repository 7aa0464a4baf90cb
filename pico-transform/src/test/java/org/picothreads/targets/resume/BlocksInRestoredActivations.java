package org.picothreads.targets.resume;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Threads that, once resumed, block again and again from the restored activation itself: through every runtime
 * entry that ends a capture by returning to such an activation (yield, sleep, join, a contended synchronized block,
 * wait, a bounded queue's put and take, whose value is used with another value already on the operand stack, a
 * semaphore, a lock and its condition, a latch),
 * with int, long, float, double and reference locals live across each block, inside a synchronized block, and inside
 * a try with a finally that must run once.
 */
public final class BlocksInRestoredActivations {
    public static final int ROUNDS = 40;

    private static final Object SHARED = new Object();
    private static int guarded;

    private BlocksInRestoredActivations() {
    }

    public static String run() throws Exception {
        BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(1);
        String[] results = new String[5];
        int[] finallyRuns = new int[1];
        ReentrantLock lock = new ReentrantLock();
        Condition turnChanged = lock.newCondition();
        int[] turn = new int[1];
        Semaphore gate = new Semaphore(1);
        CountDownLatch turnsTaken = new CountDownLatch(2);
        Thread[] threads = {
            new Thread(() -> results[0] = produce(queue)),
            new Thread(() -> results[1] = consume(queue, finallyRuns)),
            new Thread(() -> results[2] = contend(turnsTaken)),
            new Thread(() -> results[3] = takeTurns(lock, turnChanged, turn, 0, gate, turnsTaken)),
            new Thread(() -> results[4] = takeTurns(lock, turnChanged, turn, 1, gate, turnsTaken)),
        };
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        synchronized (SHARED) {
            return String.join(" | ", results) + " | finally " + finallyRuns[0] + " | guarded " + guarded;
        }
    }

    static String produce(BlockingQueue<Integer> queue) {
        long product = 1;
        double share = 0.5;
        String trace = "p";
        try {
            for (int round = 0; round < ROUNDS; round++) {
                queue.put(round);
                Thread.yield();
                product = product * 3 + round;
                share = share / 2 + round;
                if (round % 10 == 0) {
                    trace = trace + round;
                }
            }
            Thread helper = new Thread(() -> sleepBriefly(3));
            helper.start();
            helper.join();
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
        return trace + " " + product + " " + share;
    }

    static String consume(BlockingQueue<Integer> queue, int[] finallyRuns) {
        int sum = 0;
        float scale = 1.5f;
        long mixed = 7;
        try {
            for (int round = 0; round < ROUNDS; round++) {
                // the left operand is on the operand stack while take() blocks
                sum = sum * 31 + queue.take();
                synchronized (SHARED) {
                    guarded += sum % 7;
                    SHARED.wait(1);
                }
                Thread.sleep(1);
                scale = scale * 1.25f - round;
                mixed ^= (long) sum << 3;
            }
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        } finally {
            finallyRuns[0]++;
        }
        return sum + " " + scale + " " + mixed;
    }

    static String contend(CountDownLatch turnsTaken) {
        int entries = 0;
        for (int round = 0; round < ROUNDS; round++) {
            synchronized (SHARED) {
                entries++;
                guarded += round;
                sleepBriefly(1);
            }
            Thread.yield();
        }
        try {
            turnsTaken.await();
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
        return "entries " + entries;
    }

    static String takeTurns(ReentrantLock lock, Condition turnChanged, int[] turn, int me, Semaphore gate,
            CountDownLatch turnsTaken) {
        long total = me;
        try {
            for (int round = 0; round < ROUNDS; round++) {
                gate.acquire();
                Thread.yield();
                gate.release();
                lock.lock();
                try {
                    while (turn[0] != me) {
                        turnChanged.await();
                    }
                    total = total * 5 + round;
                    turn[0] = 1 - me;
                    turnChanged.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
        turnsTaken.countDown();
        return "turns " + total;
    }

    static void sleepBriefly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }
}
