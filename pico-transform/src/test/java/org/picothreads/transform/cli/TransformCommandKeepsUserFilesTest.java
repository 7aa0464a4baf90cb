package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.io.TestFiles.bytes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.io.TestClasses;
import org.picothreads.transform.io.TestFiles;

/**
 * Runs that would lose a file the user had (OUTPUT a text file, INPUT and OUTPUT swapped, OUTPUT a library, a report
 * path holding a source file) are refused with one line and exit code 1, leaving every file as it was; an earlier
 * output of the command is still replaced.
 */
class TransformCommandKeepsUserFilesTest {
    private static final String STARTER = """
            package com.x;

            public class Starter {
                public static void main(String[] args) throws InterruptedException {
                    Thread worker = new Thread(() -> System.out.println("working"));
                    worker.start();
                    worker.join();
                }
            }
            """;

    @TempDir
    Path temporary;

    @Test
    void an_existing_file_that_is_not_a_jar_is_not_replaced() throws Exception {
        Path output = Files.writeString(temporary.resolve("notes.txt"), "my notes\n");

        CommandRun run = CommandRun.run(classes(), output);

        assertRefused(run, "output " + output + " is a file but not a jar; it would be replaced by a jar. Name another"
                + " output, or delete it first if it is to be replaced");
        assertEquals("my notes\n", Files.readString(output));
    }

    @Test
    void swapped_directories_do_not_overwrite_the_original_classes() throws Exception {
        Path classes = classes();
        Map<String, byte[]> originals = TestFiles.readTree(classes);
        Path rewritten = temporary.resolve("pico-out");
        assertEquals(0, CommandRun.run(classes, rewritten).exitCode());

        CommandRun swapped = CommandRun.run(rewritten, classes);

        assertEquals(1, swapped.exitCode(), swapped.err());
        assertEquals(List.of("pico-transform: error: output " + classes + " is a directory that PicoThreads did not"
                + " write, and 1 file in it would be lost (com/x/Starter.class); are INPUT and OUTPUT swapped? Name"
                + " another output, or delete it first if it is to be replaced"), swapped.errorLines());
        assertEquals("", swapped.out());
        Map<String, byte[]> after = TestFiles.readTree(classes);
        assertEquals(originals.keySet(), after.keySet());
        originals.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name));
    }

    @Test
    void swapped_jars_do_not_replace_the_original_jar() throws Exception {
        Path original = TestFiles.writeSimpleJar(temporary.resolve("app.jar"), TestFiles.readTree(classes()));
        byte[] originalBytes = Files.readAllBytes(original);
        Path rewritten = temporary.resolve("app-pico.jar");
        assertEquals(0, CommandRun.run(original, rewritten).exitCode());

        CommandRun swapped = CommandRun.run(rewritten, original);

        assertEquals(1, swapped.exitCode(), swapped.err());
        assertTrue(swapped.err().startsWith("pico-transform: error: output " + original + " is a jar that PicoThreads"
                + " did not write, and 1 file in it would be lost (com/x/Starter.class)"), swapped.err());
        assertArrayEquals(originalBytes, Files.readAllBytes(original));
    }

    @Test
    void a_jar_of_other_classes_is_not_replaced() throws Exception {
        Path library = TestFiles.writeSimpleJar(temporary.resolve("library.jar"), Map.of(
                "org/lib/A.class", TestClasses.plainClass("org/lib/A"),
                "org/lib/B.class", TestClasses.plainClass("org/lib/B"),
                "org/lib/C.class", TestClasses.plainClass("org/lib/C"),
                "org/lib/D.class", TestClasses.plainClass("org/lib/D")));
        byte[] libraryBytes = Files.readAllBytes(library);

        CommandRun run = CommandRun.run(classes(), library);

        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("and 4 files in it would be lost (org/lib/A.class, org/lib/B.class,"
                + " org/lib/C.class and 1 more)"), run.err());
        assertArrayEquals(libraryBytes, Files.readAllBytes(library));
    }

    @Test
    void an_output_that_is_a_classpath_entry_is_refused() throws Exception {
        Path library = TestFiles.writeSimpleJar(temporary.resolve("library.jar"),
                Map.of("org/lib/A.class", TestClasses.plainClass("org/lib/A")));

        CommandRun run = CommandRun.run("--classpath", library, classes(), library);

        assertRefused(run, "output " + library + " is the --classpath entry " + library
                + "; it would be replaced by the rewritten input");
    }

    @Test
    void an_earlier_output_is_replaced_when_the_input_changed() throws Exception {
        Path classes = classes();
        Path output = temporary.resolve("app-pico.jar");
        Path outputDirectory = temporary.resolve("pico-out");
        assertEquals(0, CommandRun.run(classes, output).exitCode());
        assertEquals(0, CommandRun.run(classes, outputDirectory).exitCode());
        Files.write(classes.resolve("com/x/Plain.class"), TestClasses.plainClass("com/x/Plain"));

        CommandRun toJar = CommandRun.run(classes, output);
        CommandRun toDirectory = CommandRun.run(classes, outputDirectory);

        assertEquals(0, toJar.exitCode(), toJar.err());
        assertEquals(0, toDirectory.exitCode(), toDirectory.err());
        assertTrue(TestFiles.entryNames(output).contains("com/x/Plain.class"));
        assertTrue(Files.exists(outputDirectory.resolve("com/x/Plain.class")));
    }

    @Test
    void a_directory_holding_the_same_files_is_written_into() throws Exception {
        Map<String, byte[]> plain = Map.of("com/x/Foo.class", TestClasses.plainClass("com/x/Foo"));
        Path input = TestFiles.writeTree(temporary.resolve("classes"), plain);
        Path output = TestFiles.writeTree(temporary.resolve("copy"), Map.of(
                "com/x/Foo.class", TestClasses.plainClass("com/x/Foo"), "notes.txt", bytes("kept")));

        CommandRun run = CommandRun.run(input, output);

        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("com/x/Foo.class", "notes.txt"), List.copyOf(TestFiles.readTree(output).keySet()));
    }

    @Test
    void a_report_path_that_holds_another_file_is_refused() throws Exception {
        Path source = Files.writeString(temporary.resolve("Main.java"), "class Main {}\n");

        CommandRun run = CommandRun.run("--report", source, classes(), temporary.resolve("out.jar"));

        assertRefused(run, "report file " + source + " already exists and is not a pico-transform report; name"
                + " another file, or delete it first if it is to be replaced");
        assertEquals("class Main {}\n", Files.readString(source));
    }

    @Test
    void an_earlier_report_is_replaced() throws Exception {
        Path report = temporary.resolve("report.json");
        Path classes = classes();
        assertEquals(0, CommandRun.run("--report", report, classes, temporary.resolve("first.jar")).exitCode());
        Files.write(classes.resolve("com/x/Plain.class"), TestClasses.plainClass("com/x/Plain"));

        CommandRun run = CommandRun.run("--report", report, classes, temporary.resolve("second.jar"));

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(Files.readString(report).contains("\"className\": \"com/x/Plain\""));
    }

    private Path classes() {
        Path classes = temporary.resolve("classes");
        if (!Files.isDirectory(classes)) {
            TestFiles.writeTree(classes, TestClasses.compile(temporary.resolve("compile"), Map.of("com.x.Starter",
                    STARTER)));
        }
        return classes;
    }

    private static void assertRefused(CommandRun run, String message) {
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(List.of("pico-transform: error: " + message), run.errorLines());
        assertEquals("", run.out());
    }
}
