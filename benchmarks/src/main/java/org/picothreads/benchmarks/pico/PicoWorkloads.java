package org.picothreads.benchmarks.pico;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;

/**
 * The PicoThread side of the thread benchmarks: plain {@code java.lang.Thread} code that pico-maven-plugin
 * rewrites (this package is the plugin's only include), so every thread it starts is a PicoThread. The class
 * {@code org.picothreads.benchmarks.jdk.JdkWorkloads} holds the same code, left as javac wrote it, for virtual
 * and platform threads; keep the two in step.
 */
public final class PicoWorkloads {

    private PicoWorkloads() {
    }

    /** Two threads each descend {@code depth} frames and yield {@code rounds} times at the bottom. */
    public static void yieldPingPong(int depth, int rounds) throws InterruptedException {
        Thread first = new Thread(() -> descendAndYield(depth, rounds));
        Thread second = new Thread(() -> descendAndYield(depth, rounds));
        first.start();
        second.start();
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
    public static void spawnAndJoin(int children) throws InterruptedException {
        Thread parent = new Thread(() -> {
            Thread[] started = new Thread[children];
            for (int index = 0; index < children; index++) {
                started[index] = new Thread(Trivial.TASK);
                started[index].start();
            }
            try {
                for (Thread child : started) {
                    child.join();
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        parent.start();
        parent.join();
    }

    /** Two threads take turns {@code rounds} times each under one monitor, handing over with wait/notify. */
    public static void monitorPingPong(int rounds) throws InterruptedException {
        Object lock = new Object();
        int[] turn = {0};
        Thread first = new Thread(() -> takeTurns(lock, turn, 0, rounds));
        Thread second = new Thread(() -> takeTurns(lock, turn, 1, rounds));
        first.start();
        second.start();
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

    /** A ball goes {@code rounds} times there and back through two queues, both ends on threads of their own. */
    public static void queuePingPongOnThreads(boolean synchronous, int rounds) throws InterruptedException {
        BlockingQueue<Integer> ping = synchronous ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(1);
        BlockingQueue<Integer> pong = synchronous ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(1);
        Thread server = new Thread(() -> bounce(ping, pong, rounds));
        Thread client = new Thread(() -> {
            try {
                for (int round = 0; round < rounds; round++) {
                    ping.put(round);
                    pong.take();
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        server.start();
        client.start();
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
    static final class Trivial {
        static final Runnable TASK = () -> { };
    }
}
