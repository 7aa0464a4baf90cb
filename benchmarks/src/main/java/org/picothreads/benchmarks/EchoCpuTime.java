package org.picothreads.benchmarks;

import org.picothreads.benchmarks.jdk.JdkEcho;
import org.picothreads.benchmarks.pico.PicoEcho;

/**
 * The loopback echo of {@link LoopbackEcho} measured by the process's CPU time rather than by wall time, which a
 * shared machine makes noisy: one warm-up run, then one measured run; prints its wall and CPU milliseconds.
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.EchoCpuTime pico|virtual CONNECTIONS ROUNDS
 * </pre>
 *
 * For virtual threads on one carrier add {@code -Djdk.virtualThreadScheduler.parallelism=1
 * -Djdk.virtualThreadScheduler.maxPoolSize=1}.
 */
public final class EchoCpuTime {
    private EchoCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !args[0].matches("pico|virtual")) {
            System.err.println("usage: EchoCpuTime pico|virtual CONNECTIONS ROUNDS");
            System.exit(2);
        }
        int connections = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        for (int run = 0; run < 2; run++) {
            long cpuBefore = ProcessCpuTime.nanos();
            long start = System.nanoTime();
            if (args[0].equals("pico")) {
                PicoEcho.run(connections, rounds);
            } else {
                JdkEcho.run(Thread.ofVirtual(), connections, rounds);
            }
            long wallMillis = (System.nanoTime() - start) / 1_000_000;
            long cpuMillis = (ProcessCpuTime.nanos() - cpuBefore) / 1_000_000;
            if (run == 1) {
                System.out.println(args[0] + " wall_ms " + wallMillis + " cpu_ms " + cpuMillis);
            }
        }
    }
}
