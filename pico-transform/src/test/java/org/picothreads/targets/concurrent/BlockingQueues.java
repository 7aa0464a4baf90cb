package org.picothreads.targets.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * The BlockingQueue family: producers and consumers through bounded queues (one of them the calling platform thread
 * on each side), a deque used from both ends, hand-offs through a SynchronousQueue, a PriorityBlockingQueue taken in
 * order, a DelayQueue releasing elements as they expire, and timeouts and interrupts of waiting takes and puts.
 */
public final class BlockingQueues {
    private BlockingQueues() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        log.append("array: ").append(pipeline(new ArrayBlockingQueue<>(2)));
        log.append("\nlinked: ").append(pipeline(new LinkedBlockingQueue<>(3)));
        log.append("\nsynchronous: ").append(pipeline(new SynchronousQueue<>()));
        log.append("\nplatform producer: ").append(platformProducer(new ArrayBlockingQueue<>(1)));
        log.append("\nplatform consumer: ").append(platformConsumer(new LinkedBlockingQueue<>(1)));

        BlockingDeque<String> deque = new LinkedBlockingDeque<>(2);
        StringBuilder ends = new StringBuilder();
        deque.putLast("a");
        deque.putFirst("b");
        ends.append("full ").append(deque.offerLast("x", 1, TimeUnit.MILLISECONDS)).append(": ");
        Thread dequeConsumer = new Thread(() -> {
            try {
                for (int index = 0; index < 4; index++) {
                    ends.append(index % 2 == 0 ? deque.takeFirst() : deque.takeLast());
                }
                ends.append(' ').append(deque.pollLast(5, TimeUnit.MILLISECONDS));
            } catch (InterruptedException exception) {
                ends.append("interrupted");
            }
        });
        dequeConsumer.start();
        // Put "c" only once "b" and "a" were taken (else a consumer that started late takes "c" from the last end
        // before "a"), and "d" only once "c" was taken, so the order of the takes does not depend on how loaded the
        // machine is; the sleeps make it likely that the consumer waits in each take.
        while (!deque.isEmpty()) {
            Thread.sleep(1);
        }
        Thread.sleep(10);
        deque.putLast("c");
        while (!deque.isEmpty()) {
            Thread.sleep(1);
        }
        Thread.sleep(5);
        deque.putFirst("d");
        dequeConsumer.join();
        log.append("\ndeque: ").append(ends);

        BlockingQueue<Integer> priorities = new PriorityBlockingQueue<>();
        StringBuilder ordered = new StringBuilder();
        CountDownLatch allPut = new CountDownLatch(1);
        Thread priorityConsumer = new Thread(() -> {
            try {
                ordered.append(priorities.take());
                allPut.await();
                for (int index = 0; index < 3; index++) {
                    ordered.append(priorities.take());
                }
            } catch (InterruptedException exception) {
                ordered.append("interrupted");
            }
        });
        priorityConsumer.start();
        Thread.sleep(10);
        priorities.put(5);
        // The rest go in once 5 was taken, and are taken only when all three are in: the order is the queue's alone.
        while (!priorities.isEmpty()) {
            Thread.sleep(1);
        }
        priorities.put(9);
        priorities.put(1);
        priorities.put(4);
        allPut.countDown();
        priorityConsumer.join();
        log.append("\npriority: ").append(ordered);

        DelayQueue<Delay> delays = new DelayQueue<>();
        StringBuilder expired = new StringBuilder();
        Thread delayConsumer = new Thread(() -> {
            try {
                for (int index = 0; index < 3; index++) {
                    expired.append(delays.take().name);
                }
                expired.append(' ').append(delays.poll(5, TimeUnit.MILLISECONDS));
            } catch (InterruptedException exception) {
                expired.append("interrupted");
            }
        });
        delays.put(new Delay("late", 400));
        delays.put(new Delay("early", 10));
        delayConsumer.start();
        delays.put(new Delay("middle", 60));
        delayConsumer.join();
        log.append("\ndelay: ").append(expired);

        BlockingQueue<String> full = new ArrayBlockingQueue<>(1);
        full.put("x");
        BlockingQueue<String> empty = new LinkedBlockingQueue<>();
        StringBuilder waits = new StringBuilder();
        Thread timed = new Thread(() -> {
            try {
                waits.append("offer ").append(full.offer("y", 5, TimeUnit.MILLISECONDS))
                        .append(", poll ").append(empty.poll(5, TimeUnit.MILLISECONDS));
            } catch (InterruptedException exception) {
                waits.append("interrupted");
            }
        });
        timed.start();
        timed.join();
        Thread taker = new Thread(() -> {
            try {
                waits.append(", took ").append(empty.take());
            } catch (InterruptedException exception) {
                waits.append(", take interrupted, flag ").append(Thread.currentThread().isInterrupted());
            }
        });
        Thread putter = new Thread(() -> {
            try {
                full.put("z");
                waits.append(", put");
            } catch (InterruptedException exception) {
                waits.append(", put interrupted");
            }
        });
        taker.start();
        taker.join(10);
        taker.interrupt();
        taker.join();
        putter.start();
        Thread.sleep(10);
        putter.interrupt();
        putter.join();
        log.append("\nwaits: ").append(waits).append(", full still holds ").append(full);
        return log.toString();
    }

    /** Two producers and two consumers move 1..20 through {@code queue}; returns the sum and count taken. */
    private static String pipeline(BlockingQueue<Integer> queue) throws InterruptedException {
        long[] sums = new long[2];
        int[] counts = new int[2];
        List<Thread> threads = new ArrayList<>();
        for (int producer = 0; producer < 2; producer++) {
            int first = producer * 10 + 1;
            threads.add(new Thread(() -> {
                try {
                    for (int item = first; item < first + 10; item++) {
                        queue.put(item);
                        if (item % 4 == 0) {
                            Thread.sleep(1);
                        }
                    }
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
            }));
        }
        for (int consumer = 0; consumer < 2; consumer++) {
            int slot = consumer;
            threads.add(new Thread(() -> {
                try {
                    for (int item = 0; item < 10; item++) {
                        sums[slot] += queue.take();
                        counts[slot]++;
                    }
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return "sum " + (sums[0] + sums[1]) + ", taken " + (counts[0] + counts[1]) + ", left " + queue.size();
    }

    /** The calling platform thread puts 1..10 into a one-slot queue a thread takes from. */
    private static String platformProducer(BlockingQueue<Integer> queue) throws InterruptedException {
        long[] sum = new long[1];
        Thread consumer = new Thread(() -> {
            try {
                for (int item = 0; item < 10; item++) {
                    sum[0] += queue.take();
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        consumer.start();
        for (int item = 1; item <= 10; item++) {
            queue.put(item);
        }
        consumer.join();
        return "sum " + sum[0];
    }

    /** A thread puts 1..10 into a one-slot queue the calling platform thread takes from. */
    private static String platformConsumer(BlockingQueue<Integer> queue) throws InterruptedException {
        Thread producer = new Thread(() -> {
            try {
                for (int item = 1; item <= 10; item++) {
                    queue.put(item);
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        producer.start();
        long sum = 0;
        for (int item = 0; item < 10; item++) {
            sum += queue.take();
        }
        producer.join();
        return "sum " + sum;
    }

    /** A DelayQueue element that expires some milliseconds after it was made. */
    private static final class Delay implements Delayed {
        final String name;
        private final long deadline;

        Delay(String name, long millis) {
            this.name = name;
            this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(deadline, ((Delay) other).deadline);
        }
    }
}
