package org.picothreads.benchmarks.thirdparty;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.picothreads.benchmarks.ProcessCpuTime;
import org.picothreads.net.PicoSocket;
import org.picothreads.runtime.PicoThread;

/**
 * NanoHTTPD's {@code SimpleWebServer}, an unmodified third-party server that starts one {@code new Thread} per
 * connection, serving a directory from a child JVM: either its jars as Maven Central publishes them, on platform
 * threads, or the same jars rewritten by the pico-transform CLI, on PicoThreads (class path: the rewritten jars,
 * pico-runtime and pico-net). The server's main waits on {@code System.in.read()}; the child's standard input is a
 * pipe this object holds open, and closing it stops the server the way pressing Enter would.
 */
public final class ThirdPartyServer implements AutoCloseable {
    /** The CLI's main class: the same command as {@code java -jar pico-transform.jar}. */
    private static final String CLI_MAIN = "org.picothreads.transform.cli.TransformCommand";
    private static final String SERVER_MAIN = "fi.iki.elonen.SimpleWebServer";
    private static final Pattern PINNED_CALL_SITES = Pattern.compile("\"pinnedCallSites\": (\\d+)\\s*}\\s*}\\s*$");

    private final Process process;
    private final int port;
    /** What the child wrote to standard output and error, kept for failure messages. */
    private final StringBuffer output = new StringBuffer();

    private ThirdPartyServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** NanoHTTPD's two published jars, found by name in {@code directory}: the core first, then the web server. */
    public static List<Path> publishedJars(Path directory) throws IOException {
        Path core = null;
        Path webServer = null;
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.matches("nanohttpd-webserver-[0-9.]+\\.jar")) {
                    webServer = file;
                } else if (name.matches("nanohttpd-[0-9.]+\\.jar")) {
                    core = file;
                }
            }
        }
        if (core == null || webServer == null) {
            throw new IOException("NanoHTTPD's jars are not in " + directory
                    + " (the benchmarks build copies them there)");
        }
        return List.of(core, webServer);
    }

    /**
     * Rewrites each published jar with the CLI, the other one on its {@code --classpath}, into {@code output}:
     * returns the rewritten jars in the same order. Each run's JSON report is written beside its jar
     * ({@code NAME.report.json}).
     */
    public static List<Path> rewrite(List<Path> published, Path output) throws IOException, InterruptedException {
        Files.createDirectories(output);
        List<Path> rewritten = new ArrayList<>();
        for (Path jar : published) {
            String name = jar.getFileName().toString().replaceFirst("\\.jar$", "");
            Path target = output.resolve(name + "-pico.jar");
            List<String> others = new ArrayList<>();
            for (Path other : published) {
                if (!other.equals(jar)) {
                    others.add(other.toString());
                }
            }
            List<String> command = new ArrayList<>(List.of(javaExecutable(), "-cp",
                    System.getProperty("java.class.path"), CLI_MAIN));
            if (!others.isEmpty()) {
                command.addAll(List.of("--classpath", String.join(java.io.File.pathSeparator, others)));
            }
            command.addAll(List.of("--report", reportOf(target).toString(), jar.toString(), target.toString()));
            Process cli = new ProcessBuilder(command).redirectErrorStream(true).start();
            String said = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!cli.waitFor(120, TimeUnit.SECONDS) || cli.exitValue() != 0) {
                cli.destroyForcibly();
                throw new IOException("pico-transform failed on " + jar + ": " + said.strip());
            }
            rewritten.add(target);
        }
        return rewritten;
    }

    /** The JSON report the CLI wrote for the rewritten jar {@code rewritten}. */
    public static Path reportOf(Path rewritten) {
        return rewritten.resolveSibling(rewritten.getFileName().toString().replaceFirst("\\.jar$", ".report.json"));
    }

    /** The summary's count of pinned call sites in a CLI report. */
    public static int pinnedCallSites(Path report) throws IOException {
        Matcher matcher = PINNED_CALL_SITES.matcher(Files.readString(report));
        if (!matcher.find()) {
            throw new IOException("no summary in " + report);
        }
        return Integer.parseInt(matcher.group(1));
    }

    /** The class path of the PicoThreads libraries a rewritten program needs: pico-runtime and pico-net. */
    public static List<Path> picoLibraries() {
        return List.of(codeSourceOf(PicoThread.class), codeSourceOf(PicoSocket.class));
    }

    private static Path codeSourceOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts the server on a free port of 127.0.0.1 with {@code classPath}, serving {@code directory} quietly, and
     * returns once it accepts connections.
     */
    public static ThirdPartyServer start(List<Path> classPath, Path directory, List<String> jvmOptions)
            throws IOException, InterruptedException {
        return start(List.of(), classPath, directory, jvmOptions);
    }

    /**
     * As {@link #start(List, Path, List)}, the child's command line preceded by {@code launcher} (for example
     * {@code taskset -c 0} to confine the server to one CPU).
     */
    public static ThirdPartyServer start(List<String> launcher, List<Path> classPath, Path directory,
            List<String> jvmOptions) throws IOException, InterruptedException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        List<String> command = new ArrayList<>(launcher);
        command.add(javaExecutable());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", join(classPath), SERVER_MAIN, "--host", "127.0.0.1", "--port",
                Integer.toString(port), "--dir", directory.toString(), "--quiet"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        ThirdPartyServer server = new ThirdPartyServer(process, port);
        server.awaitStarted();
        return server;
    }

    private void awaitStarted() throws IOException, InterruptedException {
        BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Thread reader = Thread.ofPlatform().daemon().name("server-output").start(() -> {
            try {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    synchronized (output) {
                        output.append(line).append('\n');
                        output.notifyAll();
                    }
                }
            } catch (IOException e) {
                output.append("(output unreadable: ").append(e).append(")\n");
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        synchronized (output) {
            while (output.indexOf("Server started") < 0) {
                long left = deadline - System.nanoTime();
                if (!process.isAlive() || left <= 0) {
                    process.destroyForcibly();
                    reader.join(1000);
                    throw new IOException("the server did not start: " + output);
                }
                output.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /** The port it listens on, on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The child JVM's live platform (kernel) threads now, from /proc; -1 where /proc is missing. */
    public int liveKernelThreads() throws IOException {
        Path status = Path.of("/proc", Long.toString(process.pid()), "status");
        if (!Files.exists(status)) {
            return -1;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.substring("Threads:".length()).trim());
            }
        }
        return -1;
    }

    /**
     * The CPU time the child JVM has used so far (user and system, all its threads), in nanoseconds, from /proc;
     * -1 where /proc is missing. Its resolution is the kernel's clock tick (10 ms at USER_HZ 100).
     */
    public long cpuNanos() throws IOException {
        return ProcessCpuTime.procStatNanos(Path.of("/proc", Long.toString(process.pid()), "stat"),
                ProcessCpuTime.USER_TIME, ProcessCpuTime.SYSTEM_TIME);
    }

    /** What the server printed so far. */
    public String output() {
        return output.toString();
    }

    /** Stops the server as its console user would (end of standard input), forcibly after ten seconds. */
    @Override
    public void close() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String join(List<Path> classPath) {
        List<String> entries = new ArrayList<>();
        for (Path entry : classPath) {
            entries.add(entry.toString());
        }
        return String.join(java.io.File.pathSeparator, entries);
    }
}
