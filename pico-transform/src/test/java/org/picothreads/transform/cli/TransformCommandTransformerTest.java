package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.io.TestFiles.bytes;

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

/**
 * Runs that go through {@link org.picothreads.transform.PicoTransformer}: they hold once the transformer is
 * implemented, which returns a class that does not use threads unchanged, byte for byte.
 */
class TransformCommandTransformerTest {
    private static final byte[] MANIFEST = bytes("Manifest-Version: 1.0\r\nMain-Class: com.x.Foo\r\n\r\n");
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
    void classes_without_threads_pass_from_a_directory_into_a_jar_unchanged() throws Exception {
        Path input = plainClasses();
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(input, output);

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("rewrote 0 of 2 classes (0 methods) into " + output + System.lineSeparator(), run.out());
        assertEquals("", run.err());
        Map<String, byte[]> written = TestFiles.contents(output);
        assertEquals(List.of("META-INF/MANIFEST.MF", "com/x/Bar.class", "com/x/Foo.class", "module-info.class"),
                List.copyOf(written.keySet()));
        TestFiles.readTree(input).forEach((name, bytes) -> assertArrayEquals(bytes, written.get(name), name));
    }

    @Test
    void the_same_directory_transformed_twice_gives_byte_identical_jars() throws Exception {
        Path input = plainClasses();
        Path first = temporary.resolve("first.jar");
        Path second = temporary.resolve("second.jar");

        assertEquals(0, CommandRun.run(input, first).exitCode());
        assertEquals(0, CommandRun.run(input, second).exitCode());

        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second));
    }

    @Test
    void a_jar_transformed_into_a_jar_keeps_its_manifest_module_info_and_resources_in_place() throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("META-INF/MANIFEST.MF", MANIFEST);
        contents.put("com/x/Foo.class", TestClasses.plainClass("com/x/Foo"));
        contents.put("module-info.class", TestClasses.moduleInfo("com.x"));
        contents.put("com/x/messages.properties", bytes("greeting=hello\n"));
        Path input = TestFiles.writeSimpleJar(temporary.resolve("in.jar"), contents);
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(input, output);

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("rewrote 0 of 1 class (0 methods) into " + output + System.lineSeparator(), run.out());
        Map<String, byte[]> written = TestFiles.contents(output);
        assertEquals(List.copyOf(contents.keySet()), List.copyOf(written.keySet()));
        contents.forEach((name, bytes) -> assertArrayEquals(bytes, written.get(name), name));
        assertEquals(TestFiles.ENTRY_TIME, TestFiles.entries(output).get(1).getTimeLocal());
    }

    @Test
    void a_jar_transformed_into_a_directory_merges_with_what_is_there() throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("com/x/Foo.class", TestClasses.plainClass("com/x/Foo"));
        contents.put("com/x/messages.properties", bytes("greeting=hello\n"));
        Path input = TestFiles.writeSimpleJar(temporary.resolve("in.jar"), contents);
        Path starter = TestFiles.writeTree(temporary.resolve("starter"), TestClasses.compile(
                temporary.resolve("compile"), Map.of("com.x.Starter", STARTER)));
        Path output = temporary.resolve("out");
        assertEquals(0, CommandRun.run(starter, output).exitCode(), "an earlier output, with a rewritten class");
        Files.write(output.resolve("com/x/Foo.class"), bytes("stale"));
        Files.write(output.resolve("kept.txt"), bytes("kept"));

        CommandRun run = CommandRun.run(input, output);

        assertEquals(0, run.exitCode(), run.err());
        Map<String, byte[]> files = TestFiles.readTree(output);
        assertEquals(List.of("com/x/Foo.class", "com/x/Starter.class", "com/x/messages.properties", "kept.txt"),
                List.copyOf(files.keySet()));
        assertArrayEquals(contents.get("com/x/Foo.class"), files.get("com/x/Foo.class"));
        assertEquals(List.of("compile", "in.jar", "out", "starter"), TestFiles.listing(temporary));
    }

    @Test
    void the_report_lists_each_class_sent_to_the_transformer_and_not_module_info() throws Exception {
        Path input = plainClasses();
        Path report = temporary.resolve("reports/report.json");

        CommandRun run = CommandRun.run("--report", report, input, temporary.resolve("out"));

        assertEquals(0, run.exitCode(), run.err());
        String json = Files.readString(report);
        assertTrue(json.contains("\"className\": \"com/x/Bar\",\n      \"source\": \""
                + input.resolve("com/x/Bar.class") + "\",\n      \"changed\": false,"), json);
        assertTrue(json.contains("\"className\": \"com/x/Foo\""), json);
        assertFalse(json.contains("module-info"), json);
        assertTrue(json.contains("\"summary\": {\n    \"classes\": 2,\n    \"changedClasses\": 0,"), json);
    }

    @Test
    void a_truncated_class_is_refused_naming_its_file() {
        byte[] whole = TestClasses.plainClass("com/x/Broken");
        Path input = TestFiles.writeTree(temporary.resolve("classes"), Map.of(
                "com/x/Broken.class", Arrays.copyOf(whole, whole.length / 2)));
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(input, output);

        assertEquals(1, run.exitCode());
        assertEquals(1, run.errorLines().size(), run.err());
        assertTrue(run.err().startsWith("pico-transform: error: "), run.err());
        assertTrue(run.err().contains(input.resolve("com/x/Broken.class").toString()), run.err());
        assertFalse(Files.exists(output));
    }

    @Test
    void a_class_file_that_holds_no_class_is_refused_naming_its_file() {
        Path input = TestFiles.writeTree(temporary.resolve("classes"), Map.of(
                "com/x/Foo.class", TestClasses.plainClass("com/x/Foo"),
                "com/x/Notes.class", bytes("these are notes, not a class")));
        Path inputJar = TestFiles.writeSimpleJar(temporary.resolve("in.jar"), TestFiles.readTree(input));

        CommandRun fromDirectory = CommandRun.run(input, temporary.resolve("out.jar"));
        CommandRun fromJar = CommandRun.run(inputJar, temporary.resolve("out"));

        assertEquals(1, fromDirectory.exitCode());
        assertEquals(1, fromDirectory.errorLines().size(), fromDirectory.err());
        assertTrue(fromDirectory.err().contains(input.resolve("com/x/Notes.class").toString()), fromDirectory.err());
        assertEquals(1, fromJar.exitCode());
        assertTrue(fromJar.err().contains(inputJar + "!/com/x/Notes.class"), fromJar.err());
        assertEquals(List.of("classes", "in.jar"), TestFiles.listing(temporary));
    }

    @Test
    void a_signed_jar_loses_its_signature_files_when_a_class_is_rewritten() throws Exception {
        Map<String, byte[]> classes = TestClasses.compile(temporary.resolve("compile"), Map.of("com.x.Starter",
                STARTER));
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("META-INF/MANIFEST.MF", MANIFEST);
        contents.put("META-INF/SIGNER.SF", bytes("Signature-Version: 1.0\r\n\r\n"));
        contents.put("META-INF/SIGNER.RSA", new byte[] {48, -126, 1, 2});
        contents.putAll(classes);
        Path input = TestFiles.writeSimpleJar(temporary.resolve("signed.jar"), contents);
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(input, output);

        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("pico-transform: warning: dropped the signature files of " + input
                + " (META-INF/SIGNER.SF, META-INF/SIGNER.RSA): the rewritten classes no longer match the signature"),
                run.errorLines());
        assertTrue(run.out().startsWith("rewrote 1 of 1 class ("), run.out());
        assertEquals(List.of("META-INF/MANIFEST.MF", "com/x/Starter.class"), TestFiles.entryNames(output));
        assertArrayEquals(MANIFEST, TestFiles.contents(output).get("META-INF/MANIFEST.MF"));
    }

    @Test
    void the_output_refers_to_pico_net_whether_or_not_the_classpath_names_it() throws Exception {
        Map<String, byte[]> classes = TestClasses.compile(temporary.resolve("compile"), Map.of("com.x.Lines", """
                package com.x;

                import java.io.BufferedReader;
                import java.io.StringReader;

                public class Lines {
                    public static void main(String[] args) throws Exception {
                        Thread worker = new Thread(() -> {
                            try {
                                System.out.println(new BufferedReader(new StringReader("a")).readLine());
                            } catch (java.io.IOException failure) {
                                throw new RuntimeException(failure);
                            }
                        });
                        worker.start();
                        worker.join();
                    }
                }
                """));
        Path output = temporary.resolve("out");

        CommandRun run = CommandRun.run(TestFiles.writeTree(temporary.resolve("classes"), classes), output);

        assertEquals(0, run.exitCode(), run.err());
        String rewritten = new String(Files.readAllBytes(output.resolve("com/x/Lines.class")),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(rewritten.contains("org/picothreads/net/io/PicoBufferedReader"), "not redirected to pico-net");
    }

    private Path plainClasses() {
        return TestFiles.writeTree(temporary.resolve("classes"), Map.of(
                "com/x/Foo.class", TestClasses.plainClass("com/x/Foo"),
                "com/x/Bar.class", TestClasses.plainClass("com/x/Bar"),
                "module-info.class", TestClasses.moduleInfo("com.x"),
                "META-INF/MANIFEST.MF", MANIFEST));
    }
}
