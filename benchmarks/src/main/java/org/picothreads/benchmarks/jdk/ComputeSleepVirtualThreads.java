package org.picothreads.benchmarks.jdk;

import java.util.concurrent.atomic.AtomicLong;
import org.picothreads.benchmarks.ProcessCpuTime;

/**
 * Issue 12's thread-per-task compute+sleep workload on virtual threads (the default scheduler), not rewritten: the
 * same code as {@code org.picothreads.benchmarks.pico.ComputeSleepThreads} with {@code Thread.ofVirtual()}; keep the
 * two in step.
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.jdk.ComputeSleepVirtualThreads THREADS ROUNDS UNITS
 * </pre>
 */
public final class ComputeSleepVirtualThreads {
    /** The sum of every thread's result, printed so that the computation cannot be left out. */
    private static final AtomicLong CHECKSUM = new AtomicLong();

    private ComputeSleepVirtualThreads() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int units = Integer.parseInt(args[2]);
        for (int run = 0; run < 3; run++) {
            CHECKSUM.set(0);
            long cpuBefore = ProcessCpuTime.nanos();
            long start = System.nanoTime();
            Thread[] all = new Thread[threads];
            for (int index = 0; index < threads; index++) {
                int task = index;
                all[index] = Thread.ofVirtual().unstarted(() -> task(task, rounds, units));
                all[index].start();
            }
            for (Thread thread : all) {
                thread.join();
            }
            System.out.println("virtual run " + run + " wall_ms " + (System.nanoTime() - start) / 1_000_000 + " cpu_ms "
                    + (ProcessCpuTime.nanos() - cpuBefore) / 1_000_000 + " checksum " + CHECKSUM.get());
        }
    }

    /** One thread's work: {@code rounds} times, compute then sleep 1 ms. */
    static void task(int index, int rounds, int units) {
        long value = index;
        for (int round = 0; round < rounds; round++) {
            value = compute(value, units);
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        CHECKSUM.addAndGet(value);
    }

    /** A fixed amount of arithmetic that the compiler cannot fold: {@code units} times 200,000 steps of an LCG. */
    static long compute(long seed, int units) {
        long value = seed;
        for (int unit = 0; unit < units; unit++) {
            for (int step = 0; step < 200_000; step++) {
                value = value * 6364136223846793005L + 1442695040888963407L;
                value ^= value >>> 29;
            }
        }
        return value;
    }
}
