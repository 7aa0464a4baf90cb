package org.picothreads.targets.resume;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Threads that, once resumed, block again and again from the restored activation itself: through every runtime
 * entry that ends a capture by returning to such an activation (yield, sleep, join, a contended synchronized block,
 * wait, and a bounded queue's put and take, whose value is used with another value already on the operand stack),
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
        String[] results = new String[3];
        int[] finallyRuns = new int[1];
        Thread producer = new Thread(() -> results[0] = produce(queue));
        Thread consumer = new Thread(() -> results[1] = consume(queue, finallyRuns));
        Thread contender = new Thread(() -> results[2] = contend());
        producer.start();
        consumer.start();
        contender.start();
        producer.join();
        consumer.join();
        contender.join();
        synchronized (SHARED) {
            return results[0] + " | " + results[1] + " | " + results[2] + " | finally " + finallyRuns[0] + " | guarded "
                    + guarded;
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

    static String contend() {
        int entries = 0;
        for (int round = 0; round < ROUNDS; round++) {
            synchronized (SHARED) {
                entries++;
                guarded += round;
                sleepBriefly(1);
            }
            Thread.yield();
        }
        return "entries " + entries;
    }

    static void sleepBriefly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
    }
}
