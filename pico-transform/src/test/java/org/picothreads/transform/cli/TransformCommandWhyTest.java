package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.io.TestClasses;
import org.picothreads.transform.io.TestFiles;

/** {@code --why METHOD} and the report's blocking chains: why each suspension point of a method can suspend. */
class TransformCommandWhyTest {
    /** Two ways down to a sleep: through an interface with one blocking implementation, and a direct one. */
    private static final String CHAINS = """
            package com.y;

            public class Chains {
                interface Step {
                    void take() throws InterruptedException;
                }

                static class Quiet implements Step {
                    public void take() {
                    }
                }

                static class Sleepy implements Step {
                    public void take() throws InterruptedException {
                        nap();
                    }

                    static void nap() throws InterruptedException {
                        Thread.sleep(1);
                    }
                }

                static void run(Step step) throws InterruptedException {
                    step.take();
                    Sleepy.nap();
                    quiet();
                }

                static int quiet() {
                    return 1;
                }

                static void start() {
                    new Thread(() -> {
                        try {
                            run(new Sleepy());
                            run(new Quiet());
                        } catch (InterruptedException interrupted) {
                            return;
                        }
                    }).start();
                }
            }
            """;

    @TempDir
    Path temporary;

    @Test
    void why_prints_each_suspension_point_of_the_method_with_its_shortest_chain_down_to_the_blocking_call() {
        CommandRun run = CommandRun.run(classes(), temporary.resolve("out.jar"), "--why", "com.y.Chains.run");

        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(List.of(
                "com.y.Chains.run(Lcom/y/Chains$Step;)V: rewritten",
                "  line 24 suspends in com/y/Chains$Step.take()V: com/y/Chains$Step.take()V"
                        + " -> com/y/Chains$Sleepy.take()V -> com/y/Chains$Sleepy.nap()V -> java/lang/Thread.sleep(J)V",
                "  line 25 suspends in com/y/Chains$Sleepy.nap()V: com/y/Chains$Sleepy.nap()V"
                        + " -> java/lang/Thread.sleep(J)V"),
                lines.subList(0, 3), run.out());
        assertTrue(lines.get(3).startsWith("rewrote "), run.out());
    }

    @Test
    void why_says_so_of_a_method_that_reaches_no_blocking_call_and_of_a_class_not_in_the_input() {
        CommandRun quiet = CommandRun.run(classes(), temporary.resolve("quiet.jar"), "--why", "com.y.Chains.quiet");
        CommandRun missing = CommandRun.run(classes(), temporary.resolve("missing.jar"), "--why", "com.y.None.run");

        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals("com.y.Chains.quiet: reaches no blocking call; it is not rewritten",
                quiet.out().lines().findFirst().orElseThrow());
        assertEquals(0, missing.exitCode(), missing.err());
        assertTrue(missing.out().startsWith("pico-transform: warning: --why com.y.None.run: the input has no class"
                + " com.y.None\n"), missing.out());
    }

    @Test
    void the_report_holds_the_chain_of_each_method_called_at_a_suspension_point() throws Exception {
        Path report = temporary.resolve("report.json");

        CommandRun run = CommandRun.run("--report", report, classes(), temporary.resolve("out.jar"));

        assertEquals(0, run.exitCode(), run.err());
        String json = Files.readString(report);
        assertTrue(json.contains("""
                  "blockingChains": {
                    "com/y/Chains$Sleepy.nap()V": [
                      "com/y/Chains$Sleepy.nap()V",
                      "java/lang/Thread.sleep(J)V"
                    ],
                """), json);
        assertTrue(json.contains("\"java/lang/Thread.sleep(J)V\": [\n      \"java/lang/Thread.sleep(J)V\"\n    ]"),
                json);
    }

    private Path classes() {
        return TestFiles.writeTree(temporary.resolve("classes"), TestClasses.compile(temporary.resolve("compile"),
                Map.of("com.y.Chains", CHAINS)));
    }
}
