package org.picothreads.benchmarks.thirdparty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Issue 4's measurement: NanoHTTPD's published jars rewritten with the pico-transform CLI, on PicoThreads, against
 * the same jars unrewritten on platform threads (its {@code new Thread} per connection cannot be given virtual
 * threads without changing it). Each server runs in a child JVM; this JVM drives {@code CLIENTS} concurrent
 * keep-alive clients (virtual threads) for a warm-up and a measured window, checks every response, and prints one
 * JSON object on standard output (and a readable line per window on standard error). Each side is measured twice, in
 * the order PicoThreads, platform, platform, PicoThreads, each time with a server JVM of its own, and reported over
 * its two windows together.
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.thirdparty.ThirdPartyServerHarness \
 *       JARS [CLIENTS [WARMUP_SECONDS [SECONDS]]]
 * </pre>
 *
 * JARS is the directory holding NanoHTTPD's jars ({@code benchmarks/target/third-party} after a build); the
 * defaults are 1,000 clients, 5 s of warm-up and 10 s measured. With {@code -Dthirdparty.serverCpus=LIST} each
 * server runs under {@code taskset -c LIST} (Linux), for example to give both servers the same single core.
 */
public final class ThirdPartyServerHarness {
    private ThirdPartyServerHarness() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 4) {
            System.err.println("usage: ThirdPartyServerHarness JARS [CLIENTS [WARMUP_SECONDS [SECONDS]]]");
            System.exit(2);
        }
        Path jars = Path.of(args[0]);
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        Duration warmup = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 5);
        Duration measured = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 10);
        Path work = Files.createTempDirectory("pico-third-party");
        try {
            List<Path> published = ThirdPartyServer.publishedJars(jars);
            List<Path> rewritten = ThirdPartyServer.rewrite(published, work.resolve("rewritten"));
            List<Path> picoClassPath = new ArrayList<>(rewritten);
            picoClassPath.addAll(ThirdPartyServer.picoLibraries());
            ServedFiles files = ServedFiles.generate(work.resolve("www"));
            // Each side twice, in the order pico, platform, platform, pico: the harness's own JIT warms up during the
            // first window, and the machine's speed drifts, and neither then favours one side.
            Window picoFirst = side("pico", picoClassPath, files, clients, warmup, measured);
            Window platformFirst = side("platform", published, files, clients, warmup, measured);
            Window platformSecond = side("platform", published, files, clients, warmup, measured);
            Window picoSecond = side("pico", picoClassPath, files, clients, warmup, measured);
            String pico = Window.combined(picoFirst, picoSecond);
            String platform = Window.combined(platformFirst, platformSecond);
            String cpus = System.getProperty("thirdparty.serverCpus");
            System.out.println("{\"server\": \"" + published.get(0).getFileName() + " + "
                    + published.get(1).getFileName() + "\", \"serverCpus\": "
                    + (cpus == null ? "null" : "\"" + cpus + "\"") + ", \"clients\": " + clients
                    + ", \"warmupSeconds\": "
                    + warmup.toSeconds() + ", \"pinnedCallSites\": "
                    + (ThirdPartyServer.pinnedCallSites(ThirdPartyServer.reportOf(rewritten.get(0)))
                    + ThirdPartyServer.pinnedCallSites(ThirdPartyServer.reportOf(rewritten.get(1))))
                    + ", \"pico\": " + pico + ", \"platform\": " + platform + "}");
        } finally {
            try (Stream<Path> paths = Files.walk(work)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** One measured window of one side: its checked responses, its length, and the CPU the two JVMs used in it. */
    private record Window(long responses, double seconds, int serverThreads, long serverCpuNanos, long clientCpuNanos) {
        /** The windows of one side as one JSON object: their totals, then each window's rate. */
        static String combined(Window first, Window second) {
            long responses = first.responses + second.responses;
            double seconds = first.seconds + second.seconds;
            return String.format(Locale.ROOT, "{\"responses\": %d, \"seconds\": %.3f, \"requestsPerSecond\": %.1f,"
                    + " \"serverThreads\": %d, \"serverCpuMicrosPerRequest\": %.1f, \"clientCpuMicrosPerRequest\":"
                    + " %.1f, \"windowRequestsPerSecond\": [%.1f, %.1f]}", responses, seconds, responses / seconds,
                    Math.max(first.serverThreads, second.serverThreads),
                    (first.serverCpuNanos + second.serverCpuNanos) / 1e3 / responses,
                    (first.clientCpuNanos + second.clientCpuNanos) / 1e3 / responses,
                    first.responses / first.seconds, second.responses / second.seconds);
        }
    }

    /** Serves from a child JVM on {@code classPath} and measures one window of it. */
    private static Window side(String name, List<Path> classPath, ServedFiles files, int clients, Duration warmup,
            Duration measured) throws Exception {
        AtomicInteger threads = new AtomicInteger();
        AtomicLong cpuNanos = new AtomicLong();
        AtomicLong clientCpuNanos = new AtomicLong();
        com.sun.management.OperatingSystemMXBean clientJvm = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        KeepAliveClients.Measurement measurement;
        String cpus = System.getProperty("thirdparty.serverCpus");
        List<String> launcher = cpus == null ? List.of() : List.of("taskset", "-c", cpus);
        try (ThirdPartyServer server = ThirdPartyServer.start(launcher, classPath, files.directory(),
                List.of("-Xmx1g"))) {
            measurement = KeepAliveClients.measure(server.port(), files, clients, warmup, measured,
                    new KeepAliveClients.Window() {
                        @Override
                        public void started() {
                            cpuNanos.set(-sample(server::cpuNanos));
                            clientCpuNanos.set(-clientJvm.getProcessCpuTime());
                        }

                        @Override
                        public void middle() {
                            threads.set((int) sample(server::liveKernelThreads));
                        }

                        @Override
                        public void ended() {
                            cpuNanos.addAndGet(sample(server::cpuNanos));
                            clientCpuNanos.addAndGet(clientJvm.getProcessCpuTime());
                        }
                    });
        }
        double cpuMicrosPerRequest = cpuNanos.get() / 1e3 / measurement.responses();
        double clientCpuMicrosPerRequest = clientCpuNanos.get() / 1e3 / measurement.responses();
        System.err.printf(Locale.ROOT, "%-8s %,d clients: %,d checked responses in %.1f s = %,.0f requests/s; server"
                + " JVM: %d threads, %.0f us CPU per request; client JVM: %.0f us CPU per request%n", name, clients,
                measurement.responses(), measurement.seconds(), measurement.requestsPerSecond(), threads.get(),
                cpuMicrosPerRequest, clientCpuMicrosPerRequest);
        return new Window(measurement.responses(), measurement.seconds(), threads.get(), cpuNanos.get(),
                clientCpuNanos.get());
    }

    /** A reading of the server that may fail with an IOException. */
    private interface Reading {
        long read() throws IOException;
    }

    private static long sample(Reading reading) {
        try {
            return reading.read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
