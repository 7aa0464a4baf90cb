package org.picothreads.benchmarks;

import java.nio.file.Path;
import org.picothreads.benchmarks.jdk.JdkEcho;
import org.picothreads.benchmarks.pico.PicoEcho;

/**
 * The loopback echo of {@link LoopbackEcho} measured by wall time and by the process's CPU time, which a shared
 * machine makes less noisy: WARM_UPS runs (default 1), then RUNS measured runs (default 1) in the same JVM; prints each
 * measured run's wall and CPU milliseconds, the CPU time also split into user and system time (from /proc, at the
 * kernel's 10 ms tick; -1 where /proc is missing).
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.EchoCpuTime pico|virtual|platform CONNECTIONS ROUNDS [RUNS [WARM_UPS]]
 * </pre>
 *
 * For PicoThreads on one carrier add {@code -Dpicothreads.carriers=1}; for virtual threads on one carrier
 * {@code -Djdk.virtualThreadScheduler.parallelism=1 -Djdk.virtualThreadScheduler.maxPoolSize=1}. benchmarks/run.sh
 * runs it for each runtime in JVMs of their own, alternating, and the report gives the medians.
 */
public final class EchoCpuTime {
    private EchoCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 5 || !args[0].matches("pico|virtual|platform")) {
            System.err.println("usage: EchoCpuTime pico|virtual|platform CONNECTIONS ROUNDS [RUNS [WARM_UPS]]");
            System.exit(2);
        }
        int connections = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int measuredRuns = args.length >= 4 ? Integer.parseInt(args[3]) : 1;
        int warmUps = args.length == 5 ? Integer.parseInt(args[4]) : 1;
        Path stat = Path.of("/proc/self/stat");
        for (int run = 0; run < warmUps + measuredRuns; run++) {
            long cpuBefore = ProcessCpuTime.nanos();
            long userBefore = ProcessCpuTime.procStatNanos(stat, ProcessCpuTime.USER_TIME);
            long systemBefore = ProcessCpuTime.procStatNanos(stat, ProcessCpuTime.SYSTEM_TIME);
            long start = System.nanoTime();
            switch (args[0]) {
                case "pico" -> PicoEcho.run(connections, rounds);
                case "virtual" -> JdkEcho.run(Thread.ofVirtual(), connections, rounds);
                default -> JdkEcho.run(Thread.ofPlatform(), connections, rounds);
            }
            long wallMillis = (System.nanoTime() - start) / 1_000_000;
            long cpuMillis = (ProcessCpuTime.nanos() - cpuBefore) / 1_000_000;
            long userMillis = millisSince(userBefore, ProcessCpuTime.procStatNanos(stat, ProcessCpuTime.USER_TIME));
            long systemMillis = millisSince(systemBefore,
                    ProcessCpuTime.procStatNanos(stat, ProcessCpuTime.SYSTEM_TIME));
            if (run >= warmUps) {
                System.out.println(args[0] + " wall_ms " + wallMillis + " cpu_ms " + cpuMillis + " user_ms "
                        + userMillis + " system_ms " + systemMillis);
            }
        }
    }

    /** Milliseconds between two /proc readings, or -1 when either is missing. */
    private static long millisSince(long before, long after) {
        return before < 0 || after < 0 ? -1 : (after - before) / 1_000_000;
    }
}
