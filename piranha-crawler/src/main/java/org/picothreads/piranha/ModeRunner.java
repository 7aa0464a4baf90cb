package org.picothreads.piranha;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.picothreads.piranha.api.Crawl;
import org.picothreads.piranha.api.CrawlCounters;
import org.picothreads.piranha.api.CrawlSettings;
import org.picothreads.piranha.api.Spawner;

/**
 * Runs one mode's crawl from a root URL to its end or to the time limit, sampling heap and platform threads every
 * 100 ms and, when a progress display is given, showing the progress on it (see {@link ProgressDisplay}).
 */
final class ModeRunner {

    private final CrawlSettings settings;
    private final int poolSize;
    private final int queueCapacity;
    private final long timeLimitSeconds;
    /** The pages the progress bar counts to. */
    private final int expectedPages;
    /** Where the progress is shown; null for nowhere. */
    private final ProgressDisplay progress;
    /** The web server's process when it runs in another JVM, whose CPU time is measured; null otherwise. */
    private final ProcessHandle serverProcess;

    ModeRunner(CrawlSettings settings, int poolSize, int queueCapacity, long timeLimitSeconds, int expectedPages,
               ProgressDisplay progress) {
        this(settings, poolSize, queueCapacity, timeLimitSeconds, expectedPages, progress, null);
    }

    ModeRunner(CrawlSettings settings, int poolSize, int queueCapacity, long timeLimitSeconds, int expectedPages,
               ProgressDisplay progress, ProcessHandle serverProcess) {
        this.serverProcess = serverProcess;
        this.expectedPages = expectedPages;
        this.settings = settings;
        this.poolSize = poolSize;
        this.queueCapacity = queueCapacity;
        this.timeLimitSeconds = timeLimitSeconds;
        this.progress = progress;
    }

    /** Crawls from the root URL in the mode and returns its figures. */
    ModeResult run(Mode mode, String rootUrl) throws InterruptedException {
        if (mode == Mode.VIRTUAL && !VirtualSpawner.isAvailable()) {
            throw new IllegalStateException("virtual mode needs JDK 21 or later; this is Java " + Runtime.version());
        }
        System.gc();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        threads.resetPeakThreadCount();
        long gcBefore = gcMillis();
        CrawlCounters counters = new CrawlCounters();
        PoolSpawner pool = mode == Mode.POOL ? new PoolSpawner(poolSize, queueCapacity) : null;
        Spawner spawner = switch (mode) {
            case POOL -> pool;
            case VIRTUAL -> new VirtualSpawner();
            case PICO, PLATFORM -> null;
        };
        CrawlSettings effective = mode == Mode.POOL ? settings.withMaxFetching(Integer.MAX_VALUE) : settings;
        Crawl crawl = CrawlerLoader.newCrawl(mode, effective, counters, spawner);
        Sampler sampler = new Sampler(mode, counters, threads, memory);
        Thread samplerThread = new Thread(sampler, "piranha-sampler");
        samplerThread.setDaemon(true);
        CpuUse cpuAtStart = CpuUse.now();
        double serverAtStart = serverCpuSeconds();
        long start = System.nanoTime();
        sampler.start = start;
        samplerThread.start();
        crawl.start(rootUrl);
        boolean finished = counters.awaitFinished(timeLimitSeconds, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - start) / 1e9;
        long pages = counters.pages();
        long bytes = counters.bytes();
        long errors = counters.errors();
        CpuUse.Used cpu = CpuUse.now().since(cpuAtStart);
        double serverSeconds = serverProcess == null ? cpu.serverSeconds() : serverCpuSeconds() - serverAtStart;
        if (!finished) {
            crawl.stop();
            counters.awaitFinished(10, TimeUnit.SECONDS);
        }
        sampler.running = false;
        samplerThread.join();
        if (pool != null) {
            pool.close();
        }
        if (progress != null) {
            progress.end();
        }
        int peakOsThreads = Math.max(sampler.peakOsThreads, threads.getPeakThreadCount());
        return new ModeResult(mode, pages, seconds, bytes, counters.peakLiveThreads(), sampler.peakHeapBytes,
                peakOsThreads, gcMillis() - gcBefore, errors, counters.discarded(), finished,
                counters.bytesBySize(), counters.pageUrls(), cpu.processSeconds(), cpu.busiestThread(),
                cpu.busiestThreadSeconds(), serverAtStart < 0 ? -1 : serverSeconds, cpu.busiestThreadWaitSeconds());
    }

    /** The server process's CPU time so far; zero when it runs in this JVM, negative when unknown. */
    private double serverCpuSeconds() {
        if (serverProcess == null) {
            return 0;
        }
        return serverProcess.info().totalCpuDuration().map(duration -> duration.toNanos() / 1e9).orElse(-1.0);
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, collector.getCollectionTime());
        }
        return total;
    }

    /** Samples heap and thread counts, and shows the progress. */
    private final class Sampler implements Runnable {

        private final Mode mode;
        private final CrawlCounters counters;
        private final ThreadMXBean threads;
        private final MemoryMXBean memory;
        private volatile boolean running = true;
        private volatile long start;
        private volatile long peakHeapBytes;
        private volatile int peakOsThreads;

        Sampler(Mode mode, CrawlCounters counters, ThreadMXBean threads, MemoryMXBean memory) {
            this.mode = mode;
            this.counters = counters;
            this.threads = threads;
            this.memory = memory;
        }

        @Override
        public void run() {
            for (int tick = 0; running; tick++) {
                peakHeapBytes = Math.max(peakHeapBytes, memory.getHeapMemoryUsage().getUsed());
                peakOsThreads = Math.max(peakOsThreads, threads.getThreadCount());
                if (progress != null && tick % 3 == 0) {
                    progress.show(System.nanoTime() - start, mode.label(), counters.pages(),
                            Math.min(settings.maxPages(), expectedPages), counters.bytes(), counters.liveThreads());
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }
}
