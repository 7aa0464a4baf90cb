package org.picothreads.targets.monitors;

import java.util.ArrayDeque;

/**
 * A bounded buffer guarded by wait/notifyAll, with many producers and consumers: every item produced is
 * consumed exactly once, checked by count and sum.
 */
public final class BoundedBuffer {
    private final ArrayDeque<Integer> items = new ArrayDeque<>();
    private final int capacity;

    private BoundedBuffer(int capacity) {
        this.capacity = capacity;
    }

    public static String run() throws Exception {
        BoundedBuffer buffer = new BoundedBuffer(3);
        int producers = 20;
        int perProducer = 50;
        long[] consumedSums = new long[producers];
        int[] consumedCounts = new int[producers];
        Thread[] threads = new Thread[producers * 2];
        for (int index = 0; index < producers; index++) {
            int producer = index;
            threads[index] = new Thread(() -> {
                try {
                    for (int item = 0; item < perProducer; item++) {
                        buffer.put(producer * 1000 + item);
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            threads[producers + index] = new Thread(() -> {
                try {
                    for (int item = 0; item < perProducer; item++) {
                        consumedSums[producer] += buffer.take();
                        consumedCounts[producer]++;
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        long sum = 0;
        int count = 0;
        for (int index = 0; index < producers; index++) {
            sum += consumedSums[index];
            count += consumedCounts[index];
        }
        return "consumed=" + count + " sum=" + sum + " left=" + buffer.items.size();
    }

    private synchronized void put(int item) throws InterruptedException {
        while (items.size() == capacity) {
            wait();
        }
        items.add(item);
        notifyAll();
    }

    private int take() throws InterruptedException {
        synchronized (this) {
            while (items.isEmpty()) {
                wait();
            }
            int item = items.poll();
            notifyAll();
            return item;
        }
    }
}
