package org.picothreads.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.picothreads.benchmarks.jdk.JdkSleepers;
import org.picothreads.benchmarks.pico.PicoSleepers;

/**
 * Memory per suspended thread, outside JMH: {@code java -cp benchmarks.jar org.picothreads.benchmarks.Footprint
 * RUNTIME THREADS DEPTH}, RUNTIME one of {@code pico}, {@code virtual}, {@code platform}. Measures the used heap
 * after a full GC and the process RSS, starts THREADS daemon threads that each descend DEPTH frames and sleep
 * there, waits until all have arrived and settled, measures again and prints one line of JSON with the growth per
 * thread. Run one JVM per runtime; a warm-up thread of the same runtime runs first, so that loading the runtime's
 * classes and starting its carrier are not counted. The line also gives the bytes the other threads (the runtime's
 * carriers and helpers) allocated per thread meanwhile, kept or garbage: the garbage left before the first collection
 * is what makes the RSS grow more than the heap.
 */
public final class Footprint {

    private Footprint() {
    }

    public static void main(String[] args) throws Exception {
        String runtime = args[0];
        int count = Integer.parseInt(args[1]);
        int depth = Integer.parseInt(args[2]);

        Thread[] warmUp = start(runtime, 1, depth, 1, new AtomicInteger());
        join(runtime, warmUp);
        long heapBefore = usedHeapAfterGc();
        long rssBefore = status("VmRSS");
        long allocatedBefore = allocatedByOtherThreads();

        AtomicInteger arrived = new AtomicInteger();
        long startNanos = System.nanoTime();
        start(runtime, count, depth, 3_600_000, arrived);
        while (arrived.get() < count) {
            Thread.sleep(10);
        }
        long startedMillis = (System.nanoTime() - startNanos) / 1_000_000;
        Thread.sleep(1_000);
        long allocatedAfter = allocatedByOtherThreads();
        long heapAfter = usedHeapAfterGc();
        long rssAfter = status("VmRSS");
        System.out.printf("{\"runtime\": \"%s\", \"threads\": %d, \"depth\": %d, \"heapPerThread\": %s,"
                + " \"rssPerThread\": %s, \"runtimeAllocatedPerThread\": %s, \"heapBefore\": %d, \"heapAfter\": %d,"
                + " \"rssBefore\": %d, \"rssAfter\": %d, \"startMillis\": %d, \"java\": \"%s\"}%n", runtime, count,
                depth, perThread("heap", heapBefore, heapAfter, count), perThread("RSS", rssBefore, rssAfter, count),
                perThread("runtime allocation", allocatedBefore, allocatedAfter, count), heapBefore, heapAfter,
                rssBefore, rssAfter, startedMillis, System.getProperty("java.version"));
    }

    /**
     * The growth per thread as JSON: a number, or null (with the reason on stderr) when the measurement shrank or
     * is missing, which says nothing about the threads.
     */
    static String perThread(String what, long before, long after, int count) {
        if (before < 0 || after < 0 || after < before) {
            System.err.printf("Footprint: no %s figure per thread: %d bytes before the threads started, %d after%n",
                    what, before, after);
            return "null";
        }
        return Long.toString((after - before) / count);
    }

    private static Thread[] start(String runtime, int count, int depth, long sleepMillis, AtomicInteger arrived) {
        return switch (runtime) {
            case "pico" -> PicoSleepers.start(count, depth, sleepMillis, arrived);
            case "virtual" -> JdkSleepers.start(Thread.ofVirtual(), count, depth, sleepMillis, arrived);
            case "platform" -> JdkSleepers.start(Thread.ofPlatform(), count, depth, sleepMillis, arrived);
            default -> throw new IllegalArgumentException("runtime must be pico, virtual or platform: " + runtime);
        };
    }

    private static void join(String runtime, Thread[] threads) throws InterruptedException {
        if (runtime.equals("pico")) {
            PicoSleepers.joinAll(threads);
        } else {
            JdkSleepers.joinAll(threads);
        }
    }

    /**
     * The heap the last of several full collections left in use, in bytes: each heap pool's usage as that
     * collection ended ({@link MemoryPoolMXBean#getCollectionUsage()}). The heap's current usage would count the
     * allocation buffers (TLABs) threads took since, whole: in a JVM with a large young generation and few threads
     * that is megabytes, enough to make the growth per thread negative.
     */
    static long usedHeapAfterGc() throws InterruptedException {
        for (int round = 0; round < 5; round++) {
            System.gc();
            Thread.sleep(50);
        }
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage afterCollection = pool.getCollectionUsage();
            if (pool.getType() == MemoryType.HEAP && afterCollection != null) {
                used += afterCollection.getUsed();
            }
        }
        return used;
    }

    /**
     * The bytes every live platform thread but the calling one has allocated so far
     * ({@link com.sun.management.ThreadMXBean#getThreadAllocatedBytes(long[])}), or -1 where the JVM does not count
     * them. PicoThreads and virtual threads are not platform threads: what they allocate counts for their carriers.
     */
    static long allocatedByOtherThreads() {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
                || !threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()) {
            return -1;
        }
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        long caller = Thread.currentThread().threadId();
        long total = 0;
        for (int index = 0; index < ids.length; index++) {
            if (ids[index] != caller && bytes[index] > 0) {
                total += bytes[index];
            }
        }
        return total;
    }

    /** A size line of /proc/self/status ({@code VmRSS}, {@code VmHWM}) in bytes, or -1 where there is none. */
    static long status(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(key + ":")) {
                    return Long.parseLong(line.substring(key.length() + 1).replace("kB", "").trim()) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
