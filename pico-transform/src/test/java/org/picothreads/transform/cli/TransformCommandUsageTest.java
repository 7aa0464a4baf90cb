package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransformCommandUsageTest {
    @Test
    void help_prints_the_usage_with_every_option_and_the_exit_codes() {
        CommandRun run = CommandRun.run("--help");

        assertEquals(0, run.exitCode());
        assertEquals("", run.err());
        assertTrue(run.out().startsWith("Usage: pico-transform [-hvV] [--strict] [--report=FILE] [--why=METHOD]"),
                run.out());
        assertTrue(run.out().replaceAll("\\s+", "").contains("[--classpath=PATH[" + File.pathSeparator
                + "PATH...]]..."), run.out());
        assertTrue(run.out().contains("INPUT OUTPUT"), run.out());
        for (String option : List.of("--classpath=PATH", "--report=FILE", "--strict", "--why=METHOD", "-v, --verbose",
                "-h, --help",
                "-V, --version", "Exit codes:")) {
            assertTrue(run.out().contains(option), option);
        }
    }

    @Test
    void version_prints_the_command_name_and_a_version() {
        CommandRun run = CommandRun.run("--version");

        assertEquals(0, run.exitCode());
        assertTrue(run.out().startsWith("pico-transform "), run.out());
    }

    @Test
    void missing_arguments_are_a_usage_error_on_one_line() {
        CommandRun run = CommandRun.run();

        assertEquals(2, run.exitCode());
        assertEquals(List.of("pico-transform: error: Missing required parameters: 'INPUT', 'OUTPUT' (see --help)"),
                run.errorLines());
        assertEquals("", run.out());
    }

    @Test
    void an_unknown_option_is_a_usage_error_on_one_line() {
        CommandRun run = CommandRun.run("--fast", "in", "out");

        assertEquals(2, run.exitCode());
        assertEquals(List.of("pico-transform: error: Unknown option: '--fast' (see --help)"), run.errorLines());
    }

    @Test
    void a_third_path_is_a_usage_error() {
        CommandRun run = CommandRun.run("in", "out", "extra");

        assertEquals(2, run.exitCode());
        assertEquals(1, run.errorLines().size());
        assertTrue(run.err().startsWith("pico-transform: error: Unmatched argument"), run.err());
    }

    @Test
    void an_option_without_its_value_is_a_usage_error() {
        CommandRun run = CommandRun.run("in", "out", "--report");

        assertEquals(2, run.exitCode());
        assertEquals(1, run.errorLines().size());
        assertTrue(run.err().startsWith("pico-transform: error: Missing required parameter for option '--report'"),
                run.err());
    }
}
