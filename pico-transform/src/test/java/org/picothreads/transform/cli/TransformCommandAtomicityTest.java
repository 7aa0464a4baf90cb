package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.transform.io.TestFiles.bytes;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.io.TestClasses;
import org.picothreads.transform.io.TestFiles;

/** A run writes its output and report entirely or not at all, and leaves no temporary files either way. */
class TransformCommandAtomicityTest {
    @TempDir
    Path temporary;

    @Test
    void a_run_that_cannot_transform_leaves_an_existing_output_jar_untouched_and_writes_no_report() throws Exception {
        Path input = classesWithATruncatedOne();
        Path output = Files.writeString(temporary.resolve("out.jar"), "the previous output");
        Path report = temporary.resolve("report.json");
        List<String> before = TestFiles.listing(temporary);

        CommandRun run = CommandRun.run("--report", report, input, output);

        assertEquals(1, run.exitCode());
        assertEquals(1, run.errorLines().size(), run.err());
        assertEquals("the previous output", Files.readString(output));
        assertEquals(before, TestFiles.listing(temporary));
        assertEquals("", run.out());
    }

    @Test
    void a_run_that_cannot_transform_leaves_an_existing_output_directory_untouched() throws Exception {
        Path input = classesWithATruncatedOne();
        Path output = TestFiles.writeTree(temporary.resolve("out"), Map.of("com/x/Good.class", bytes("previous")));
        List<String> before = TestFiles.listing(temporary);

        CommandRun run = CommandRun.run(input, output);

        assertEquals(1, run.exitCode());
        assertEquals(Map.of("com/x/Good.class", "previous"), texts(TestFiles.readTree(output)));
        assertEquals(before, TestFiles.listing(temporary));
    }

    @Test
    void a_run_that_fails_while_writing_leaves_an_existing_output_directory_untouched() throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("fine.txt", bytes("fine"));
        contents.put("../escaped.txt", bytes("gotcha"));
        Path input = TestFiles.writeSimpleJar(temporary.resolve("resources.jar"), contents);
        Path output = TestFiles.writeTree(temporary.resolve("out"), Map.of("old.txt", bytes("old")));
        Path report = temporary.resolve("report.json");

        CommandRun run = CommandRun.run("--report", report, input, output);

        assertEquals(1, run.exitCode());
        assertEquals(List.of("pico-transform: error: cannot write entry ../escaped.txt of " + input
                + ": its name leads outside the output directory"), run.errorLines());
        assertEquals(Map.of("old.txt", "old"), texts(TestFiles.readTree(output)));
        assertEquals(List.of("out", "resources.jar"), TestFiles.listing(temporary));
    }

    @Test
    void a_jar_of_resources_only_is_copied_entry_for_entry_with_an_empty_report() throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("META-INF/MANIFEST.MF", bytes("Manifest-Version: 1.0\r\n\r\n"));
        contents.put("config/app.properties", bytes("threads=many\n"));
        contents.put("module-info.class", TestClasses.moduleInfo("com.x"));
        Path input = TestFiles.writeSimpleJar(temporary.resolve("resources.jar"), contents);
        Path output = temporary.resolve("out.jar");
        Path report = temporary.resolve("report.json");

        CommandRun run = CommandRun.run("--report", report, input, output);

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("rewrote 0 of 0 classes (0 methods) into " + output + System.lineSeparator(), run.out());
        assertEquals(List.of("pico-transform: warning: " + input + " holds no class files; the output is a copy of its"
                + " other files"), run.errorLines());
        Map<String, byte[]> written = TestFiles.contents(output);
        assertEquals(List.copyOf(contents.keySet()), List.copyOf(written.keySet()));
        contents.forEach((name, bytes) -> assertArrayEquals(bytes, written.get(name), name));
        assertEquals("{\n  \"classes\": [],\n  \"summary\": {\n    \"classes\": 0,\n    \"changedClasses\": 0,\n"
                + "    \"rewrittenMethods\": 0,\n    \"untransformedMethods\": 0,\n    \"suspensionPoints\": 0,\n"
                + "    \"pinnedCallSites\": 0\n  }\n}\n", Files.readString(report));
        assertEquals(List.of("out.jar", "report.json", "resources.jar"), TestFiles.listing(temporary));
    }

    private Path classesWithATruncatedOne() {
        byte[] whole = TestClasses.plainClass("com/x/Broken");
        return TestFiles.writeTree(temporary.resolve("classes"), Map.of(
                "com/x/Good.class", TestClasses.plainClass("com/x/Good"),
                "com/x/Broken.class", Arrays.copyOf(whole, whole.length / 2)));
    }

    private static Map<String, String> texts(Map<String, byte[]> files) {
        Map<String, String> texts = new LinkedHashMap<>();
        files.forEach((name, bytes) -> texts.put(name, new String(bytes, StandardCharsets.UTF_8)));
        return texts;
    }
}
