package org.picothreads.benchmarks.pico;

import java.util.concurrent.atomic.AtomicLong;
import org.picothreads.benchmarks.ProcessCpuTime;

/**
 * Issue 12's thread-per-task compute+sleep workload, the PicoThread side: plain {@code new Thread} code that
 * pico-maven-plugin rewrites. THREADS threads each, ROUNDS times, compute UNITS units (a fixed loop of about half a
 * millisecond each on this machine) and sleep 1 ms; three runs, each printing its wall and process CPU milliseconds
 * and the checksum of the threads' results. {@code org.picothreads.benchmarks.jdk.ComputeSleepVirtualThreads} is the
 * same code on virtual threads, not rewritten; keep the two in step.
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.pico.ComputeSleepThreads THREADS ROUNDS UNITS
 * </pre>
 */
public final class ComputeSleepThreads {
    /** The sum of every thread's result, printed so that the computation cannot be left out. */
    private static final AtomicLong CHECKSUM = new AtomicLong();

    private ComputeSleepThreads() {
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
                all[index] = new Thread(() -> task(task, rounds, units));
                all[index].start();
            }
            for (Thread thread : all) {
                thread.join();
            }
            System.out.println("pico run " + run + " wall_ms " + (System.nanoTime() - start) / 1_000_000 + " cpu_ms "
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
