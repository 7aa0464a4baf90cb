package org.picothreads.piranha;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The paper's Figures 3 and 4 drawn from crawls of the synthetic web, every point a crawl of the whole web in a
 * JVM of its own against a web server in another:
 *
 * <ul>
 *   <li>Figure 3, the thread pool: throughput against the pool's size, with the one-thread-per-URL modes (pico,
 *       platform, virtual) as reference lines, on the web of the command line's page size distribution;</li>
 *   <li>Figure 4, PicoThreads against one thread per URL: for each page size, a web of pages of that size only,
 *       crawled once unrecorded to warm its server up, then once in each of those modes per round, in an order that
 *       rotates from one round and one size to the next; the chart draws each mode's crawl of median throughput.</li>
 * </ul>
 *
 * It writes {@code figure3.svg}, {@code figure4.svg} and {@code figures.json} (every crawl's figures, with its round).
 */
final class Figures {

    /** Crawls the served web in a mode (with a pool of the size given, in pool mode) and returns its figures. */
    @FunctionalInterface
    interface Crawler {
        ModeResult crawl(Mode mode, SeparateJvms.WebProcess web, int poolSize) throws Exception;
    }

    /**
     * One crawl of a figure.
     *
     * @param figure         3 or 4
     * @param round          the crawl's round, from 1 (Figure 3 has one)
     * @param pageSize       the web's page sizes
     * @param poolSize       the pool's threads in pool mode, 0 otherwise
     * @param expectedPages  the pages the web has (a finished crawl fetches all of them)
     * @param expectedErrors its links to missing pages (a finished crawl meets each once)
     * @param result         the crawl's figures
     */
    record Point(int figure, int round, String pageSize, int poolSize, int expectedPages, long expectedErrors,
                 ModeResult result) {
    }

    private final WebSpec base;
    private final List<String> sizes;
    private final List<Integer> poolSizes;
    /** The one-thread-per-URL modes: Figure 3's reference lines and Figure 4's bars. */
    private final List<Mode> references;
    /** How many times Figure 4 crawls each of its points. */
    private final int rounds;
    private final Crawler crawler;
    private final SeparateJvms jvms;
    private final PrintStream log;

    Figures(WebSpec base, List<String> sizes, List<Integer> poolSizes, List<Mode> references, int rounds,
            Crawler crawler, SeparateJvms jvms, PrintStream log) {
        this.base = base;
        this.sizes = List.copyOf(sizes);
        this.poolSizes = List.copyOf(poolSizes);
        this.references = List.copyOf(references);
        this.rounds = rounds;
        this.crawler = crawler;
        this.jvms = jvms;
        this.log = log;
    }

    /** Runs every crawl of both figures and writes the charts and the JSON into the directory. */
    List<Point> draw(Path directory, boolean fetchOnly) throws Exception {
        List<Point> points = new ArrayList<>();
        try (SeparateJvms.WebProcess web = jvms.serve(base)) {
            for (int poolSize : poolSizes) {
                points.add(crawl(3, 1, web, Mode.POOL, poolSize));
            }
            for (Mode mode : references) {
                points.add(crawl(3, 1, web, mode, 0));
            }
        }
        for (int index = 0; index < sizes.size(); index++) {
            try (SeparateJvms.WebProcess web = jvms.serve(base.withPageSize(sizes.get(index)))) {
                warmUp(web, references.get(index % references.size()));
                // a rotating order as well: the first recorded crawl of a new server, and of each round, is each
                // mode's in turn
                for (int round = 0; round < rounds; round++) {
                    for (int offset = 0; offset < references.size(); offset++) {
                        Mode mode = references.get((index + round + offset) % references.size());
                        points.add(crawl(4, round + 1, web, mode, 0));
                    }
                }
            }
        }
        String parser = fetchOnly ? "fetch-only" : "jsoup";
        Files.writeString(directory.resolve("figures.json"), json(points, fetchOnly), StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("figure3.svg"), figure3(points, "Figure 3: the thread pool against one "
                + "thread per URL; " + base.describe() + ", " + parser), StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("figure4.svg"), figure4(points, String.format(Locale.ROOT,
                "Figure 4: one thread per URL by page size; %d pages of each size, %s per connection, %d ms latency, "
                        + "%s%s", base.pages(), base.rate() == 0 ? "unthrottled" : base.rate() + " B/s", base.latency(),
                parser, rounds > 1 ? "; the crawl of median throughput of " + rounds : "")),
                StandardCharsets.UTF_8);
        log.println("piranha: figures written to " + directory);
        return points;
    }

    /**
     * One crawl of a new server's web that no point records: the first crawl against a server JVM finds it still
     * compiling, and cost the server two to three times the CPU of the crawls after it (0.44 s against 0.15-0.21 for
     * 1,500 pages of 1 KB, 0.32 against 0.15 of 4 KB, 0.43 against 0.19-0.23 of 16 KB, in a quick run of run.sh), so
     * that whichever mode came first in the rotation crawled a slower server.
     */
    private void warmUp(SeparateJvms.WebProcess web, Mode mode) throws Exception {
        log.printf(Locale.ROOT, "piranha: Figure 4: warming up the server of %s with a crawl in %s mode%n",
                web.spec().pageSize(), mode.label());
        crawler.crawl(mode, web, 0);
    }

    private Point crawl(int figure, int round, SeparateJvms.WebProcess web, Mode mode, int poolSize)
            throws Exception {
        WebSpec spec = web.spec();
        log.printf(Locale.ROOT, "piranha: Figure %d: %s%s on %s%s%n", figure, mode.label(),
                poolSize > 0 ? " of " + poolSize + " threads" : "", spec.pageSize(),
                figure == 4 && rounds > 1 ? " (round " + round + " of " + rounds + ")" : "");
        ModeResult result = crawler.crawl(mode, web, poolSize);
        log.printf(Locale.ROOT, "piranha: Figure %d: %s%s on %s: %d pages in %.1f s, %.1f KB/s%n", figure,
                mode.label(), poolSize > 0 ? " of " + poolSize + " threads" : "", spec.pageSize(), result.pages(),
                result.seconds(), result.kilobytesPerSecond());
        return new Point(figure, round, spec.pageSize(), poolSize, spec.pages(), spec.web().brokenLinkCount(),
                result);
    }

    /** The JSON of {@code figures.json}: the web and one object per crawl. */
    String json(List<Point> points, boolean fetchOnly) {
        StringJoiner array = new StringJoiner(",\n", "[\n", "\n  ]");
        for (Point point : points) {
            array.add("    " + Reports.jsonObject(point.result(), String.format(Locale.ROOT,
                    "\"figure\": %d, \"round\": %d, \"pageSize\": \"%s\", \"poolSize\": %d, "
                            + "\"expectedPages\": %d, \"expectedErrors\": %d, ", point.figure(), point.round(),
                    point.pageSize(), point.poolSize(), point.expectedPages(), point.expectedErrors())));
        }
        return String.format(Locale.ROOT, "{\n  \"java\": \"%s\",\n  \"web\": {\"seed\": %d, \"pages\": %d, "
                        + "\"links\": %d, \"hosts\": %d, \"pageSize\": \"%s\", \"rate\": %d, \"latency\": %d},\n"
                        + "  \"fetchOnly\": %b,\n  \"points\": %s\n}\n", Runtime.version(), base.seed(),
                base.pages(), base.links(), base.hosts(), base.pageSize(), base.rate(), base.latency(), fetchOnly,
                array);
    }

    private static String figure3(List<Point> points, String description) {
        List<Integer> threads = new ArrayList<>();
        List<Double> throughput = new ArrayList<>();
        Map<String, Double> references = new LinkedHashMap<>();
        for (Point point : points) {
            if (point.figure() != 3) {
                continue;
            }
            if (point.result().mode() == Mode.POOL) {
                threads.add(point.poolSize());
                throughput.add(point.result().kilobytesPerSecond());
            } else {
                references.put(point.result().mode().label(), point.result().kilobytesPerSecond());
            }
        }
        return Chart.poolSweep(threads, throughput, references, description);
    }

    private static String figure4(List<Point> points, String description) {
        Map<String, Map<String, List<ModeResult>>> crawls = new LinkedHashMap<>();
        for (Point point : points) {
            if (point.figure() == 4) {
                crawls.computeIfAbsent(point.pageSize(), size -> new LinkedHashMap<>())
                        .computeIfAbsent(point.result().mode().label(), mode -> new ArrayList<>()).add(point.result());
            }
        }
        Map<String, Map<String, Double>> bySize = new LinkedHashMap<>();
        crawls.forEach((size, byMode) -> byMode.forEach((mode, results) -> bySize
                .computeIfAbsent(size, key -> new LinkedHashMap<>())
                .put(mode, ModeResult.median(results).kilobytesPerSecond())));
        return Chart.groupedBars(bySize, "throughput by page size (KB/s)", description);
    }
}
