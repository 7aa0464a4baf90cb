package org.picothreads.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.picothreads.benchmarks.pico.PicoWorkloads;

/**
 * Runs every benchmark once with the least work JMH allows (no fork, no warm-up, one 100 ms iteration), so that
 * a change that breaks one is seen in the test command; the numbers mean nothing. The real runs are
 * {@code benchmarks/run.sh}.
 */
class BenchmarkSmokeTest {
    static {
        // A benchmark run of one's own on the same machine (benchmarks/run.sh) holds JMH's lock file; the smoke runs
        // are in-process and measure nothing, so they need not wait for it or fail on it.
        System.setProperty("jmh.ignoreLock", "true");
    }

    private static Collection<RunResult> runOnce(Class<?> benchmark, String... params) throws RunnerException {
        OptionsBuilder builder = new OptionsBuilder();
        for (int index = 0; index < params.length; index += 2) {
            builder.param(params[index], params[index + 1]);
        }
        Options options = builder
                .include("^" + benchmark.getName() + "\\.")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(100))
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        assertFalse(results.isEmpty(), "no result from " + benchmark.getSimpleName());
        return results;
    }

    @Test
    void the_overhead_benchmark_runs_and_its_transformed_copy_is_really_rewritten() throws RunnerException {
        assertEquals(6, runOnce(CallOverhead.class).size());
    }

    @Test
    void the_yield_round_trip_benchmark_runs_at_every_depth_on_every_runtime() throws RunnerException {
        assertEquals(5 * 4, runOnce(YieldRoundTrip.class).size());
    }

    @Test
    void the_spawn_and_join_benchmark_runs() throws RunnerException {
        assertEquals(5, runOnce(SpawnJoin.class).size());
    }

    @Test
    void the_handoff_benchmark_runs_for_monitors_and_both_queues() throws RunnerException {
        assertEquals(4 * 3, runOnce(Handoff.class).size());
    }

    @Test
    void the_loopback_echo_benchmark_runs_on_every_runtime() throws RunnerException {
        assertEquals(5, runOnce(LoopbackEcho.class, "connections", "20", "rounds", "3").size());
    }

    @Test
    void the_transformer_throughput_benchmark_runs() throws RunnerException {
        assertEquals(2, runOnce(TransformerThroughput.class).size());
    }

    @Test
    void the_workloads_really_start_pico_threads() throws InterruptedException {
        assertTrue(org.picothreads.transform.PicoTransformer.isTransformed(classBytes(PicoWorkloads.class)),
                "the plugin did not rewrite " + PicoWorkloads.class.getName());
        long before = org.picothreads.runtime.PicoThreads.statistics().threadsStarted();
        PicoWorkloads.spawnAndJoin(10);
        assertTrue(org.picothreads.runtime.PicoThreads.statistics().threadsStarted() - before >= 11);
    }

    @Test
    void the_footprint_program_runs_on_every_runtime() throws Exception {
        for (String runtime : new String[] {"pico", "virtual", "platform"}) {
            Footprint.main(new String[] {runtime, "200", "5"});
        }
    }

    @Test
    void the_million_thread_programs_count_every_thread_with_and_without_printing() throws Exception {
        for (String printing : new String[] {"printing", "quiet"}) {
            String[] args = {"1000", printing};
            assertTrue(printed(System.err, () -> org.picothreads.benchmarks.pico.MillionThreads.main(args))
                    .contains("Number = 1000"), "rewritten, " + printing);
            assertTrue(printed(System.err, () -> org.picothreads.benchmarks.jdk.MillionVirtualThreads.main(args))
                    .contains("Number = 1000"), "virtual threads, " + printing);
        }
    }

    @Test
    void the_compute_and_sleep_program_gives_the_same_checksums_rewritten_as_on_virtual_threads() throws Exception {
        String[] args = {"20", "2", "1"};
        String rewritten = printed(System.out, () -> org.picothreads.benchmarks.pico.ComputeSleepThreads.main(args));
        String virtual = printed(System.out,
                () -> org.picothreads.benchmarks.jdk.ComputeSleepVirtualThreads.main(args));
        assertEquals(checksums(virtual), checksums(rewritten));
        assertEquals(3, checksums(rewritten).size(), rewritten);
    }

    /** The checksum each run of the compute+sleep program printed, in order. */
    private static List<String> checksums(String printed) {
        List<String> checksums = new ArrayList<>();
        Matcher matcher = Pattern.compile("run \\d+ wall_ms \\d+ cpu_ms \\d+ checksum (-?\\d+)").matcher(printed);
        while (matcher.find()) {
            checksums.add(matcher.group(1));
        }
        return checksums;
    }

    /** A program's main method, which may throw. */
    private interface Program {
        void run() throws Exception;
    }

    /** What {@code program} printed to {@code stream} (System.out or System.err), which is restored after. */
    private static String printed(PrintStream stream, Program program) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream capturing = new PrintStream(captured, true, StandardCharsets.UTF_8);
        boolean out = stream == System.out;
        if (out) {
            System.setOut(capturing);
        } else {
            System.setErr(capturing);
        }
        try {
            program.run();
        } finally {
            if (out) {
                System.setOut(stream);
            } else {
                System.setErr(stream);
            }
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static byte[] classBytes(Class<?> type) {
        try (var in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
