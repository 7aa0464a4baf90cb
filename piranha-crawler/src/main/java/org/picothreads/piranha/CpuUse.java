package org.picothreads.piranha;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU time this JVM and each of its threads had used at one moment; {@link #since} compares two moments: the
 * JVM's CPU time, the busiest thread (the carrier in pico mode) and the in-process web server's thread. On Linux it
 * also reads each thread's {@code /proc/self/task/TID/schedstat}, whose second figure is the time the thread was
 * ready to run but waited for a core: on a loaded machine, the time a single carrier loses to other processes.
 */
final class CpuUse {

    /** The name of the embedded web server's selector thread, whose time is the server's, not the crawler's. */
    static final String SERVER_THREAD = "piranha-web-server";

    /** The JVM's CPU time in nanoseconds; negative when the platform does not tell. */
    private final long processNanos;
    /** CPU time of each live thread, by thread id. */
    private final Map<Long, Long> threadNanos = new HashMap<>();
    /** The name of each live thread, by thread id. */
    private final Map<Long, String> threadNames = new HashMap<>();
    /** The run-queue wait of a kernel name that several threads share. */
    private static final long AMBIGUOUS = Long.MIN_VALUE;
    /** Nanoseconds each native thread waited for a core, by its name as the kernel keeps it (15 characters). */
    private final Map<String, Long> runQueueNanos = new HashMap<>();

    private CpuUse() {
        OperatingSystemMXBean system = ManagementFactory.getOperatingSystemMXBean();
        processNanos = system instanceof com.sun.management.OperatingSystemMXBean withCpu
                ? withCpu.getProcessCpuTime() : -1;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads.isThreadCpuTimeSupported()) {
            long[] ids = threads.getAllThreadIds();
            ThreadInfo[] infos = threads.getThreadInfo(ids);
            for (int index = 0; index < ids.length; index++) {
                long nanos = threads.getThreadCpuTime(ids[index]);
                if (nanos >= 0 && infos[index] != null) {
                    threadNanos.put(ids[index], nanos);
                    threadNames.put(ids[index], infos[index].getThreadName());
                }
            }
        }
        readRunQueueWaits();
    }

    /** Reads the run-queue wait of every thread of this process, where the kernel tells it (Linux). */
    private void readRunQueueWaits() {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return;
        }
        try (Stream<Path> threads = Files.list(tasks)) {
            threads.forEach(task -> {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    String[] schedule = Files.readString(task.resolve("schedstat")).strip().split(" ");
                    // two threads under one kernel name (ForkJoinPool-1-worker-1 and -2): neither is told apart
                    runQueueNanos.merge(name, Long.parseLong(schedule[1]), (first, second) -> AMBIGUOUS);
                } catch (IOException | RuntimeException gone) {
                    // a thread that ended meanwhile, or a kernel without schedstat: no figure for it
                }
            });
        } catch (IOException | UncheckedIOException unreadable) {
            runQueueNanos.clear();
        }
    }

    /** The CPU time used so far. */
    static CpuUse now() {
        return new CpuUse();
    }

    /**
     * What was used between an earlier moment and this one.
     *
     * @param processSeconds        the JVM's CPU time, less the embedded server's; negative when unknown
     * @param busiestThread         the thread (not the server's) that used the most
     * @param busiestThreadSeconds  its CPU time
     * @param serverSeconds         the embedded server thread's CPU time; negative when the server is elsewhere
     * @param busiestThreadWaitSeconds the time the busiest thread was ready to run but had no core; negative when
     *                              unknown
     */
    record Used(double processSeconds, String busiestThread, double busiestThreadSeconds, double serverSeconds,
                double busiestThreadWaitSeconds) {
    }

    Used since(CpuUse start) {
        String busiest = "";
        long busiestNanos = 0;
        long serverNanos = -1;
        for (Map.Entry<Long, Long> thread : threadNanos.entrySet()) {
            long used = thread.getValue() - start.threadNanos.getOrDefault(thread.getKey(), 0L);
            String name = threadNames.get(thread.getKey());
            if (SERVER_THREAD.equals(name)) {
                serverNanos = used;
            } else if (used > busiestNanos) {
                busiestNanos = used;
                busiest = name;
            }
        }
        double process = processNanos < 0 || start.processNanos < 0 ? -1
                : (processNanos - start.processNanos - Math.max(0, serverNanos)) / 1e9;
        String kernelName = busiest.length() > 15 ? busiest.substring(0, 15) : busiest;
        Long waitedNow = runQueueNanos.get(kernelName);
        double waited = waitedNow == null || waitedNow == AMBIGUOUS || busiest.isEmpty()
                || start.runQueueNanos.getOrDefault(kernelName, 0L) == AMBIGUOUS ? -1
                : (waitedNow - start.runQueueNanos.getOrDefault(kernelName, 0L)) / 1e9;
        return new Used(process, busiest, busiestNanos / 1e9, serverNanos < 0 ? -1 : serverNanos / 1e9, waited);
    }
}
