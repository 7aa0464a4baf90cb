package org.picothreads.targets.threads;

import java.util.Arrays;

/**
 * Joining and yielding: join on a thread never started, a chain of threads each joining the previous one,
 * {@code join(millis)} both timing out on a thread that is still running and returning early for one that
 * ends, isAlive before start, while running and after the end, and threads that yield in a loop.
 */
public final class JoinAndYield {
    /** Lets the gated threads end; written by the thread running {@link #run}. */
    private volatile boolean released;

    private JoinAndYield() {
    }

    public static String run() throws Exception {
        return new JoinAndYield().joinAndYield();
    }

    private String joinAndYield() throws InterruptedException {
        StringBuilder report = new StringBuilder();

        Thread neverStarted = new Thread(() -> sleep(1));
        neverStarted.join();
        report.append("never started: alive ").append(neverStarted.isAlive()).append('\n');

        long[] values = new long[6];
        Thread[] chain = new Thread[values.length];
        for (int link = 0; link < chain.length; link++) {
            int position = link;
            Thread previous = link == 0 ? null : chain[link - 1];
            chain[link] = new Thread(() -> {
                if (previous != null) {
                    join(previous);
                }
                sleep(1);
                values[position] = position == 0 ? 1 : values[position - 1] * 3 + position;
            });
        }
        for (Thread link : chain) {
            link.start();
        }
        chain[chain.length - 1].join();
        report.append("chain: ").append(Arrays.toString(values))
                .append(", first alive ").append(chain[0].isAlive()).append('\n');

        Thread gated = new Thread(() -> {
            while (!released) {
                sleep(1);
            }
        });
        report.append("gated before start: alive ").append(gated.isAlive());
        gated.start();
        report.append(", after start: alive ").append(gated.isAlive());
        gated.join(20);
        report.append(", after join(20): alive ").append(gated.isAlive());
        released = true;
        gated.join(60_000);
        report.append(", after release and join(60000): alive ").append(gated.isAlive()).append('\n');

        Thread quick = new Thread(() -> sleep(2));
        quick.start();
        quick.join(60_000);
        report.append("join(60000) of a short thread: alive ").append(quick.isAlive()).append('\n');

        int[] counters = new int[3];
        Thread[] yielders = new Thread[counters.length];
        for (int index = 0; index < yielders.length; index++) {
            int slot = index;
            yielders[index] = new Thread(() -> {
                for (int round = 0; round < 500 * (slot + 1); round++) {
                    Thread.yield();
                    counters[slot]++;
                }
                sleep(1);
            });
        }
        for (Thread yielder : yielders) {
            yielder.start();
        }
        for (Thread yielder : yielders) {
            yielder.join(0);
        }
        report.append("yield counters: ").append(Arrays.toString(counters));
        return report.toString();
    }

    static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
