package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.io.TestClasses;
import org.picothreads.transform.io.TestFiles;

/** Runs that the command refuses before it hands anything to the transformer: exit status 1, one line, no output. */
class TransformCommandRefusalTest {
    @TempDir
    Path temporary;

    @Test
    void a_missing_input_is_refused() {
        Path input = temporary.resolve("missing");
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(input, output);

        assertRefused(run, "input does not exist: " + input);
        assertFalse(Files.exists(output));
    }

    @Test
    void an_input_that_is_neither_a_directory_nor_a_jar_is_refused() throws Exception {
        Path input = Files.write(temporary.resolve("Foo.class"), TestClasses.plainClass("Foo"));

        CommandRun run = CommandRun.run(input, temporary.resolve("out.jar"));

        assertRefused(run, "input is neither a directory nor a jar or zip file: " + input);
    }

    @Test
    void an_output_that_is_the_input_is_refused() {
        Path input = classes();

        CommandRun run = CommandRun.run(input, input);

        assertRefused(run, "output is the same as the input: " + input);
    }

    @Test
    void an_output_jar_that_is_the_input_jar_is_refused() {
        Path input = TestFiles.writeSimpleJar(temporary.resolve("app.jar"),
                Map.of("com/x/Foo.class", TestClasses.plainClass("com/x/Foo")));
        Path sameJar = temporary.resolve("sub/../app.jar");

        CommandRun run = CommandRun.run(input, sameJar);

        assertRefused(run, "output is the same as the input: " + sameJar);
    }

    @Test
    void an_output_inside_the_input_is_refused() {
        Path input = classes();
        Path output = input.resolve("transformed");

        CommandRun run = CommandRun.run(input, output);

        assertRefused(run, "output " + output + " is inside the input " + input);
        assertFalse(Files.exists(output));
    }

    @Test
    void an_input_inside_the_output_is_refused() {
        Path input = classes();

        CommandRun run = CommandRun.run(input, temporary);

        assertRefused(run, "input " + input + " is inside the output " + temporary);
    }

    @Test
    void a_classpath_entry_that_does_not_exist_is_refused() throws Exception {
        Path library = Files.createDirectory(temporary.resolve("library"));
        Path missing = temporary.resolve("missing.jar");
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run("--classpath", library + File.pathSeparator + missing, classes(), output);

        assertRefused(run, "classpath entry does not exist: " + missing);
        assertFalse(Files.exists(output));
    }

    @Test
    void a_missing_classpath_entry_in_a_repeated_option_is_refused() throws Exception {
        Path library = Files.createDirectory(temporary.resolve("library"));
        Path missing = temporary.resolve("missing");

        CommandRun run = CommandRun.run("--classpath", library, "--classpath", missing, classes(),
                temporary.resolve("out.jar"));

        assertRefused(run, "classpath entry does not exist: " + missing);
    }

    @Test
    void a_corrupt_jar_is_refused() throws Exception {
        Path input = Files.writeString(temporary.resolve("broken.jar"), "PK but not really a jar");
        Path output = temporary.resolve("out");

        CommandRun run = CommandRun.run(input, output);

        assertEquals(1, run.exitCode());
        assertEquals(1, run.errorLines().size(), run.err());
        assertTrue(run.err().startsWith("pico-transform: error: corrupt jar " + input + ": "), run.err());
        assertFalse(Files.exists(output));
    }

    @Test
    void a_report_path_that_is_a_directory_is_refused() throws Exception {
        Path report = Files.createDirectory(temporary.resolve("report"));

        CommandRun run = CommandRun.run("--report", report, classes(), temporary.resolve("out.jar"));

        assertRefused(run, "report file is a directory: " + report);
    }

    @Test
    void a_report_path_that_is_the_output_is_refused() {
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run("--report", output, classes(), output);

        assertRefused(run, "report file " + output + " is the input or the output");
    }

    @Test
    void verbose_adds_the_stack_trace_after_the_error_line() {
        Path input = temporary.resolve("missing");

        CommandRun run = CommandRun.run("--verbose", input, temporary.resolve("out.jar"));

        assertEquals(1, run.exitCode());
        List<String> lines = run.errorLines();
        assertEquals("pico-transform: error: input does not exist: " + input, lines.get(0));
        assertTrue(lines.get(1).startsWith("org.picothreads.transform.io.ContainerException: "), lines.get(1));
        assertTrue(lines.get(2).trim().startsWith("at org.picothreads.transform."), lines.get(2));
    }

    private Path classes() {
        return TestFiles.writeTree(temporary.resolve("classes"),
                Map.of("com/x/Foo.class", TestClasses.plainClass("com/x/Foo")));
    }

    private static void assertRefused(CommandRun run, String message) {
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(List.of("pico-transform: error: " + message), run.errorLines());
        assertEquals("", run.out());
    }
}
