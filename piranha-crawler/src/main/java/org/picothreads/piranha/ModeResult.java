package org.picothreads.piranha;

import java.util.Map;
import java.util.Set;

/**
 * The figures of one mode's crawl.
 *
 * @param mode            the mode
 * @param pages           pages fetched (distinct final URLs answered 200)
 * @param seconds         from the first spawn to the end of the crawl, or to the time limit
 * @param bytes           body bytes received
 * @param peakLiveThreads the most crawler threads alive at once
 * @param peakHeapBytes   the most heap in use at any sample
 * @param peakOsThreads   the most platform threads the JVM had at once
 * @param gcMillis        time the collectors reported during the crawl
 * @param errors          fetches that failed: connection errors, timeouts, statuses other than 200
 * @param discarded       tasks the pool's full queue dropped
 * @param finished        whether the crawl ended by itself before the time limit
 * @param bytesBySize     body bytes received for pages of each body size
 * @param pageUrls        the final URL of every page fetched
 */
record ModeResult(Mode mode, long pages, double seconds, long bytes, int peakLiveThreads, long peakHeapBytes,
                  int peakOsThreads, long gcMillis, long errors, long discarded, boolean finished,
                  Map<Integer, Long> bytesBySize, Set<String> pageUrls) {

    double pagesPerSecond() {
        return seconds > 0 ? pages / seconds : 0;
    }

    double kilobytesPerSecond() {
        return seconds > 0 ? bytes / 1024.0 / seconds : 0;
    }
}
