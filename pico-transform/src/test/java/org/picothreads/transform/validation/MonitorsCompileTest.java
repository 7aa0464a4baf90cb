package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.targets.monitors.EveryMonitorTarget;
import org.picothreads.transform.testing.TransformedChildJvm;

/**
 * Rewritten methods whose synchronized regions can suspend stay compilable by HotSpot's JIT compilers. HotSpot
 * refuses a method whose monitors it cannot pair (its {@code GenerateOopMap} reports a "monitor mismatch") and runs
 * it in the interpreter for ever, which made every such method of a rewritten program many times slower.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MonitorsCompileTest {
    private static final String TARGETS = "org.picothreads.targets.monitors";

    @Test
    void every_rewritten_monitor_target_is_compiled_without_a_monitor_mismatch_and_gives_the_untransformed_results(
            @TempDir Path directory) throws Exception {
        Path compilations = directory.resolve("compilations.log");
        TransformedChildJvm.Result run = TransformedChildJvm.run(EveryMonitorTarget.class, List.of(
                "-Xcomp", "-XX:CompileCommand=quiet", "-XX:CompileCommand=compileonly," + TARGETS + ".*::*",
                "-Xlog:monitormismatch=info:stderr", "-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation",
                "-XX:LogFile=" + compilations));

        assertEquals(0, run.exitCode(), run::errors);
        assertEquals(EveryMonitorTarget.run() + "\n", run.output());
        assertFalse(run.errors().contains("Monitor mismatch"), run::errors);
        String log = Files.readString(compilations);
        assertTrue(log.contains("method='" + TARGETS + ".SleepInsideSynchronized incrementInBlock"),
                "the rewritten targets were compiled");
        assertFalse(log.lines().anyMatch(line -> line.contains("make_not_compilable") && line.contains(TARGETS)),
                () -> String.join("\n", log.lines().filter(line -> line.contains("make_not_compilable")).toList()));
    }
}
