package org.picothreads.benchmarks.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the start-up harness for one round with the jars this build made, so that a change that breaks it (a case
 * that fails, a hello that prints more than its line under the agent, a command line that writes nothing) is seen in
 * the test command; the times mean nothing here. The measuring run is {@code benchmarks/run.sh}.
 */
class ToolStartUpTest {
    private static final List<String> CASES = List.of("cli-guava", "asm-round-trip-guava", "hello-alone-plain",
            "hello-alone-no-op-agent", "hello-alone-agent-cache", "hello-alone-agent-no-cache", "hello-libraries-plain",
            "hello-libraries-no-op-agent", "hello-libraries-agent-cache", "hello-libraries-agent-no-cache");

    @Test
    @Timeout(300)
    void one_round_runs_every_case_to_its_end_and_reports_each_once_with_guavas_class_count() throws Exception {
        String json = ToolStartUp.measure(Path.of(System.getProperty("picothreads.cliJar")),
                Path.of(System.getProperty("picothreads.agentJar")),
                Path.of(System.getProperty("picothreads.startUpLibraries")), 1);

        List<String> reported = new ArrayList<>();
        Matcher names = Pattern.compile("\"([a-z-]+)\": \\{\"wallMillis\": \\[(\\d+)\\]").matcher(json);
        while (names.find()) {
            reported.add(names.group(1));
            assertTrue(Long.parseLong(names.group(2)) > 0, names.group(1) + " took no time: " + json);
        }
        assertEquals(CASES, reported, json);
        Matcher classes = Pattern.compile("\"guavaClasses\": (\\d+)").matcher(json);
        assertTrue(classes.find(), json);
        // Guava 33's jar holds about two thousand classes; a count far from it means the wrong jar was measured.
        int count = Integer.parseInt(classes.group(1));
        assertTrue(count > 1500 && count < 3000, "Guava's class count " + count);
    }
}
