package org.picothreads.benchmarks.startup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.picothreads.benchmarks.ProcessCpuTime;

/**
 * Issue 14's start-up targets, measured from cold JVMs side by side: the pico-transform command line rewriting Guava's
 * published jar (classes per second for the whole process), beside what ASM alone takes to read, analyse and write the
 * same jar in such a JVM ({@link AsmRoundTrip}, the floor under any ASM-based rewriter), and a program that prints one
 * line started plain, under an agent that does nothing, and under pico-agent (with its cache warm, and with
 * {@code cache=off}, which rewrites every class that loads, as a first run does), once with its own class alone on the
 * class path and once with Guava and jsoup on it as well. Every run is a JVM of its own, started by this harness with
 * the java it runs on; each round runs every case once, in the same order, and the figures are each case's median over
 * the rounds (wall time from start to exit, and the JVM's user and system CPU time, read from this process's children's
 * times in {@code /proc/self/stat} once the child has been waited for).
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.startup.ToolStartUp CLI_JAR AGENT_JAR LIBRARIES ROUNDS
 * </pre>
 *
 * CLI_JAR and AGENT_JAR are pico-transform.jar and pico-agent.jar (pico-transform/target after a build); LIBRARIES the
 * directory holding Guava's and jsoup's jars as Maven Central publishes them (benchmarks/target/start-up after a
 * build). Prints one JSON object on stdout.
 */
public final class ToolStartUp {
    /** The one line {@link Hello} prints; a run that prints anything else is an error. */
    private static final String HELLO_OUTPUT = "hello";
    /** The name of the command line's case. */
    static final String CLI_CASE = "cli-guava";
    /** The name of the reference case: ASM alone reads, analyses and writes Guava's jar ({@link AsmRoundTrip}). */
    static final String ASM_CASE = "asm-round-trip-guava";
    /** How long one run may take before the harness gives up on it. */
    private static final long RUN_TIMEOUT_SECONDS = 120;

    private ToolStartUp() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4 || !args[3].matches("[1-9][0-9]*")) {
            System.err.println("usage: ToolStartUp CLI_JAR AGENT_JAR LIBRARIES ROUNDS");
            System.exit(2);
        }
        System.out.println(measure(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3])));
    }

    /**
     * Runs every case {@code rounds} times, as {@link #main} describes, and returns the JSON object it prints; throws
     * when a run fails.
     */
    public static String measure(Path cliJar, Path agentJar, Path libraries, int rounds)
            throws IOException, InterruptedException {
        cliJar = cliJar.toAbsolutePath();
        agentJar = agentJar.toAbsolutePath();
        libraries = libraries.toAbsolutePath();
        Path guava = onlyJar(libraries, "guava-");
        Path jsoup = onlyJar(libraries, "jsoup-");
        Path work = Files.createTempDirectory("pico-start-up");
        try {
            Path helloClasses = work.resolve("hello");
            copyClass(Hello.class, helloClasses);
            Path noOpAgent = noOpAgentJar(work.resolve("no-op-agent.jar"));
            String alone = helloClasses.toString();
            String withLibraries = String.join(java.io.File.pathSeparator, alone, guava.toString(), jsoup.toString());
            Path cache = work.resolve("agent-cache");
            String java = ProcessHandle.current().info().command().orElse("java");

            Map<String, List<String>> cases = new LinkedHashMap<>();
            Path guavaRewritten = work.resolve("guava-rewritten.jar");
            cases.put(CLI_CASE, List.of(java, "-jar", cliJar.toString(), guava.toString(), guavaRewritten.toString()));
            Path guavaRoundTrip = work.resolve("guava-round-trip.jar");
            cases.put(ASM_CASE, List.of(java, "-cp", absoluteClassPath(), AsmRoundTrip.class.getName(),
                    guava.toString(), guavaRoundTrip.toString()));
            for (String[] classPath : new String[][] {{"alone", alone}, {"libraries", withLibraries}}) {
                String name = classPath[0];
                cases.put("hello-" + name + "-plain", List.of(java, "-cp", classPath[1], Hello.class.getName()));
                cases.put("hello-" + name + "-no-op-agent", List.of(java, "-javaagent:" + noOpAgent, "-cp",
                        classPath[1], Hello.class.getName()));
                cases.put("hello-" + name + "-agent-cache", List.of(java, "-javaagent:" + agentJar + "=cache=" + cache,
                        "-cp", classPath[1], Hello.class.getName()));
                cases.put("hello-" + name + "-agent-no-cache", List.of(java, "-javaagent:" + agentJar + "=cache=off",
                        "-cp", classPath[1], Hello.class.getName()));
            }
            // One run of each agent case first, so that the cache is warm for every measured round.
            for (Map.Entry<String, List<String>> entry : cases.entrySet()) {
                if (entry.getKey().contains("-agent-")) {
                    run(entry.getKey(), entry.getValue(), work);
                }
            }
            int guavaClasses = classCount(guava);
            Map<String, List<long[]>> measured = new LinkedHashMap<>();
            for (int round = 0; round < rounds; round++) {
                for (Map.Entry<String, List<String>> entry : cases.entrySet()) {
                    Files.deleteIfExists(guavaRewritten);
                    Files.deleteIfExists(guavaRoundTrip);
                    measured.computeIfAbsent(entry.getKey(), key -> new ArrayList<>())
                            .add(run(entry.getKey(), entry.getValue(), work));
                    if (entry.getKey().equals(CLI_CASE) && !Files.isRegularFile(guavaRewritten)) {
                        throw new IllegalStateException("the command line wrote no " + guavaRewritten);
                    }
                    if (entry.getKey().equals(ASM_CASE)) {
                        int written = classCount(guavaRoundTrip);
                        if (written != guavaClasses) {
                            throw new IllegalStateException("ASM's round trip wrote " + written + " classes of "
                                    + guava + "'s " + guavaClasses);
                        }
                    }
                }
            }
            StringBuilder json = new StringBuilder("{\"rounds\": ").append(rounds)
                    .append(", \"guavaJar\": \"").append(guava.getFileName()).append('"')
                    .append(", \"jsoupJar\": \"").append(jsoup.getFileName()).append('"')
                    .append(", \"guavaClasses\": ").append(guavaClasses).append(", \"cases\": {");
            String separator = "";
            for (Map.Entry<String, List<long[]>> entry : measured.entrySet()) {
                long[] wall = entry.getValue().stream().mapToLong(times -> times[0]).toArray();
                long[] cpu = entry.getValue().stream().mapToLong(times -> times[1]).toArray();
                json.append(separator).append('"').append(entry.getKey()).append("\": {\"wallMillis\": ")
                        .append(Arrays.toString(wall)).append(", \"cpuMillis\": ").append(Arrays.toString(cpu))
                        .append(", \"medianWallMillis\": ").append(median(wall))
                        .append(", \"medianCpuMillis\": ").append(median(cpu)).append('}');
                separator = ", ";
            }
            return json.append("}}").toString();
        } finally {
            deleteTree(work);
        }
    }

    /**
     * Runs one case to its end and returns its wall time and its CPU time (user and system), in milliseconds; throws
     * when it fails, times out, or (a hello) prints anything but the one line.
     */
    private static long[] run(String name, List<String> command, Path work) throws IOException, InterruptedException {
        long cpuBefore = childrenCpuMillis();
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(name + " did not end within " + RUN_TIMEOUT_SECONDS + " s");
        }
        long wallMillis = (System.nanoTime() - start) / 1_000_000;
        long cpuMillis = childrenCpuMillis() - cpuBefore;
        String printed = new String(output).strip();
        if (process.exitValue() != 0 || name.startsWith("hello-") && !printed.equals(HELLO_OUTPUT)) {
            throw new IllegalStateException(name + " (" + String.join(" ", command) + ") exited with "
                    + process.exitValue() + " and printed: " + printed);
        }
        return new long[] {wallMillis, cpuMillis};
    }

    /** This JVM's class path with every entry made absolute, for a child that runs in another directory. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(entry -> !entry.isEmpty()).map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(java.io.File.pathSeparator));
    }

    /** The user and system CPU time of this process's children that have ended and been waited for, in ms. */
    private static long childrenCpuMillis() throws IOException {
        return ProcessCpuTime.procStatNanos(Path.of("/proc/self/stat"), ProcessCpuTime.CHILDREN_USER_TIME,
                ProcessCpuTime.CHILDREN_SYSTEM_TIME) / 1_000_000;
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The one jar in {@code directory} whose name starts with {@code prefix}. */
    private static Path onlyJar(Path directory, String prefix) throws IOException {
        try (var files = Files.list(directory)) {
            List<Path> jars = files.filter(file -> file.getFileName().toString().startsWith(prefix)
                    && file.getFileName().toString().endsWith(".jar")).collect(Collectors.toList());
            if (jars.size() != 1) {
                throw new IllegalArgumentException(directory + " holds " + jars.size() + " jars named " + prefix
                        + "*.jar; expected one");
            }
            return jars.get(0);
        }
    }

    private static int classCount(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return (int) file.stream().filter(entry -> entry.getName().endsWith(".class")
                    && !entry.getName().endsWith("module-info.class")
                    && !entry.getName().startsWith("META-INF/")).count();
        }
    }

    /** Copies {@code type}'s class file, as this jar holds it, under {@code root} at its package's path. */
    private static void copyClass(Class<?> type, Path root) throws IOException {
        String path = type.getName().replace('.', '/') + ".class";
        Path target = root.resolve(path);
        Files.createDirectories(target.getParent());
        try (InputStream in = ToolStartUp.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is missing from the class path");
            }
            Files.copy(in, target);
        }
    }

    /** A jar holding {@link NoOpAgent} alone, with the manifest that makes it an agent. */
    private static Path noOpAgentJar(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), NoOpAgent.class.getName());
        String path = NoOpAgent.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest);
                InputStream in = ToolStartUp.class.getClassLoader().getResourceAsStream(path)) {
            out.putNextEntry(new JarEntry(path));
            in.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(path);
            }
        }
    }
}
