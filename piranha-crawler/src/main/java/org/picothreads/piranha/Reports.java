package org.picothreads.piranha;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Writes mode results as the final table and as the JSON of {@code --json}, and passes one result from a crawl's
 * JVM to the JVM that started it as a properties file.
 */
final class Reports {

    private static final String BYTES_BY_SIZE = "bytesBySize.";

    private Reports() {
    }

    /** The table printed at the end, one row per mode. */
    static String table(List<ModeResult> results) {
        StringBuilder table = new StringBuilder();
        String header = "%-9s %6s %7s %8s %8s %9s %8s %8s %6s %6s %9s %8s %8s  %s%n";
        table.append(String.format(Locale.ROOT, header, "mode", "pages", "seconds", "pages/s", "KB/s", "peak live",
                "peak", "peak OS", "GC ms", "errors", "discarded", "crawler", "server", "busiest thread"));
        table.append(String.format(Locale.ROOT, header, "", "", "", "", "", "threads", "heap MB", "threads", "", "",
                "", "CPU s", "CPU s", "(CPU s and share of the wall time; waiting for a core)"));
        for (ModeResult result : results) {
            table.append(String.format(Locale.ROOT,
                    "%-9s %6d %7.1f %8.1f %8.1f %9d %8.1f %8d %6d %6d %9d %8s %8s  %s%s%n",
                    result.mode().label(), result.pages(), result.seconds(), result.pagesPerSecond(),
                    result.kilobytesPerSecond(), result.peakLiveThreads(), result.peakHeapBytes() / 1048576.0,
                    result.peakOsThreads(), result.gcMillis(), result.errors(), result.discarded(),
                    seconds(result.cpuSeconds()), seconds(result.serverCpuSeconds()), busiest(result),
                    result.finished() ? "" : "  (time limit)"));
        }
        return table.toString();
    }

    /**
     * The line printed under the table that says what its errors column counts: {@code brokenLinks} is how many
     * links of the crawled synthetic web lead to a missing page, or negative for a web given by URL.
     */
    static String errorsNote(long brokenLinks) {
        String note = "errors: fetches that failed (a status other than 200, a refused or reset connection, a timeout)";
        if (brokenLinks < 0) {
            return note + ".\n";
        }
        return String.format(Locale.ROOT, "%s; the synthetic web links to a missing page %d times on purpose (a 404"
                + " each), so a crawl of all of it counts %d errors.%n", note, brokenLinks, brokenLinks);
    }

    private static String seconds(double value) {
        return value < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String busiest(ModeResult result) {
        if (result.busiestThread().isEmpty()) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%s (%.1f s, %.0f%%; %s s)", result.busiestThread(),
                result.busiestThreadCpuSeconds(), 100 * result.busiestThreadCpuSeconds() / result.seconds(),
                seconds(result.busiestThreadWaitSeconds()));
    }

    /** The JSON array of {@code --json}: one object per mode. */
    static String json(List<ModeResult> results) {
        StringJoiner array = new StringJoiner(",\n", "[\n", "\n]\n");
        for (ModeResult result : results) {
            array.add("  " + jsonObject(result, ""));
        }
        return array.toString();
    }

    /**
     * The JSON array of {@code --json} after several rounds: one object per run, with its round (from 1) and
     * whether it is the mode's median run, the one the table shows.
     */
    static String jsonOfRounds(Map<Mode, List<ModeResult>> runs, List<ModeResult> medians) {
        StringJoiner array = new StringJoiner(",\n", "[\n", "\n]\n");
        runs.forEach((mode, results) -> {
            for (int round = 0; round < results.size(); round++) {
                ModeResult result = results.get(round);
                array.add("  " + jsonObject(result, String.format(Locale.ROOT, "\"round\": %d, \"median\": %b, ",
                        round + 1, medians.contains(result))));
            }
        });
        return array.toString();
    }

    /** One result as a JSON object, with extra members (a JSON fragment such as {@code "a": 1, }) first. */
    static String jsonObject(ModeResult result, String extraMembers) {
        StringJoiner sizes = new StringJoiner(", ", "{", "}");
        for (Map.Entry<Integer, Long> entry : result.bytesBySize().entrySet()) {
            sizes.add("\"" + entry.getKey() + "\": " + entry.getValue());
        }
        return String.format(Locale.ROOT, "{%s\"mode\": \"%s\", \"pages\": %d, \"seconds\": %.3f, "
                        + "\"pagesPerSecond\": %.2f, \"kilobytesPerSecond\": %.1f, \"bytes\": %d, "
                        + "\"peakLiveThreads\": %d, \"peakHeapBytes\": %d, \"peakOsThreads\": %d, \"errors\": %d, "
                        + "\"gcMillis\": %d, \"discarded\": %d, \"finished\": %b, \"cpuSeconds\": %.2f, "
                        + "\"busiestThread\": \"%s\", \"busiestThreadCpuSeconds\": %.2f, \"busiestThreadWaitSeconds\": %.2f, "
                        + "\"serverCpuSeconds\": %.2f, "
                        + "\"bytesBySize\": %s}",
                extraMembers, result.mode().label(), result.pages(), result.seconds(), result.pagesPerSecond(),
                result.kilobytesPerSecond(), result.bytes(), result.peakLiveThreads(), result.peakHeapBytes(),
                result.peakOsThreads(), result.errors(), result.gcMillis(), result.discarded(), result.finished(),
                result.cpuSeconds(), result.busiestThread().replace("\\", "\\\\").replace("\"", "\\\""),
                result.busiestThreadCpuSeconds(), result.busiestThreadWaitSeconds(), result.serverCpuSeconds(), sizes);
    }

    /** Writes a result for the JVM that started this crawl (the page URLs are left out). */
    static void writeProperties(ModeResult result, Writer writer) throws IOException {
        Properties properties = new Properties();
        properties.setProperty("mode", result.mode().name());
        properties.setProperty("pages", Long.toString(result.pages()));
        properties.setProperty("seconds", Double.toString(result.seconds()));
        properties.setProperty("bytes", Long.toString(result.bytes()));
        properties.setProperty("peakLiveThreads", Integer.toString(result.peakLiveThreads()));
        properties.setProperty("peakHeapBytes", Long.toString(result.peakHeapBytes()));
        properties.setProperty("peakOsThreads", Integer.toString(result.peakOsThreads()));
        properties.setProperty("gcMillis", Long.toString(result.gcMillis()));
        properties.setProperty("errors", Long.toString(result.errors()));
        properties.setProperty("discarded", Long.toString(result.discarded()));
        properties.setProperty("finished", Boolean.toString(result.finished()));
        properties.setProperty("cpuSeconds", Double.toString(result.cpuSeconds()));
        properties.setProperty("busiestThread", result.busiestThread());
        properties.setProperty("busiestThreadCpuSeconds", Double.toString(result.busiestThreadCpuSeconds()));
        properties.setProperty("serverCpuSeconds", Double.toString(result.serverCpuSeconds()));
        properties.setProperty("busiestThreadWaitSeconds", Double.toString(result.busiestThreadWaitSeconds()));
        result.bytesBySize().forEach((size, bytes) -> properties.setProperty(BYTES_BY_SIZE + size, bytes.toString()));
        properties.store(writer, "one Piranha crawl");
    }

    /** Reads a result {@link #writeProperties} wrote; throws IllegalArgumentException if a figure is missing. */
    static ModeResult readProperties(Reader reader) throws IOException {
        Properties properties = new Properties();
        properties.load(reader);
        Map<Integer, Long> bytesBySize = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith(BYTES_BY_SIZE)) {
                bytesBySize.put(Integer.parseInt(name.substring(BYTES_BY_SIZE.length())),
                        Long.parseLong(properties.getProperty(name)));
            }
        }
        try {
            return new ModeResult(Mode.valueOf(required(properties, "mode")),
                    Long.parseLong(required(properties, "pages")), Double.parseDouble(required(properties, "seconds")),
                    Long.parseLong(required(properties, "bytes")),
                    Integer.parseInt(required(properties, "peakLiveThreads")),
                    Long.parseLong(required(properties, "peakHeapBytes")),
                    Integer.parseInt(required(properties, "peakOsThreads")),
                    Long.parseLong(required(properties, "gcMillis")), Long.parseLong(required(properties, "errors")),
                    Long.parseLong(required(properties, "discarded")),
                    Boolean.parseBoolean(required(properties, "finished")), bytesBySize, Set.of(),
                    Double.parseDouble(required(properties, "cpuSeconds")), required(properties, "busiestThread"),
                    Double.parseDouble(required(properties, "busiestThreadCpuSeconds")),
                    Double.parseDouble(required(properties, "serverCpuSeconds")),
                    Double.parseDouble(required(properties, "busiestThreadWaitSeconds")));
        } catch (NumberFormatException malformed) {
            throw new IllegalArgumentException("a malformed crawl result: " + malformed.getMessage(), malformed);
        }
    }

    private static String required(Properties properties, String name) {
        String value = properties.getProperty(name);
        if (value == null) {
            throw new IllegalArgumentException("a crawl result without " + name);
        }
        return value;
    }
}
