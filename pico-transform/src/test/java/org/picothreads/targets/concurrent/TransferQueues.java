package org.picothreads.targets.concurrent;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TransferQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * LinkedTransferQueue: each transfer returns only once a consumer took its element; tryTransfer succeeds only
 * with a consumer waiting; a timed tryTransfer times out and an interrupted transfer throws, neither leaving its
 * element behind; a transfer is completed by the calling (platform) thread removing its element; producers and
 * consumers share a queue; the collection methods; a serialized queue comes back with its elements and works.
 */
public final class TransferQueues {
    private TransferQueues() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        transfers(log);
        collection(log);
        return log.toString();
    }

    private static void transfers(StringBuilder log) throws Exception {
        TransferQueue<Integer> queue = new LinkedTransferQueue<>();
        StringBuilder order = new StringBuilder();
        StringBuilder producerSaw = new StringBuilder();
        Thread producer = new Thread(() -> {
            try {
                boolean goneOnReturn = true;
                for (int item = 1; item <= 5; item++) {
                    queue.transfer(item);
                    goneOnReturn &= queue.isEmpty();
                }
                producerSaw.append("the queue was empty whenever a transfer returned ").append(goneOnReturn);
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        Thread consumer = new Thread(() -> {
            try {
                for (int round = 0; round < 5; round++) {
                    Thread.sleep(2);
                    order.append(queue.take()).append(' ');
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        producer.start();
        consumer.start();
        producer.join();
        consumer.join();
        log.append("transfers: ").append(order).append(producerSaw);

        StringBuilder handed = new StringBuilder();
        boolean withoutConsumer = queue.tryTransfer(7);
        Thread waiting = new Thread(() -> {
            try {
                handed.append(queue.take());
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        waiting.start();
        while (!queue.hasWaitingConsumer()) {
            Thread.sleep(1);
        }
        int consumers = queue.getWaitingConsumerCount();
        boolean withConsumer = queue.tryTransfer(8);
        waiting.join();
        log.append("\ntryTransfer: without a consumer ").append(withoutConsumer).append(", with one waiting ")
                .append(withConsumer).append(" (").append(consumers).append(" waiting), it took ").append(handed)
                .append(", size ").append(queue.size());

        StringBuilder impatient = new StringBuilder();
        AtomicInteger stage = new AtomicInteger();
        Thread transferrer = new Thread(() -> {
            try {
                impatient.append(queue.tryTransfer(9, 10, TimeUnit.MILLISECONDS)).append(", left ")
                        .append(queue.size());
                stage.set(1);
                queue.transfer(10);
                impatient.append(", transferred");
            } catch (InterruptedException exception) {
                impatient.append(", interrupted, flag ").append(Thread.currentThread().isInterrupted())
                        .append(", left ").append(queue.size());
            }
        });
        transferrer.start();
        while (stage.get() < 1) {
            Thread.sleep(1);
        }
        Thread.sleep(5);
        transferrer.interrupt();
        transferrer.join();
        log.append("\ntimed and interrupted: ").append(impatient);

        StringBuilder removed = new StringBuilder();
        StringBuilder returned = new StringBuilder();
        Thread removedTransferrer = new Thread(() -> {
            try {
                queue.transfer(11);
                queue.transfer(12);
                queue.transfer(13);
                returned.append("all three transfers returned");
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        removedTransferrer.start();
        awaitSize(queue, 1);
        removed.append("remove ").append(queue.remove(11)).append(", ");
        awaitSize(queue, 1);
        Iterator<Integer> iterator = queue.iterator();
        removed.append("iterator saw ").append(iterator.next()).append(", ");
        iterator.remove();
        awaitSize(queue, 1);
        List<Integer> drained = new ArrayList<>();
        queue.drainTo(drained);
        removedTransferrer.join();
        removed.append("drained ").append(drained).append(", ").append(returned);
        log.append("\ncompleted by removal: ").append(removed);

        LinkedTransferQueue<Integer> shared = new LinkedTransferQueue<>();
        AtomicInteger sum = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < 3; index++) {
            int base = index * 100;
            threads.add(new Thread(() -> {
                for (int item = 1; item <= 10; item++) {
                    shared.put(base + item);
                    if (item % 3 == 0) {
                        Thread.yield();
                    }
                }
            }));
        }
        for (int index = 0; index < 2; index++) {
            threads.add(new Thread(() -> {
                try {
                    for (int count = 0; count < 14; count++) {
                        sum.addAndGet(shared.take());
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
        int callerTook = shared.take() + shared.take();
        Integer nothing = shared.poll(5, TimeUnit.MILLISECONDS);
        log.append("\nshared: total ").append(sum.get() + callerTook).append(", then ").append(nothing);
    }

    private static void collection(StringBuilder log) throws Exception {
        LinkedTransferQueue<String> queue = new LinkedTransferQueue<>(List.of("a", "b"));
        queue.put("c");
        queue.add("d");
        queue.offer("e", 1, TimeUnit.SECONDS);
        queue.offer("f");
        StringBuilder text = new StringBuilder();
        text.append(queue).append(" size ").append(queue.size()).append(" peek ").append(queue.peek())
                .append(" contains c ").append(queue.contains("c")).append(" contains z ").append(queue.contains("z"))
                .append(" array ").append(Arrays.toString(queue.toArray()))
                .append(" typed ").append(Arrays.toString(queue.toArray(new String[0])))
                .append(" stream ").append(queue.stream().reduce("", String::concat))
                .append(" capacity ").append(queue.remainingCapacity() == Integer.MAX_VALUE);
        queue.removeIf(element -> element.equals("b"));
        queue.removeAll(List.of("d"));
        text.append(" after removing ").append(queue);
        queue.retainAll(List.of("a", "c", "e", "f"));
        StringBuilder each = new StringBuilder();
        queue.forEach(each::append);
        text.append(" each ").append(each).append(" poll ").append(queue.poll()).append(" remove ")
                .append(queue.remove());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream output = new ObjectOutputStream(bytes)) {
            output.writeObject(queue);
        }
        Object copy;
        try (ObjectInputStream input = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = input.readObject();
        }
        @SuppressWarnings("unchecked")
        LinkedTransferQueue<String> restored = (LinkedTransferQueue<String>) copy;
        StringBuilder fromCopy = new StringBuilder();
        Thread consumer = new Thread(() -> {
            try {
                for (int count = 0; count < 3; count++) {
                    fromCopy.append(restored.take());
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        consumer.start();
        Thread.sleep(5);
        restored.transfer("g");
        consumer.join();
        queue.clear();
        text.append(" restored took ").append(fromCopy).append(", empty ").append(restored.isEmpty())
                .append(", cleared ").append(queue.isEmpty()).append(' ').append(queue);
        log.append("\ncollection: ").append(text);
    }

    /** Waits, sleeping, until a producer has enqueued so that {@code queue} holds {@code size} elements. */
    private static void awaitSize(TransferQueue<?> queue, int size) throws InterruptedException {
        while (queue.size() < size) {
            Thread.sleep(1);
        }
    }
}
