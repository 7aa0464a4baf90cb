package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.io.TestClasses;
import org.picothreads.transform.io.TestFiles;
import org.picothreads.transform.testing.TestClasspath;

/**
 * The command in its own process keeps C2 out of its JVM (docs/cli.md): each case runs in a child JVM, since the
 * directive stays in the JVM that adds it.
 */
class ShortRunCompilationTest {
    private static final String MAIN = """
            package com.x;

            public class Main {
                public static void main(String[] args) throws InterruptedException {
                    Thread worker = new Thread(() -> {
                        try {
                            Thread.sleep(10);
                        } catch (InterruptedException interrupted) {
                            return;
                        }
                    });
                    worker.start();
                    worker.join();
                }
            }
            """;

    @TempDir
    Path temporary;

    @Test
    void the_jvm_running_the_tests_accepts_the_directive_that_keeps_every_method_from_c2() throws Exception {
        assertEquals("added: true", runJava(Adder.class.getName()).strip());
    }

    @Test
    void forty_classes_rewritten_by_the_command_in_its_own_process_are_the_bytes_a_run_inside_a_program_writes()
            throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.putAll(TestClasses.compile(temporary.resolve("compile"), Map.of("com.x.Main", MAIN)));
        for (int index = 0; index < 40; index++) {
            contents.put("com/x/Plain" + index + ".class", TestClasses.plainClass("com/x/Plain" + index));
        }
        Path application = TestFiles.writeSimpleJar(temporary.resolve("app.jar"), contents);
        Path alone = temporary.resolve("alone.jar");
        Path inside = temporary.resolve("inside.jar");

        String printed = runJava(TransformCommand.class.getName(), application.toString(), alone.toString());
        CommandRun run = CommandRun.run(application, inside);

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(printed.contains("rewrote 1 of 41 classes"), printed);
        assertArrayEquals(Files.readAllBytes(inside), Files.readAllBytes(alone));
    }

    /** Adds the directive in its own JVM and prints whether the JVM added it. */
    public static final class Adder {
        public static void main(String[] args) {
            System.out.println("added: " + ShortRunCompilation.apply());
        }
    }

    private String runJava(String mainClass, String... arguments) throws Exception {
        List<String> entries = new ArrayList<>();
        TestClasspath.entries().forEach(entry -> entries.add(entry.toString()));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", String.join(File.pathSeparator, entries), mainClass));
        command.addAll(List.of(arguments));
        Path output = Files.createTempFile(temporary, "child", ".out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the child JVM did not exit within 120 s");
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), printed);
        return printed;
    }
}
