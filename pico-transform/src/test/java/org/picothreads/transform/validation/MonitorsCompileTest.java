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
        // A mismatch that javac's own code has too (nested synchronized (this): GenerateOopMap sees the same lock
        // twice) stays; the rewrite adds none: the method keeps javac's regions on its normal path.
        TransformedChildJvm.Result asCompiled = TransformedChildJvm.runAsCompiled(EveryMonitorTarget.class,
                List.of("-Xcomp", "-XX:CompileCommand=quiet", "-XX:CompileCommand=compileonly," + TARGETS + ".*::*",
                        "-Xlog:monitormismatch=info:stderr"));
        assertEquals(mismatchedMethods(asCompiled.errors()), mismatchedMethods(run.errors()), run::errors);
        String log = Files.readString(compilations);
        assertTrue(log.contains("method='" + TARGETS + ".SleepInsideSynchronized incrementInBlock"),
                "the rewritten targets were compiled");
        assertFalse(log.lines().anyMatch(line -> line.contains("make_not_compilable") && line.contains(TARGETS)
                && mismatchedMethods(asCompiled.errors()).stream().noneMatch(line::contains)),
                () -> String.join("\n", log.lines().filter(line -> line.contains("make_not_compilable")).toList()));
    }

    /** The names of the methods the JIT reported a monitor mismatch in, from a run's standard error. */
    private static java.util.Set<String> mismatchedMethods(String errors) {
        java.util.Set<String> methods = new java.util.TreeSet<>();
        errors.lines().filter(line -> line.contains("Monitor mismatch in method")).forEach(line -> {
            String method = line.substring(line.indexOf("::") + 2);
            methods.add(method.substring(0, method.indexOf(':')));
        });
        return methods;
    }
}
