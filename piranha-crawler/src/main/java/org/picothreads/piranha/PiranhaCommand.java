package org.picothreads.piranha;

import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.picothreads.piranha.api.CrawlSettings;
import org.picothreads.piranha.web.PageSizes;
import org.picothreads.piranha.web.SyntheticWeb;
import org.picothreads.piranha.web.WebServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Piranha's command line: crawls the embedded synthetic web (or a given http://127.0.0.1 URL) in one mode or, with
 * {@code --compare}, in every mode, and prints a table of the figures; with no arguments, a one-minute demo.
 */
@Command(name = "piranha", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The PicoThreads paper's web crawler: one java.lang.Thread per URL, run as PicoThreads "
                + "(rewritten at build time), platform threads, a thread pool or virtual threads.",
            "With no arguments: a demo of about a minute comparing the modes on the embedded synthetic web."})
public final class PiranhaCommand implements Callable<Integer> {

    @Option(names = "--mode", description = "pico, platform, pool or virtual (default: pico)")
    private String mode;

    @Option(names = "--compare", description = "Run every mode on the same web and write a chart (--chart).")
    private boolean compare;

    @Option(names = "--pages", description = "Pages of the embedded web (all are crawled), or the page budget of a crawl of URL (default: ${DEFAULT-VALUE}).")
    private int pages = 2000;

    @Option(names = "--max-threads", description = "Crawler threads fetching at once, at most (default: ${DEFAULT-VALUE}).")
    private int maxThreads = 3000;

    @Option(names = "--pool-size", description = "Threads of pool mode (default: ${DEFAULT-VALUE}).")
    private int poolSize = 32;

    @Option(names = "--queue-size", description = "Pool mode's queue; a URL that finds it full is dropped (default: ${DEFAULT-VALUE}).")
    private int queueSize = 1000;

    @Option(names = "--rate", paramLabel = "BYTES_PER_S",
            description = "Each connection's bandwidth, 0 for no limit; 3600 is a 28.8 kbit/s modem (default: ${DEFAULT-VALUE}).")
    private long rate = 3600;

    @Option(names = "--latency", paramLabel = "MS", description = "Added before each response (default: ${DEFAULT-VALUE}).")
    private long latency = 100;

    @Option(names = "--page-size", paramLabel = "DIST",
            description = "Page body sizes: 20k, uniform:2k-64k or mix:1k,4k,16k (default: ${DEFAULT-VALUE}).")
    private String pageSize = "mix:1k,2k,4k,8k";

    @Option(names = "--links", description = "Links per page of the embedded web (default: ${DEFAULT-VALUE}).")
    private int links = 8;

    @Option(names = "--hosts", description = "Virtual hosts (ports) of the embedded web (default: ${DEFAULT-VALUE}).")
    private int hosts = 4;

    @Option(names = "--seed", description = "The embedded web's seed (default: ${DEFAULT-VALUE}).")
    private long seed = 1998;

    @Option(names = "--per-host", description = "Connections to one host at once, at most (default: ${DEFAULT-VALUE}).")
    private int perHost = 2000;

    @Option(names = "--depth", description = "Links followed from the root, at most (default: no limit).")
    private int depth = Integer.MAX_VALUE;

    @Option(names = "--connect-timeout", paramLabel = "MS", description = "(default: ${DEFAULT-VALUE})")
    private int connectTimeout = 10_000;

    @Option(names = "--read-timeout", paramLabel = "MS", description = "(default: ${DEFAULT-VALUE})")
    private int readTimeout = 30_000;

    @Option(names = "--seconds", description = "Time limit of each mode's crawl (default: ${DEFAULT-VALUE}).")
    private long seconds = 120;

    @Option(names = "--fetch-only", description = "Read bodies without the HTML parser; links come from a byte scan.")
    private boolean fetchOnly;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures as a JSON array, one object per mode.")
    private Path json;

    @Option(names = "--chart", paramLabel = "FILE",
            description = "Write the SVG chart here (with --compare; default: piranha-compare.svg).")
    private Path chart;

    @Option(names = "--serve", description = "Only serve the embedded web, printing its root URL, until stopped.")
    private boolean serve;

    @Parameters(arity = "0..1", paramLabel = "URL", description = "An http://127.0.0.1 URL to crawl instead of the embedded web.")
    private String url;

    private final PrintStream out;
    private final PrintStream err;

    PiranhaCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs Piranha; with no arguments, the demo. */
    public static void main(String[] arguments) {
        String[] effective = arguments.length == 0
                ? new String[] {"--compare", "--pages", "3000", "--seconds", "12", "--chart", "piranha-demo.svg"}
                : arguments;
        if (arguments.length == 0) {
            System.out.println("Piranha demo: every mode crawls a 3,000-page synthetic web on 127.0.0.1 whose server "
                    + "sends each connection 3,600 bytes/s (a 28.8 kbit/s modem) after 100 ms; at most 12 s per mode.");
        }
        CommandLine commandLine = new CommandLine(new PiranhaCommand(System.out, System.err))
                .setCaseInsensitiveEnumValuesAllowed(true);
        System.exit(commandLine.execute(effective));
    }

    @Override
    public Integer call() throws Exception {
        if (url != null && !isLoopbackUrl(url)) {
            err.println("piranha: crawls http://127.0.0.1 URLs only; refusing " + url);
            return 2;
        }
        List<Mode> modes = new ArrayList<>();
        if (compare) {
            for (Mode candidate : Mode.values()) {
                if (candidate != Mode.VIRTUAL || VirtualSpawner.isAvailable()) {
                    modes.add(candidate);
                } else {
                    err.println("piranha: virtual mode skipped: this JVM (Java " + Runtime.version().feature()
                            + ") has no virtual threads");
                }
            }
        } else {
            Mode chosen;
            try {
                chosen = mode == null ? Mode.PICO : Mode.valueOf(mode.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException unknown) {
                err.println("piranha: unknown mode '" + mode + "': pico, platform, pool or virtual");
                return 2;
            }
            if (chosen == Mode.VIRTUAL && !VirtualSpawner.isAvailable()) {
                err.println("piranha: virtual mode is unavailable: it needs JDK 21 or later, this is Java "
                        + Runtime.version().feature());
                return 2;
            }
            modes.add(chosen);
        }
        PageSizes sizes;
        try {
            sizes = PageSizes.parse(pageSize);
        } catch (IllegalArgumentException malformed) {
            err.println("piranha: " + malformed.getMessage());
            return 2;
        }
        WebServer server = null;
        String root = url;
        if (url == null) {
            server = WebServer.start(new SyntheticWeb(seed, pages, links, hosts, sizes), rate, latency);
            root = server.rootUrl();
            err.printf(Locale.ROOT, "piranha: embedded web of %d pages (seed %d, %d links per page, sizes %s) on "
                            + "127.0.0.1 ports %s, %s per connection, %d ms latency; root %s%n", pages, seed, links,
                    sizes, java.util.Arrays.toString(server.ports()),
                    rate == 0 ? "no bandwidth limit" : rate + " bytes/s", latency, root);
        }
        if (serve) {
            if (server == null) {
                err.println("piranha: --serve serves the embedded web; give no URL");
                return 2;
            }
            out.println(root);
            out.flush();
            Thread.currentThread().join();
            return 0;
        }
        try {
            int budget = url == null ? Integer.MAX_VALUE : pages;
            CrawlSettings settings = new CrawlSettings(budget, depth, maxThreads, perHost, connectTimeout, readTimeout,
                    5, fetchOnly);
            ModeRunner runner = new ModeRunner(settings, poolSize, queueSize, seconds, pages, err);
            List<ModeResult> results = new ArrayList<>();
            for (Mode each : modes) {
                err.println("piranha: crawling in " + each.label() + " mode");
                ModeResult result = runner.run(each, root);
                results.add(result);
                err.printf(Locale.ROOT, "piranha: %s: %d pages in %.1f s, %.1f KB/s%s%n", each.label(),
                        result.pages(), result.seconds(), result.kilobytesPerSecond(),
                        result.finished() ? "" : " (stopped at the time limit)");
            }
            out.print(Reports.table(results));
            out.flush();
            if (json != null) {
                Files.writeString(json, Reports.json(results), StandardCharsets.UTF_8);
            }
            if (compare) {
                Path chartFile = chart == null ? Path.of("piranha-compare.svg") : chart;
                String description = String.format(Locale.ROOT, "Piranha: %d pages, %s, %s per connection, %d ms "
                                + "latency, %s", pages, sizes, rate == 0 ? "unthrottled" : rate + " B/s", latency,
                        fetchOnly ? "fetch-only" : "jsoup");
                Files.writeString(chartFile, Chart.svg(results, description), StandardCharsets.UTF_8);
                err.println("piranha: chart written to " + chartFile);
            }
            return 0;
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    private static boolean isLoopbackUrl(String candidate) {
        try {
            URI uri = URI.create(candidate);
            return "http".equalsIgnoreCase(uri.getScheme()) && "127.0.0.1".equals(uri.getHost());
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

}
