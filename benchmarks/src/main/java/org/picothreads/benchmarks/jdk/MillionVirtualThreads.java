package org.picothreads.benchmarks.jdk;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The virtual-thread program of shared/seeds/003: {@code Thread.startVirtualThread} for each of N threads
 * (default 1,000,000), each prints a line, counts, sleeps 5 ms and counts a latch down. Not rewritten. Its
 * per-thread lines go to standard output; the summary to standard error; a second argument {@code quiet} leaves the
 * lines out, as in {@code org.picothreads.benchmarks.pico.MillionThreads}.
 */
public final class MillionVirtualThreads {

    private MillionVirtualThreads() {
    }

    public static void main(String[] args) throws InterruptedException {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        boolean printing = args.length < 2 || !args[1].equals("quiet");
        AtomicInteger number = new AtomicInteger(0);
        CountDownLatch countDownLatch = new CountDownLatch(count);
        long start = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            Thread.startVirtualThread(() -> {
                if (printing) {
                    System.out.println("Hello, World from Virtual Thread");
                }
                number.incrementAndGet();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    e.printStackTrace();
                }
                countDownLatch.countDown();
            });
        }
        countDownLatch.await();
        long end = System.currentTimeMillis();
        System.err.println("Time Taken = " + (end - start));
        System.err.println("Number = " + number.get());
    }
}
