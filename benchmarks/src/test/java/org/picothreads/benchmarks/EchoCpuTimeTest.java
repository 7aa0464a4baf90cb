package org.picothreads.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EchoCpuTimeTest {
    private static final Pattern LINE = Pattern.compile(
            "(pico|virtual|platform) wall_ms (\\d+) cpu_ms (\\d+) user_ms (\\d+) system_ms (\\d+)");
    /** Two readings of /proc at its 10 ms tick, and the threads that run between the two clocks' readings. */
    private static final long TICK_SLACK_MILLIS = 40;

    @ParameterizedTest
    @ValueSource(strings = {"pico", "virtual", "platform"})
    void each_measured_run_prints_a_line_whose_user_and_system_time_add_up_to_its_cpu_time(String runtime)
            throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/proc/self/stat")), "needs /proc");
        List<String> lines = run(runtime, "50", "20", "3");

        assertEquals(3, lines.size(), String.join("\n", lines));
        for (String line : lines) {
            Matcher matcher = LINE.matcher(line);
            assertTrue(matcher.matches(), line);
            assertEquals(runtime, matcher.group(1));
            long cpu = Long.parseLong(matcher.group(3));
            long userAndSystem = Long.parseLong(matcher.group(4)) + Long.parseLong(matcher.group(5));
            assertTrue(Math.abs(cpu - userAndSystem) <= TICK_SLACK_MILLIS + cpu / 10, line);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pico", "virtual"})
    void without_a_run_count_it_measures_one_run_after_the_warm_up(String runtime) throws Exception {
        List<String> lines = run(runtime, "20", "5");

        assertEquals(1, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).startsWith(runtime + " wall_ms "), lines.get(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pico", "virtual"})
    void with_a_warm_up_count_it_prints_the_measured_runs_only(String runtime) throws Exception {
        List<String> lines = run(runtime, "20", "5", "2", "3");

        assertEquals(2, lines.size(), String.join("\n", lines));
        for (String line : lines) {
            assertTrue(LINE.matcher(line).matches(), line);
        }
    }

    /** Runs the harness in this JVM and returns the lines it printed. */
    private static List<String> run(String... arguments) throws Exception {
        PrintStream standardOutput = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            EchoCpuTime.main(arguments);
        } finally {
            System.setOut(standardOutput);
        }
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
