package org.picothreads.targets.callbacks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;

/**
 * Activations that were restored go on blocking, directly (which spares the frame check) and through frames that
 * were not rewritten (which must still pin): after its first suspension each thread here is a chain of restored
 * activations, and every later blocking call must either be captured with nothing but rewritten frames below it, or
 * block in place. Each thread records what it saw, in order, so that a frame run twice shows in the result.
 */
public final class RestoredCallers {
    private RestoredCallers() {
    }

    public static String run() throws Exception {
        String[] results = new String[4];
        BlockingQueue<Integer> queue = new ArrayBlockingQueue<>(1);
        CountDownLatch slept = new CountDownLatch(1);
        Thread[] threads = {
            // Yields at the bottom of a recursion: after the first capture, each yield is made by restored frames.
            new Thread(() -> results[0] = "yields at depth 6: " + descendAndYield(6, 200)),
            // A restored activation blocks directly, then calls a JDK method that calls back into code that blocks.
            new Thread(() -> results[1] = "forEach after restore: " + blockDirectlyThenThroughForEach()),
            // An interrupt ends a direct sleep of a restored activation with an exception; the handler then blocks
            // through a JDK callback.
            new Thread(() -> results[2] = "after an interrupted sleep: " + interruptedThenThroughCallback(slept)),
            // A producer and a consumer hand values through a queue, each from one long-lived activation.
            new Thread(() -> results[3] = "queue sum " + consume(queue, 100)),
        };
        Thread producer = new Thread(() -> produce(queue, 100));
        for (Thread thread : threads) {
            thread.start();
        }
        producer.start();
        slept.await();
        threads[2].interrupt();
        for (Thread thread : threads) {
            thread.join();
        }
        producer.join();
        return String.join("\n", results);
    }

    static int descendAndYield(int depth, int yields) {
        if (depth > 0) {
            return descendAndYield(depth - 1, yields) + 1;
        }
        int counted = 0;
        for (int index = 0; index < yields; index++) {
            Thread.yield();
            counted++;
        }
        return counted;
    }

    static String blockDirectlyThenThroughForEach() {
        StringBuilder trace = new StringBuilder();
        List<Integer> values = List.of(1, 2, 3);
        for (int round = 0; round < 3; round++) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            trace.append('r').append(round).append(':');
            values.forEach(value -> {
                trace.append(value);
                ForeignFrameShapes.sleepQuietly(1);
                trace.append('.');
            });
            trace.append(' ');
        }
        return trace.toString();
    }

    static String interruptedThenThroughCallback(CountDownLatch slept) {
        StringBuilder trace = new StringBuilder();
        try {
            Thread.sleep(1);
            trace.append("slept ");
            slept.countDown();
            Thread.sleep(60_000);
            trace.append("not interrupted");
        } catch (InterruptedException e) {
            trace.append("interrupted ");
            List<String> words = new ArrayList<>(List.of("c", "a", "b"));
            words.sort((first, second) -> {
                ForeignFrameShapes.sleepQuietly(1);
                return first.compareTo(second);
            });
            trace.append(words);
        }
        return trace.toString();
    }

    static long consume(BlockingQueue<Integer> queue, int count) {
        long sum = 0;
        for (int index = 0; index < count; index++) {
            try {
                sum += queue.take();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        return sum;
    }

    static void produce(BlockingQueue<Integer> queue, int count) {
        for (int index = 1; index <= count; index++) {
            try {
                queue.put(index);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
