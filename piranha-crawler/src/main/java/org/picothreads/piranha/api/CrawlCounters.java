package org.picothreads.piranha.api;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a crawl has done so far, updated by the crawler's threads and read by the driver: pages, bytes, errors, the
 * threads alive, and the end of the crawl (no task left to run). Never rewritten, so its latch is the JDK's.
 */
public final class CrawlCounters {

    private final LongAdder pages = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder discarded = new LongAdder();
    private final AtomicInteger liveThreads = new AtomicInteger();
    private final AtomicInteger peakLiveThreads = new AtomicInteger();
    /** Tasks spawned and not yet finished; the crawl is over when it returns to zero. */
    private final AtomicLong pendingTasks = new AtomicLong();
    private final CountDownLatch finished = new CountDownLatch(1);
    /** The final URL of every page fetched, with its body size. */
    private final Map<String, Integer> pageSizes = new ConcurrentHashMap<>();
    /** Bytes received for pages of each body size. */
    private final Map<Integer, LongAdder> bytesBySize = new ConcurrentHashMap<>();

    /** Counts a task about to be spawned; call before handing it to the spawner. */
    public void taskSpawned() {
        pendingTasks.incrementAndGet();
    }

    /** Counts a task that ended (or was discarded); the last one ends the crawl. */
    public void taskFinished() {
        if (pendingTasks.decrementAndGet() == 0) {
            finished.countDown();
        }
    }

    /** Counts a task the spawner discarded. */
    public void taskDiscarded() {
        discarded.increment();
        taskFinished();
    }

    /** Counts a crawler thread that began to run. */
    public void threadStarted() {
        int live = liveThreads.incrementAndGet();
        peakLiveThreads.accumulateAndGet(live, Math::max);
    }

    /** Counts a crawler thread that is about to end. */
    public void threadEnded() {
        liveThreads.decrementAndGet();
    }

    /** Records a page fetched: its final URL and its body's size. Returns false if that URL was already counted. */
    public boolean pageFetched(String finalUrl, int bodyBytes) {
        if (pageSizes.putIfAbsent(finalUrl, bodyBytes) != null) {
            return false;
        }
        pages.increment();
        bytes.add(bodyBytes);
        bytesBySize.computeIfAbsent(bodyBytes, size -> new LongAdder()).add(bodyBytes);
        return true;
    }

    /** Counts a fetch that failed: a connection error, a timeout, a status other than 200. */
    public void fetchFailed() {
        errors.increment();
    }

    /** Waits for the crawl to end; returns false if the timeout came first. */
    public boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return finished.await(timeout, unit);
    }

    public long pages() {
        return pages.sum();
    }

    public long bytes() {
        return bytes.sum();
    }

    public long errors() {
        return errors.sum();
    }

    public long discarded() {
        return discarded.sum();
    }

    public int liveThreads() {
        return liveThreads.get();
    }

    public int peakLiveThreads() {
        return peakLiveThreads.get();
    }

    /** The final URLs of the pages fetched. */
    public Set<String> pageUrls() {
        return Set.copyOf(pageSizes.keySet());
    }

    /** Bytes received for pages of each body size, in bytes. */
    public Map<Integer, Long> bytesBySize() {
        Map<Integer, Long> copy = new java.util.TreeMap<>();
        bytesBySize.forEach((size, adder) -> copy.put(size, adder.sum()));
        return copy;
    }
}
