package org.picothreads.piranha;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The figures of one mode's crawl.
 *
 * @param mode                    the mode
 * @param pages                   pages fetched (distinct final URLs answered 200)
 * @param seconds                 from the first spawn to the end of the crawl, or to the time limit
 * @param bytes                   body bytes received
 * @param peakLiveThreads         the most crawler threads alive at once
 * @param peakHeapBytes           the most heap in use at any sample
 * @param peakOsThreads           the most platform threads the JVM had at once
 * @param gcMillis                time the collectors reported during the crawl
 * @param errors                  fetches that failed: connection errors, timeouts, statuses other than 200
 * @param discarded               tasks the pool's full queue dropped
 * @param finished                whether the crawl ended by itself before the time limit
 * @param bytesBySize             body bytes received for pages of each body size
 * @param pageUrls                the final URL of every page fetched (empty when the crawl ran in another JVM)
 * @param cpuSeconds              CPU time of the crawler's JVM during the crawl (the web server's excluded when it
 *                                runs in the same JVM); negative when unknown
 * @param busiestThread           the name of the crawler JVM's thread that used the most CPU during the crawl
 * @param busiestThreadCpuSeconds that thread's CPU time during the crawl (for pico mode, the carrier's)
 * @param serverCpuSeconds        CPU time of the web server during the crawl; negative when unknown
 * @param busiestThreadWaitSeconds the time the busiest thread was ready to run but waited for a core (Linux
 *                                schedstat); negative when unknown
 */
record ModeResult(Mode mode, long pages, double seconds, long bytes, int peakLiveThreads, long peakHeapBytes,
                  int peakOsThreads, long gcMillis, long errors, long discarded, boolean finished,
                  Map<Integer, Long> bytesBySize, Set<String> pageUrls, double cpuSeconds, String busiestThread,
                  double busiestThreadCpuSeconds, double serverCpuSeconds, double busiestThreadWaitSeconds) {

    double pagesPerSecond() {
        return seconds > 0 ? pages / seconds : 0;
    }

    double kilobytesPerSecond() {
        return seconds > 0 ? bytes / 1024.0 / seconds : 0;
    }

    /** The crawl of median throughput among {@code runs} (of an even number, the lower of the middle two). */
    static ModeResult median(List<ModeResult> runs) {
        List<ModeResult> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(ModeResult::kilobytesPerSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** The same figures with the web server's CPU time measured outside the crawler's JVM. */
    ModeResult withServerCpuSeconds(double serverSeconds) {
        return new ModeResult(mode, pages, seconds, bytes, peakLiveThreads, peakHeapBytes, peakOsThreads, gcMillis,
                errors, discarded, finished, bytesBySize, pageUrls, cpuSeconds, busiestThread,
                busiestThreadCpuSeconds, serverSeconds, busiestThreadWaitSeconds);
    }
}
