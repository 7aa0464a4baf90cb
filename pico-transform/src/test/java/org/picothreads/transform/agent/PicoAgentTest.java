package org.picothreads.transform.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.picothreads.transform.SourceCompiler;
import org.picothreads.transform.testing.TestClasspath;

/**
 * Runs a program in a child JVM under {@code -javaagent} with an agent jar that holds only the manifest: the agent
 * class, the transformer and the runtime come from this module's class path, as pico-agent.jar holds them.
 */
class PicoAgentTest {
    private static final String PROGRAM = """
            package agentprogram;

            public class Main {
                public static void main(String[] args) throws InterruptedException {
                    String[] seen = new String[1];
                    Thread thread = new Thread(() -> {
                        try {
                            Thread.sleep(10);
                        } catch (InterruptedException interrupted) {
                            return;
                        }
                        seen[0] = Thread.currentThread().getClass().getName();
                    });
                    thread.start();
                    thread.join();
                    System.out.println(seen[0]);
                }
            }
            """;

    @TempDir
    Path directory;

    private record Result(int exitCode, String output, String errors) {
    }

    /**
     * A program that uses java.io's decorators (BufferedReader, PrintWriter, PrintStream, DataInputStream) and no
     * socket, in a thread that sleeps: under the agent, whose jar has no pico-net, it must run with the JDK's types.
     */
    private static final String STREAMS_PROGRAM = """
            package agentstreams;

            import java.io.*;

            public class Streams {
                public static void main(String[] args) throws Exception {
                    String[] seen = new String[1];
                    Thread thread = new Thread(() -> {
                        try {
                            StringWriter text = new StringWriter();
                            PrintWriter writer = new PrintWriter(text);
                            writer.println("first");
                            writer.println("second");
                            writer.flush();
                            Thread.sleep(10);
                            BufferedReader reader = new BufferedReader(new StringReader(text.toString()));
                            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                            PrintStream print = new PrintStream(bytes, true);
                            print.print(reader.readLine() + "+" + reader.readLine());
                            DataInputStream data = new DataInputStream(new ByteArrayInputStream(new byte[] {0, 0, 0, 42}));
                            seen[0] = bytes + " " + data.readInt() + " on " + Thread.currentThread().getClass().getName();
                        } catch (IOException | InterruptedException failure) {
                            seen[0] = failure.toString();
                        }
                    });
                    thread.start();
                    thread.join();
                    System.out.println(seen[0]);
                }
            }
            """;

    /** A program that opens a server socket on 127.0.0.1 and closes it at once. */
    private static final String SOCKET_PROGRAM = """
            package agentsockets;

            import java.net.InetAddress;
            import java.net.ServerSocket;

            public class Listener {
                public static void main(String[] args) throws Exception {
                    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                        System.out.println(server.getLocalPort() > 0 ? "bound" : "not bound");
                    }
                }
            }
            """;

    /**
     * A program whose threads each spin, without ever blocking, until all of them run at once (or 10 s pass), so
     * that they all run at once only on as many carriers as threads; it prints how many saw that, the carriers the
     * runtime started and the system property picothreads.carriers.
     */
    private static final String CARRIERS_PROGRAM = """
            package agentcarriers;

            import java.util.ArrayList;
            import java.util.List;
            import java.util.concurrent.atomic.AtomicInteger;
            import org.picothreads.runtime.PicoThreads;

            public class Spinners {
                public static void main(String[] args) throws InterruptedException {
                    int count = Integer.parseInt(args[0]);
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    AtomicInteger running = new AtomicInteger();
                    AtomicInteger sawAllRunning = new AtomicInteger();
                    List<Thread> threads = new ArrayList<>();
                    for (int index = 0; index < count; index++) {
                        Thread thread = new Thread(() -> {
                            running.incrementAndGet();
                            while (running.get() < count && System.nanoTime() - deadline < 0) {
                                // no yield: the thread keeps its carrier
                            }
                            if (running.get() == count) {
                                sawAllRunning.incrementAndGet();
                            }
                        });
                        threads.add(thread);
                        thread.start();
                    }
                    for (Thread thread : threads) {
                        thread.join();
                    }
                    System.out.println(sawAllRunning.get() + " of " + count + " threads ran at once on "
                            + PicoThreads.statistics().carriers() + " carriers, picothreads.carriers="
                            + System.getProperty("picothreads.carriers"));
                }
            }
            """;

    private Result run(String agentArguments) throws IOException, InterruptedException {
        return run(agentArguments, "agentprogram.Main");
    }

    private Result run(String agentArguments, String mainClass) throws IOException, InterruptedException {
        return run(agentArguments, List.of(), mainClass);
    }

    private Result run(String agentArguments, List<String> javaOptions, String mainClass, String... arguments)
            throws IOException, InterruptedException {
        Path program = directory.resolve("program");
        if (!Files.isDirectory(program)) {
            SourceCompiler.compile(Files.createDirectories(program), Map.of("agentprogram.Main", PROGRAM,
                    "agentstreams.Streams", STREAMS_PROGRAM, "agentsockets.Listener", SOCKET_PROGRAM,
                    "agentcarriers.Spinners", CARRIERS_PROGRAM));
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaOptions);
        if (agentArguments != null) {
            command.add("-javaagent:" + agentJar() + (agentArguments.isEmpty() ? "" : "=" + agentArguments));
        }
        List<String> classPath = new ArrayList<>();
        classPath.add(program.toString());
        TestClasspath.entries().forEach(entry -> classPath.add(entry.toString()));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(mainClass);
        command.addAll(List.of(arguments));
        Path output = directory.resolve("output.txt");
        Path errors = directory.resolve("errors.txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(output.toFile())
                .redirectError(errors.toFile());
        // The agent's default cache directory, this test's own.
        builder.environment().put("XDG_CACHE_HOME", directory.resolve("cache-home").toString());
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit within 60 s");
        return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8).trim(),
                Files.readString(errors, StandardCharsets.UTF_8).trim());
    }

    private Path agentJar() throws IOException {
        Path jar = directory.resolve("agent.jar");
        if (!Files.exists(jar)) {
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().putValue("Premain-Class", PicoAgent.class.getName());
            try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
                out.flush();
            }
        }
        return jar;
    }

    @Test
    void without_the_agent_the_program_runs_its_thread_as_a_platform_thread() throws Exception {
        Result result = run(null);
        assertEquals(0, result.exitCode(), result.errors());
        assertEquals("java.lang.Thread", result.output());
    }

    @Test
    void under_the_agent_the_unchanged_program_runs_its_thread_as_a_pico_thread() throws Exception {
        Path report = directory.resolve("report.json");
        Result result = run("includes=agentprogram.*;report=" + report + ";verbose");
        assertEquals(0, result.exitCode(), result.errors());
        assertEquals("org.picothreads.runtime.PicoThread", result.output());
        assertEquals("pico-agent: rewrote 1 of 1 class as they loaded (2 methods)", result.errors());
        assertTrue(Files.readString(report).contains("\"className\": \"agentprogram/Main\""));
    }

    @Test
    void under_the_agent_a_program_with_java_io_streams_and_no_socket_runs_without_pico_net() throws Exception {
        Result plain = run(null, "agentstreams.Streams");
        Result rewritten = run("includes=agentstreams.*", "agentstreams.Streams");

        assertEquals(0, plain.exitCode(), plain.errors());
        assertEquals("first+second 42 on java.lang.Thread", plain.output());
        assertEquals(0, rewritten.exitCode(), rewritten.errors());
        assertEquals("first+second 42 on org.picothreads.runtime.PicoThread", rewritten.output());
        assertEquals("", rewritten.errors());
    }

    @Test
    void under_the_agent_a_program_with_sockets_and_no_pico_net_is_named_in_a_warning() throws Exception {
        Result result = run("includes=agentsockets.*", "agentsockets.Listener");

        assertEquals(0, result.exitCode(), result.errors());
        assertEquals("bound", result.output());
        assertEquals("pico-agent: warning: agentsockets.Listener uses sockets, but pico-net is not on the class path:"
                + " its socket calls block the carrier, and every PicoThread waits with them; add pico-net.jar to -cp",
                result.errors());
    }

    @Test
    void a_second_run_takes_the_rewritten_class_from_the_cache_without_loading_the_transformer() throws Exception {
        Path classLoading = directory.resolve("class-loading.txt");
        List<String> logClassLoading = List.of("-Xlog:class+load=info:file=" + classLoading);

        Result first = run("includes=agentprogram.*", logClassLoading, "agentprogram.Main");
        String firstLoaded = Files.readString(classLoading);
        Result second = run("includes=agentprogram.*", logClassLoading, "agentprogram.Main");
        String secondLoaded = Files.readString(classLoading);

        assertEquals(0, first.exitCode(), first.errors());
        assertEquals("org.picothreads.runtime.PicoThread", first.output());
        assertTrue(firstLoaded.contains("org.picothreads.transform.internal.MethodRewriter "), "rewritten at first");
        assertEquals(0, second.exitCode(), second.errors());
        assertEquals("org.picothreads.runtime.PicoThread", second.output());
        assertTrue(secondLoaded.contains("agentprogram.Main "), secondLoaded);
        assertFalse(secondLoaded.contains("org.picothreads.transform.internal.MethodRewriter "),
                "the second run rewrote nothing");
        assertFalse(secondLoaded.contains("org.picothreads.transform.shaded.asm.ClassReader "),
                "the second run did not load ASM");
    }

    @Test
    void with_cache_off_every_run_rewrites() throws Exception {
        Path classLoading = directory.resolve("class-loading.txt");
        List<String> logClassLoading = List.of("-Xlog:class+load=info:file=" + classLoading);

        run("includes=agentprogram.*;cache=off", logClassLoading, "agentprogram.Main");
        Result second = run("includes=agentprogram.*;cache=off", logClassLoading, "agentprogram.Main");

        assertEquals("org.picothreads.runtime.PicoThread", second.output());
        assertTrue(Files.readString(classLoading).contains("org.picothreads.transform.internal.MethodRewriter "));
        assertFalse(Files.exists(directory.resolve("cache-home")), "nothing was written to the default cache");
    }

    @Test
    void a_class_the_includes_leave_out_runs_unchanged() throws Exception {
        Result result = run("includes=someone.else.*");
        assertEquals(0, result.exitCode(), result.errors());
        assertEquals("java.lang.Thread", result.output());
        assertEquals("", result.errors());
    }

    @Test
    void a_wrong_option_stops_the_jvm_with_the_list_of_options() throws Exception {
        Result result = run("include=agentprogram.*");
        assertEquals(1, result.exitCode(), result.errors());
        assertTrue(result.errors().startsWith("pico-agent: 'include=agentprogram.*' is not an option; the options are"),
                result.errors());
    }

    @ParameterizedTest
    @ValueSource(strings = {"include=agentprogram.*", "includes", "includes=", "report=", "=x", "verbose=maybe",
        "report=a.json;report=b.json", "includes=agent program.*", "includes=agentprogram.*;;x", "carriers=0",
        "carriers=32768", "carriers=many", "carriers=", "carriers=2;carriers=3"})
    void every_malformed_option_ends_the_jvm_with_one_line_and_exit_code_1_before_main(String arguments)
            throws Exception {
        Result result = run(arguments);
        assertEquals(1, result.exitCode(), result.errors());
        assertEquals("", result.output(), "main must not run");
        assertEquals(1, result.errors().lines().count(), result.errors());
        assertTrue(result.errors().startsWith("pico-agent: "), result.errors());
        assertTrue(result.errors().contains("the options are includes=PATTERN"), result.errors());
    }

    @Test
    void the_carriers_option_sets_how_many_carriers_run_the_program_threads_at_once() throws Exception {
        Result result = run("includes=agentcarriers.*;carriers=3", List.of(), "agentcarriers.Spinners", "3");

        assertEquals(0, result.exitCode(), result.errors());
        assertEquals("3 of 3 threads ran at once on 3 carriers, picothreads.carriers=3", result.output());
        assertEquals("", result.errors());
    }

    @Test
    void picothreads_carriers_on_the_command_line_wins_over_the_carriers_option() throws Exception {
        Result result = run("includes=agentcarriers.*;carriers=3", List.of("-Dpicothreads.carriers=2"),
                "agentcarriers.Spinners", "2");

        assertEquals(0, result.exitCode(), result.errors());
        assertEquals("2 of 2 threads ran at once on 2 carriers, picothreads.carriers=2", result.output());
    }
}
