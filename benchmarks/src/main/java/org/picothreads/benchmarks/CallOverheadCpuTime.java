package org.picothreads.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The workloads of {@link CallOverhead} measured by the measuring thread's CPU time, the two copies in alternating
 * slices within one JVM, so that the ratio holds on a machine whose load changes from second to second (where JMH's
 * wall-clock averages, one benchmark after the other, drift by more than the effect measured). Each round runs every
 * workload in four slices of about 20 ms, in the order A B B A with A alternating between the copies, and takes the
 * transformed copy's CPU time over the untransformed one's; the program prints, per workload, the median of the
 * rounds' ratios with their quartiles and the untransformed copy's CPU time per operation.
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.CallOverheadCpuTime [ROUNDS]      (30 by default)
 * </pre>
 *
 * Each copy's workload is called from a method of its own, so that every call site sees one receiver class, as in
 * {@link CallOverhead}'s separate benchmark methods.
 */
public final class CallOverheadCpuTime {
    /** The workloads, in the order printed. */
    private static final String[] WORKLOADS = {"recursive fib(25)", "tree walk", "loop of small calls"};
    /** Operations per slice, each slice about 20 ms of CPU on this machine. */
    private static final int[] OPERATIONS = {60, 300, 150};
    /**
     * Calls of each copy's workload method, one operation each, before the measured rounds: enough for the optimizing
     * compiler to compile the calling method itself with the workload inlined into it, as it compiles a JMH benchmark
     * method, and not only the workload.
     */
    private static final int WARMUP_CALLS = 6_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static CallHeavy untransformed;
    private static CallHeavy transformed;
    /** Receives every result, so that no workload's work can be dropped. */
    private static long sink;

    private CallOverheadCpuTime() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        untransformed = WorkloadLoader.load(false);
        transformed = WorkloadLoader.load(true);
        untransformed.buildTree(14);
        transformed.buildTree(14);
        for (int call = 0; call < WARMUP_CALLS; call++) {
            for (int workload = 0; workload < WORKLOADS.length; workload++) {
                cpuNanos(workload, false, 1);
                cpuNanos(workload, true, 1);
            }
        }
        double[][] ratios = new double[WORKLOADS.length][rounds];
        double[][] untransformedMicros = new double[WORKLOADS.length][rounds];
        for (int round = 0; round < rounds; round++) {
            boolean transformedFirst = round % 2 == 0;
            for (int workload = 0; workload < WORKLOADS.length; workload++) {
                int operations = OPERATIONS[workload];
                long first = cpuNanos(workload, transformedFirst, operations);
                long second = cpuNanos(workload, !transformedFirst, operations);
                second += cpuNanos(workload, !transformedFirst, operations);
                first += cpuNanos(workload, transformedFirst, operations);
                long transformedNanos = transformedFirst ? first : second;
                long untransformedNanos = transformedFirst ? second : first;
                ratios[workload][round] = (double) transformedNanos / untransformedNanos;
                untransformedMicros[workload][round] = untransformedNanos / 2.0 / OPERATIONS[workload] / 1000.0;
            }
        }
        for (int workload = 0; workload < WORKLOADS.length; workload++) {
            double[] sorted = ratios[workload].clone();
            Arrays.sort(sorted);
            double[] micros = untransformedMicros[workload].clone();
            Arrays.sort(micros);
            System.out.printf("%-20s transformed / untransformed %.3f (quartiles %.3f .. %.3f), untransformed %.1f us/op"
                    + " of CPU, %d rounds%n", WORKLOADS[workload], sorted[rounds / 2], sorted[rounds / 4],
                    sorted[3 * rounds / 4], micros[rounds / 2], rounds);
        }
        if (sink == 0) {
            System.out.println("(every workload returned 0)");
        }
    }

    /** The CPU time of one slice of the workload on one copy. */
    private static long cpuNanos(int workload, boolean ofTransformed, int operations) {
        long start = THREADS.getCurrentThreadCpuTime();
        sink += switch (workload) {
            case 0 -> ofTransformed ? fibTransformed(operations) : fibUntransformed(operations);
            case 1 -> ofTransformed ? treeWalkTransformed(operations) : treeWalkUntransformed(operations);
            default -> ofTransformed ? smallCallsTransformed(operations) : smallCallsUntransformed(operations);
        };
        return THREADS.getCurrentThreadCpuTime() - start;
    }

    private static long fibUntransformed(int operations) {
        long sum = 0;
        for (int operation = 0; operation < operations; operation++) {
            sum += untransformed.fib(25);
        }
        return sum;
    }

    private static long fibTransformed(int operations) {
        long sum = 0;
        for (int operation = 0; operation < operations; operation++) {
            sum += transformed.fib(25);
        }
        return sum;
    }

    private static long treeWalkUntransformed(int operations) {
        long sum = 0;
        for (int operation = 0; operation < operations; operation++) {
            sum += untransformed.walkTree();
        }
        return sum;
    }

    private static long treeWalkTransformed(int operations) {
        long sum = 0;
        for (int operation = 0; operation < operations; operation++) {
            sum += transformed.walkTree();
        }
        return sum;
    }

    private static long smallCallsUntransformed(int operations) {
        long sum = 0;
        for (int operation = 0; operation < operations; operation++) {
            sum += untransformed.smallCalls(100_000);
        }
        return sum;
    }

    private static long smallCallsTransformed(int operations) {
        long sum = 0;
        for (int operation = 0; operation < operations; operation++) {
            sum += transformed.smallCalls(100_000);
        }
        return sum;
    }
}
