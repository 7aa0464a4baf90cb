package org.picothreads.piranha;

import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
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

    @Option(names = "--mode", description = "pico, platform, pool or virtual (default: pico); with --compare, a "
            + "comma-separated list of the modes to compare (default: all).")
    private String mode;

    @Option(names = "--compare", description = "Run every mode, each in a JVM of its own, on the same web served by "
            + "another JVM, and write a chart (--chart).")
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

    @Option(names = "--progress", paramLabel = "STYLE", description = "How a crawl's progress shows on stderr: bar (one"
            + " line redrawn in place) or lines (a line every " + ProgressDisplay.SECONDS_PER_LINE + " s); default: bar"
            + " on a terminal, lines otherwise.")
    private String progress;

    @Option(names = "--serve", description = "Only serve the embedded web, printing its root URL, until stopped.")
    private boolean serve;

    @Option(names = "--warmup", paramLabel = "SECONDS",
            description = "Before a crawl, crawl the same web in the same mode again and again for this long (at least "
                    + "once), to warm the JIT (default: 0 for one mode, 20 for each JVM of --compare and --figures).")
    private Long warmup;

    @Option(names = "--rounds", description = "With --compare: run every mode this many times, in a rotating order; "
            + "the run of median KB/s is reported. With --figures: crawl every point of Figure 4 this many times, "
            + "the modes in a rotating order; the crawl of median KB/s is drawn (default: ${DEFAULT-VALUE}).")
    private int rounds = 1;

    @Option(names = "--jvm-option", paramLabel = "OPTION",
            description = "With --compare or --figures: an option for every crawler JVM, repeatable; {mode} is "
                    + "replaced by the mode (e.g. --jvm-option=-XX:StartFlightRecording=filename={mode}.jfr).")
    private List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--figures", paramLabel = "DIR",
            description = "Draw the paper's Figures 3 and 4 from crawls of the embedded web, each in its own JVM, "
                    + "into DIR (figure3.svg, figure4.svg, figures.json).")
    private Path figures;

    @Option(names = "--pool-sizes", paramLabel = "N,N,...", split = ",",
            description = "With --figures: the pool sizes of Figure 3 (default: ${DEFAULT-VALUE}).")
    private List<Integer> poolSizes = List.of(1, 2, 4, 8, 16, 32, 64, 128, 256);

    @Option(names = "--sizes", paramLabel = "SIZE,SIZE,...", split = ",",
            description = "With --figures: the page sizes of Figure 4, one crawl per size and mode "
                    + "(default: ${DEFAULT-VALUE}).")
    private List<String> figureSizes = List.of("1k", "4k", "16k", "64k");

    @Option(names = "--result", hidden = true, description = "Write the crawl's figures here, for the JVM that started it.")
    private Path resultFile;

    @Option(names = "--server-pid", hidden = true, description = "The web server's process, whose CPU time is measured.")
    private long serverPid;

    @Option(names = "--web-pages", hidden = true,
            description = "The URL serves the whole synthetic web of this many pages: crawl all of it.")
    private int webPages;

    @Option(names = "--exit-with-parent", hidden = true, description = "End when the process that started this one ends.")
    private boolean exitWithParent;

    @Parameters(arity = "0..1", paramLabel = "URL", description = "An http://127.0.0.1 URL to crawl instead of the embedded web.")
    private String url;

    private final PrintStream out;
    private final PrintStream err;
    /** The progress style of this run's crawls, from --progress or this JVM's terminal; set when the command runs. */
    private ProgressDisplay.Style progressStyle;

    PiranhaCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs Piranha; with no arguments, the demo. */
    public static void main(String[] arguments) {
        String[] effective = arguments.length == 0
                ? new String[] {"--compare", "--pages", "3000", "--seconds", "12", "--warmup", "3", "--chart",
                    "piranha-demo.svg"}
                : arguments;
        if (arguments.length == 0) {
            System.out.println("Piranha demo: every mode crawls a 3,000-page synthetic web on 127.0.0.1 whose server "
                    + "sends each connection 3,600 bytes/s (a 28.8 kbit/s modem) after 100 ms; each mode in a JVM of its own, "
                    + "after a 3 s warm-up crawl, for at most 12 s.");
        }
        CommandLine commandLine = new CommandLine(new PiranhaCommand(System.out, System.err))
                .setCaseInsensitiveEnumValuesAllowed(true);
        System.exit(commandLine.execute(effective));
    }

    @Override
    public Integer call() throws Exception {
        if (exitWithParent) {
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit()
                    .thenRun(() -> Runtime.getRuntime().halt(3)));
        }
        if (url != null && !isLoopbackUrl(url)) {
            err.println("piranha: crawls http://127.0.0.1 URLs only; refusing " + url);
            return 2;
        }
        PageSizes sizes;
        try {
            sizes = PageSizes.parse(pageSize);
            figureSizes.forEach(PageSizes::parse);
        } catch (IllegalArgumentException malformed) {
            err.println("piranha: " + malformed.getMessage());
            return 2;
        }
        try {
            progressStyle = progress == null ? ProgressDisplay.Style.forThisJvm()
                    : ProgressDisplay.Style.parse(progress);
        } catch (IllegalArgumentException malformed) {
            err.println("piranha: " + malformed.getMessage());
            return 2;
        }
        if (rounds < 1 || poolSizes.stream().anyMatch(size -> size < 1)) {
            err.println("piranha: --rounds and --pool-sizes take numbers of 1 or more");
            return 2;
        }
        if (figures != null) {
            if (url != null) {
                err.println("piranha: --figures crawls the embedded web; give no URL");
                return 2;
            }
            return drawFigures();
        }
        if (compare) {
            return compareInSeparateJvms(sizes);
        }
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
            boolean wholeWeb = url == null || webPages > 0;
            int expectedPages = webPages > 0 ? webPages : pages;
            CrawlSettings settings = new CrawlSettings(wholeWeb ? Integer.MAX_VALUE : pages, depth, maxThreads,
                    perHost, connectTimeout, readTimeout, 5, fetchOnly);
            ProcessHandle serverProcess = serverPid > 0 ? ProcessHandle.of(serverPid).orElse(null) : null;
            long warmupSeconds = warmup == null ? 0 : warmup;
            if (warmupSeconds > 0) {
                warmUp(chosen, settings, root, expectedPages, warmupSeconds);
            }
            err.println("piranha: crawling in " + chosen.label() + " mode");
            ModeResult result = new ModeRunner(settings, poolSize, queueSize, seconds, expectedPages,
                    new ProgressDisplay(err, progressStyle), serverProcess).run(chosen, root);
            err.printf(Locale.ROOT, "piranha: %s: %d pages in %.1f s, %.1f KB/s%s%n", chosen.label(),
                    result.pages(), result.seconds(), result.kilobytesPerSecond(),
                    result.finished() ? "" : " (stopped at the time limit)");
            out.print(Reports.table(List.of(result)));
            out.print(Reports.errorsNote(server == null ? -1 : server.web().brokenLinkCount()));
            out.flush();
            if (json != null) {
                Files.writeString(json, Reports.json(List.of(result)), StandardCharsets.UTF_8);
            }
            if (resultFile != null) {
                try (java.io.Writer writer = Files.newBufferedWriter(resultFile, StandardCharsets.UTF_8)) {
                    Reports.writeProperties(result, writer);
                }
            }
            return 0;
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /** {@code --compare}: every mode in a JVM of its own, against one web server in another JVM. */
    private int compareInSeparateJvms(PageSizes sizes) throws Exception {
        List<Mode> wanted = new ArrayList<>();
        if (mode == null) {
            wanted.addAll(List.of(Mode.values()));
        } else {
            for (String name : mode.split(",")) {
                try {
                    wanted.add(Mode.valueOf(name.strip().toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException unknown) {
                    err.println("piranha: unknown mode '" + name + "': pico, platform, pool or virtual");
                    return 2;
                }
            }
        }
        List<Mode> modes = availableModes(wanted);
        SeparateJvms jvms = new SeparateJvms(jvmOptions, err);
        WebSpec spec = webSpec(pageSize);
        SeparateJvms.WebProcess web = url == null ? jvms.serve(spec) : null;
        Map<Mode, List<ModeResult>> runs = new EnumMap<>(Mode.class);
        try {
            for (int round = 0; round < rounds; round++) {
                for (int index = 0; index < modes.size(); index++) {
                    Mode each = modes.get((index + round) % modes.size());
                    err.println("piranha: crawling in " + each.label() + " mode, in a JVM of its own"
                            + (rounds > 1 ? " (round " + (round + 1) + " of " + rounds + ")" : ""));
                    ModeResult result = crawlInSeparateJvm(jvms, each, web, crawlArguments(each, poolSize));
                    runs.computeIfAbsent(each, key -> new ArrayList<>()).add(result);
                }
            }
        } finally {
            if (web != null) {
                web.close();
            }
        }
        List<ModeResult> results = new ArrayList<>();
        for (Mode each : modes) {
            results.add(ModeResult.median(runs.get(each)));
        }
        out.print(Reports.table(results));
        out.print(Reports.errorsNote(url == null ? spec.web().brokenLinkCount() : -1));
        if (rounds > 1) {
            for (Mode each : modes) {
                StringJoiner all = new StringJoiner(", ");
                runs.get(each).forEach(run -> all.add(String.format(Locale.ROOT, "%.1f", run.kilobytesPerSecond())));
                out.println(each.label() + " KB/s in each round: " + all);
            }
        }
        out.flush();
        if (json != null) {
            Files.writeString(json, rounds == 1 ? Reports.json(results) : Reports.jsonOfRounds(runs, results),
                    StandardCharsets.UTF_8);
        }
        Path chartFile = chart == null ? Path.of("piranha-compare.svg") : chart;
        String description = String.format(Locale.ROOT, "Piranha, each mode in its own JVM: %s, %s",
                url == null ? spec.describe() : url, fetchOnly ? "fetch-only" : "jsoup");
        Files.writeString(chartFile, Chart.svg(results, description), StandardCharsets.UTF_8);
        err.println("piranha: chart written to " + chartFile);
        return 0;
    }

    /** {@code --figures}: the paper's Figures 3 and 4, each point a crawl in a JVM of its own. */
    private int drawFigures() throws Exception {
        Files.createDirectories(figures);
        SeparateJvms jvms = new SeparateJvms(jvmOptions, err);
        List<Mode> references = availableModes(List.of(Mode.PICO, Mode.PLATFORM, Mode.VIRTUAL));
        Figures drawing = new Figures(webSpec(pageSize), figureSizes, poolSizes, references, rounds,
                (mode, web, pool) -> crawlInSeparateJvm(jvms, mode, web, crawlArguments(mode, pool)), jvms, err);
        drawing.draw(figures, fetchOnly);
        return 0;
    }

    private ModeResult crawlInSeparateJvm(SeparateJvms jvms, Mode each, SeparateJvms.WebProcess web,
                                          List<String> arguments) throws Exception {
        List<String> all = new ArrayList<>(arguments);
        if (web != null) {
            all.addAll(List.of("--server-pid", Long.toString(web.pid()), "--web-pages",
                    Integer.toString(web.spec().pages())));
        } else {
            all.addAll(List.of("--pages", Integer.toString(pages)));
        }
        long timeout = warmupSeconds() + seconds + 120;
        return jvms.crawl(each, web == null ? url : web.rootUrl(), all, timeout);
    }

    /**
     * Crawls the web in {@code mode} again and again, each crawl from the root with threads of its own, until
     * {@code seconds} have passed (the last crawl stopped at that limit) or a crawl ends without finishing: at least
     * one crawl. One whole crawl is not always enough: an unthrottled web of 1,500 pages is crawled in about two
     * seconds, and the JIT was then still compiling (in pico mode, among others, the frame check's walk, a third of a
     * second of C2 time) during the measured crawl.
     */
    private void warmUp(Mode mode, CrawlSettings settings, String root, int expectedPages, long seconds)
            throws Exception {
        err.println("piranha: warming up: " + mode.label() + " mode crawls the web again and again for " + seconds
                + " s");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int crawls = 0;
        long remaining = seconds;
        while (true) {
            ModeResult crawl = new ModeRunner(settings, poolSize, queueSize, remaining, expectedPages, null)
                    .run(mode, root);
            crawls++;
            remaining = TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime());
            if (!crawl.finished() || remaining < 1) {
                break;
            }
        }
        err.println("piranha: warmed up with " + crawls + (crawls == 1 ? " crawl" : " crawls"));
    }

    private long warmupSeconds() {
        return warmup == null ? 20 : warmup;
    }

    /** The options of one crawl in a JVM of its own, the same for every mode but the pool's size. */
    private List<String> crawlArguments(Mode each, int pool) {
        List<String> arguments = new ArrayList<>(List.of("--max-threads", Integer.toString(maxThreads),
                "--pool-size", Integer.toString(pool), "--queue-size", Integer.toString(queueSize), "--per-host",
                Integer.toString(perHost), "--depth", Integer.toString(depth), "--connect-timeout",
                Integer.toString(connectTimeout), "--read-timeout", Integer.toString(readTimeout), "--seconds",
                Long.toString(seconds), "--warmup", Long.toString(warmupSeconds()), "--progress",
                progressStyle.label()));
        if (fetchOnly) {
            arguments.add("--fetch-only");
        }
        return arguments;
    }

    private WebSpec webSpec(String sizes) {
        return new WebSpec(seed, pages, links, hosts, sizes, rate, latency);
    }

    private List<Mode> availableModes(List<Mode> wanted) {
        List<Mode> available = new ArrayList<>();
        for (Mode candidate : wanted) {
            if (candidate != Mode.VIRTUAL || VirtualSpawner.isAvailable()) {
                available.add(candidate);
            } else {
                err.println("piranha: virtual mode skipped: this JVM (Java " + Runtime.version().feature()
                        + ") has no virtual threads");
            }
        }
        return available;
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
