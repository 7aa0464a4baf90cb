package org.picothreads.benchmarks.jdk;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;

/**
 * The virtual and platform thread side of the thread benchmarks: the code of
 * {@code org.picothreads.benchmarks.pico.PicoWorkloads}, not rewritten, with its threads made by a
 * {@link Thread.Builder} ({@code Thread.ofVirtual()} or {@code Thread.ofPlatform()}). Keep the two in step.
 */
public final class JdkWorkloads {

    private JdkWorkloads() {
    }

    /** Two threads each descend {@code depth} frames and yield {@code rounds} times at the bottom. */
    public static void yieldPingPong(Thread.Builder threads, int depth, int rounds) throws InterruptedException {
        Thread first = threads.start(() -> descendAndYield(depth, rounds));
        Thread second = threads.start(() -> descendAndYield(depth, rounds));
        first.join();
        second.join();
    }

    /** Recurses to {@code depth} frames of this method, then yields {@code rounds} times. */
    static int descendAndYield(int depth, int rounds) {
        if (depth > 1) {
            return descendAndYield(depth - 1, rounds) + 1;
        }
        for (int round = 0; round < rounds; round++) {
            Thread.yield();
        }
        return 1;
    }

    /** One thread starts {@code children} trivial threads and joins them all; the caller joins it. */
    public static void spawnAndJoin(Thread.Builder threads, int children) throws InterruptedException {
        Thread parent = threads.start(() -> {
            Thread[] started = new Thread[children];
            for (int index = 0; index < children; index++) {
                started[index] = threads.start(TRIVIAL);
            }
            try {
                for (Thread child : started) {
                    child.join();
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        parent.join();
    }

    /** Two threads take turns {@code rounds} times each under one monitor, handing over with wait/notify. */
    public static void monitorPingPong(Thread.Builder threads, int rounds) throws InterruptedException {
        Object lock = new Object();
        int[] turn = {0};
        Thread first = threads.start(() -> takeTurns(lock, turn, 0, rounds));
        Thread second = threads.start(() -> takeTurns(lock, turn, 1, rounds));
        first.join();
        second.join();
    }

    static void takeTurns(Object lock, int[] turn, int player, int rounds) {
        try {
            for (int round = 0; round < rounds; round++) {
                synchronized (lock) {
                    while (turn[0] != player) {
                        lock.wait();
                    }
                    turn[0] = 1 - player;
                    lock.notify();
                }
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A ball goes {@code rounds} times there and back through two queues, both ends on threads of the builder. */
    public static void queuePingPongOnThreads(Thread.Builder threads, boolean synchronous, int rounds)
            throws InterruptedException {
        BlockingQueue<Integer> ping = synchronous ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(1);
        BlockingQueue<Integer> pong = synchronous ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(1);
        Thread server = threads.start(() -> bounce(ping, pong, rounds));
        Thread client = threads.start(() -> {
            try {
                for (int round = 0; round < rounds; round++) {
                    ping.put(round);
                    pong.take();
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        client.join();
        server.join();
    }

    static void bounce(BlockingQueue<Integer> ping, BlockingQueue<Integer> pong, int rounds) {
        try {
            for (int round = 0; round < rounds; round++) {
                pong.put(ping.take());
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body of every trivial thread. */
    static final Runnable TRIVIAL = () -> { };
}
