package org.picothreads.benchmarks.pico;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The program of shared/seeds/003 ("Running 1 Million Threads in Java") as its platform-thread version is
 * written: {@code new Thread(...).start()} for each of N threads (default 1,000,000), each prints a line,
 * counts, sleeps 5 ms and counts a latch down; main awaits the latch. Rewritten by the plugin, so the threads are
 * PicoThreads. Its per-thread lines go to standard output; the summary to standard error. A second argument
 * {@code quiet} leaves the lines out (issue 12 measures the program with and without printing).
 * {@code org.picothreads.benchmarks.jdk.MillionVirtualThreads} is the seed's virtual-thread version.
 */
public final class MillionThreads {

    private MillionThreads() {
    }

    public static void main(String[] args) throws InterruptedException {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        boolean printing = args.length < 2 || !args[1].equals("quiet");
        AtomicInteger number = new AtomicInteger(0);
        long start = System.currentTimeMillis();
        CountDownLatch countDownLatch = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            Thread normalThread = new Thread(() -> {
                if (printing) {
                    System.out.println("Hello, World from Regular Thread : " + Thread.currentThread().getName());
                }
                number.incrementAndGet();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    e.printStackTrace();
                }
                countDownLatch.countDown();
            });
            normalThread.start();
        }
        countDownLatch.await();
        long end = System.currentTimeMillis();
        System.err.println("Time Taken = " + (end - start));
        System.err.println("Number = " + number.get());
    }
}
