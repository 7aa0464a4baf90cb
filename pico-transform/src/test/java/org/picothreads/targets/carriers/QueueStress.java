package org.picothreads.targets.carriers;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Two thousand threads over two blocking queues: on each of a small {@code ArrayBlockingQueue} and an unbounded
 * {@code LinkedBlockingQueue}, five hundred producers put twenty distinct items each and five hundred consumers take twenty
 * each. Every item must be taken exactly once: the program counts, per item, how often it was taken, and sums them.
 */
public final class QueueStress {
    private static final int PRODUCERS_PER_QUEUE = 500;
    private static final int ITEMS = 20;
    /** How long a put or take waits before the program gives up on it. */
    private static final long WAIT_LIMIT_SECONDS = 10;

    private QueueStress() {
    }

    public static String run() throws Exception {
        BlockingQueue<Integer> array = new ArrayBlockingQueue<>(32);
        BlockingQueue<Integer> linked = new LinkedBlockingQueue<>();
        String arrayResult = exchange(array, 0);
        String linkedResult = exchange(linked, PRODUCERS_PER_QUEUE * ITEMS);
        return "array queue: " + arrayResult + "; linked queue: " + linkedResult;
    }

    /** Runs the producers and consumers of one queue; items are numbered from {@code firstItem}. */
    private static String exchange(BlockingQueue<Integer> queue, int firstItem) throws InterruptedException {
        int itemCount = PRODUCERS_PER_QUEUE * ITEMS;
        AtomicIntegerArray takenTimes = new AtomicIntegerArray(itemCount);
        long[] sums = new long[PRODUCERS_PER_QUEUE];
        int[] failures = new int[2 * PRODUCERS_PER_QUEUE];
        Thread[] threads = new Thread[2 * PRODUCERS_PER_QUEUE];
        for (int index = 0; index < threads.length; index++) {
            int number = index;
            threads[index] = new Thread(() -> {
                try {
                    for (int item = 0; item < ITEMS; item++) {
                        if (number < PRODUCERS_PER_QUEUE) {
                            int value = firstItem + number * ITEMS + item;
                            if (!queue.offer(value, WAIT_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                                failures[number]++;
                            }
                        } else {
                            Integer value = queue.poll(WAIT_LIMIT_SECONDS, TimeUnit.SECONDS);
                            if (value == null) {
                                failures[number]++;
                            } else {
                                takenTimes.incrementAndGet(value - firstItem);
                                sums[number - PRODUCERS_PER_QUEUE] += value;
                            }
                        }
                    }
                } catch (InterruptedException exception) {
                    failures[number]++;
                }
            });
        }
        Pause.startAndJoin(threads);
        int takenOnce = 0;
        for (int item = 0; item < itemCount; item++) {
            if (takenTimes.get(item) == 1) {
                takenOnce++;
            }
        }
        long checksum = 0;
        for (long sum : sums) {
            checksum += sum;
        }
        int failed = 0;
        for (int count : failures) {
            failed += count;
        }
        return "items " + itemCount + ", taken exactly once " + takenOnce + ", left " + queue.size() + ", checksum "
                + checksum + ", waits that timed out " + failed;
    }
}
