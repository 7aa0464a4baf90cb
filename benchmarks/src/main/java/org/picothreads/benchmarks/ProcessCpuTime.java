package org.picothreads.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time this process, a child process or the children it has waited for have used, which the measuring
 * harnesses print beside their wall times.
 */
public final class ProcessCpuTime {
    /** The field of a process's user time in its /proc stat file, counted from 1 as proc(5) does. */
    public static final int USER_TIME = 14;
    /** The field of its system time. */
    public static final int SYSTEM_TIME = 15;
    /** The field of the user time of the children it has waited for. */
    public static final int CHILDREN_USER_TIME = 16;
    /** The field of their system time. */
    public static final int CHILDREN_SYSTEM_TIME = 17;
    /** Nanoseconds per clock tick of /proc's times (USER_HZ, 100 on Linux). */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcessCpuTime() {
    }

    /** The process's CPU time so far, user and system, in nanoseconds. */
    public static long nanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * One time field ({@link #USER_TIME}, {@link #SYSTEM_TIME} or the children's) of a process's {@code stat} file
     * under /proc, in nanoseconds, at the kernel's clock tick; -1 where the file is missing.
     */
    public static long procStatNanos(Path stat, int field) throws IOException {
        if (!Files.exists(stat)) {
            return -1;
        }
        return Long.parseLong(statFields(stat)[field - 3]) * NANOS_PER_TICK;
    }

    /**
     * The sum of two time fields ({@link #USER_TIME} and {@link #SYSTEM_TIME}, or the children's) of a process's
     * {@code stat} file under /proc, in nanoseconds, at the kernel's clock tick; -1 where the file is missing.
     */
    public static long procStatNanos(Path stat, int firstField, int secondField) throws IOException {
        if (!Files.exists(stat)) {
            return -1;
        }
        String[] fields = statFields(stat);
        return (Long.parseLong(fields[firstField - 3]) + Long.parseLong(fields[secondField - 3])) * NANOS_PER_TICK;
    }

    /**
     * The fields of a /proc stat file after the command name, which is in parentheses and may itself hold spaces; the
     * first of them, the state, is field 3.
     */
    private static String[] statFields(Path stat) throws IOException {
        String line = Files.readString(stat);
        return line.substring(line.lastIndexOf(')') + 2).split(" ");
    }
}
