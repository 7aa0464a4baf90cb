package org.picothreads.piranha;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** Writes mode results as the final table and as the JSON array of {@code --json}. */
final class Reports {

    private Reports() {
    }

    /** The table printed at the end, one row per mode. */
    static String table(List<ModeResult> results) {
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%-9s %8s %8s %9s %10s %12s %12s %11s %8s %7s %9s%n", "mode",
                "pages", "seconds", "pages/s", "KB/s", "peak live", "peak heap", "peak OS", "GC ms", "errors",
                "discarded"));
        table.append(String.format(Locale.ROOT, "%-9s %8s %8s %9s %10s %12s %12s %11s %8s %7s %9s%n", "", "", "",
                "", "", "threads", "MB", "threads", "", "", ""));
        for (ModeResult result : results) {
            table.append(String.format(Locale.ROOT, "%-9s %8d %8.1f %9.1f %10.1f %12d %12.1f %11d %8d %7d %9d%s%n",
                    result.mode().label(), result.pages(), result.seconds(), result.pagesPerSecond(),
                    result.kilobytesPerSecond(), result.peakLiveThreads(), result.peakHeapBytes() / 1048576.0,
                    result.peakOsThreads(), result.gcMillis(), result.errors(), result.discarded(),
                    result.finished() ? "" : "  (time limit)"));
        }
        return table.toString();
    }

    /** The JSON array of {@code --json}: one object per mode. */
    static String json(List<ModeResult> results) {
        StringJoiner array = new StringJoiner(",\n", "[\n", "\n]\n");
        for (ModeResult result : results) {
            StringJoiner sizes = new StringJoiner(", ", "{", "}");
            for (Map.Entry<Integer, Long> entry : result.bytesBySize().entrySet()) {
                sizes.add("\"" + entry.getKey() + "\": " + entry.getValue());
            }
            array.add(String.format(Locale.ROOT, "  {\"mode\": \"%s\", \"pages\": %d, \"seconds\": %.3f, "
                            + "\"pagesPerSecond\": %.2f, \"bytes\": %d, \"peakLiveThreads\": %d, "
                            + "\"peakHeapBytes\": %d, \"peakOsThreads\": %d, \"errors\": %d, \"gcMillis\": %d, "
                            + "\"discarded\": %d, \"finished\": %b, \"bytesBySize\": %s}",
                    result.mode().label(), result.pages(), result.seconds(), result.pagesPerSecond(), result.bytes(),
                    result.peakLiveThreads(), result.peakHeapBytes(), result.peakOsThreads(), result.errors(),
                    result.gcMillis(), result.discarded(), result.finished(), sizes));
        }
        return array.toString();
    }
}
