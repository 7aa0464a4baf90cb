package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Deadlock detection and the dump reporters, each in a child JVM running {@link DeadlockProgram}. */
class DeadlockDetectionTest {
    private static final String DEADLOCK_HEADER =
            "PicoThreads: deadlock: 1 thread is blocked and nothing can wake them";

    /** What the child printed and how it ended. */
    private record Run(int exitCode, String output, String errors, long elapsedMillis) {
    }

    @Test
    void a_pico_thread_joining_itself_while_main_joins_it_is_dumped_and_the_jvm_exits_with_status_1()
            throws IOException, InterruptedException {
        Run run = runProgram(List.of(), "self-join");

        assertEquals(1, run.exitCode(), run::errors);
        assertTrue(run.errors().startsWith(DEADLOCK_HEADER + "\n\n\"stuck\" WAITING joining \"stuck\"\n"),
                run::errors);
        assertTrue(run.elapsedMillis() < 15_000, () -> "exited after " + run.elapsedMillis() + " ms");
    }

    @Test
    void a_deadlock_left_behind_by_a_main_that_returned_is_reported_too() throws IOException, InterruptedException {
        Run run = runProgram(List.of(), "self-join-main-returns");

        assertEquals(1, run.exitCode(), run::errors);
        assertTrue(run.errors().startsWith(DEADLOCK_HEADER), run::errors);
    }

    @Test
    void the_exit_status_of_a_deadlock_comes_from_the_property() throws IOException, InterruptedException {
        Run run = runProgram(List.of("-Dpicothreads.deadlockExitStatus=3"), "self-join");

        assertEquals(3, run.exitCode(), run::errors);
    }

    @Test
    void a_blocked_pico_thread_that_main_will_interrupt_is_not_a_deadlock() throws IOException, InterruptedException {
        Run run = runProgram(List.of(), "woken-by-main");

        assertEquals(0, run.exitCode(), run::errors);
        assertEquals("stuck was interrupted\n", run.output());
        assertEquals("", run.errors());
    }

    @Test
    void a_blocked_pico_thread_that_a_sleeping_daemon_thread_will_interrupt_is_not_a_deadlock()
            throws IOException, InterruptedException {
        Run run = runProgram(List.of(), "woken-by-daemon");

        assertEquals(0, run.exitCode(), run::errors);
        assertEquals("stuck was interrupted\n", run.output());
        assertEquals("", run.errors());
    }

    @Test
    void dump_on_exit_prints_the_threads_still_alive_when_the_jvm_shuts_down()
            throws IOException, InterruptedException {
        Run run = runProgram(List.of("-Dpicothreads.dumpOnExit=true"), "dump-on-exit");

        assertEquals(0, run.exitCode(), run::errors);
        assertEquals("PicoThreads: 1 live thread\n\n\"napper\" TIMED_WAITING sleeping\n", run.errors());
    }

    @Test
    void a_dump_interval_prints_the_dump_while_the_program_runs() throws IOException, InterruptedException {
        Run run = runProgram(List.of("-Dpicothreads.dumpIntervalSeconds=1"), "dump-interval");

        assertEquals(0, run.exitCode(), run::errors);
        assertTrue(run.errors().startsWith("PicoThreads: 1 live thread\n\n\"sleeper\" TIMED_WAITING sleeping\n"),
                run::errors);
    }

    private static Run runProgram(List<String> jvmOptions, String program) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The program's Runnables are hand-written protocol frames without the @Rewritten marker (see pom.xml).
        command.add("-Dpicothreads.checkFrames=false");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DeadlockProgram.class.getName());
        command.add(program);
        File output = File.createTempFile("pico-deadlock", ".out");
        File errors = File.createTempFile("pico-deadlock", ".err");
        try {
            long started = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectOutput(output).redirectError(errors).start();
            boolean exited = process.waitFor(30, TimeUnit.SECONDS);
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (!exited) {
                process.destroyForcibly().waitFor();
            }
            String printed = Files.readString(output.toPath(), StandardCharsets.UTF_8).replace("\r\n", "\n");
            String reported = Files.readString(errors.toPath(), StandardCharsets.UTF_8).replace("\r\n", "\n");
            assertTrue(exited, () -> "the child JVM did not exit within 30 s; it printed: " + printed + reported);
            return new Run(process.exitValue(), printed, reported, elapsed);
        } finally {
            Files.deleteIfExists(output.toPath());
            Files.deleteIfExists(errors.toPath());
        }
    }
}
