package org.picothreads.piranha;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time this JVM and each of its threads had used at one moment; {@link #since} compares two moments: the
 * JVM's CPU time, the busiest thread (the carrier in pico mode) and the in-process web server's thread.
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
     */
    record Used(double processSeconds, String busiestThread, double busiestThreadSeconds, double serverSeconds) {
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
        return new Used(process, busiest, busiestNanos / 1e9, serverNanos < 0 ? -1 : serverNanos / 1e9);
    }
}
