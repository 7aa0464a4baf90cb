package org.picothreads.benchmarks;

import java.lang.management.ManagementFactory;

/** The CPU time this process has used, which the measuring harnesses print beside their wall times. */
public final class ProcessCpuTime {
    private ProcessCpuTime() {
    }

    /** The process's CPU time so far, user and system, in nanoseconds. */
    public static long nanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
