package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.io.TestFiles.bytes;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Shipping the command's output as docs/cli.md says: an executable jar whose manifest names the runtime in its
 * {@code Class-Path}, rewritten, runs with {@code java -jar} next to {@code pico-runtime.jar}.
 */
class ExecutableJarTest {
    private static final String MAIN = """
            package com.x;

            public class Main {
                public static void main(String[] args) throws InterruptedException {
                    String[] seen = new String[1];
                    Thread worker = new Thread(() -> {
                        try {
                            Thread.sleep(10);
                        } catch (InterruptedException interrupted) {
                            return;
                        }
                        seen[0] = Thread.currentThread().getClass().getName();
                    });
                    worker.start();
                    worker.join();
                    System.out.println("ran on " + seen[0]);
                }
            }
            """;

    @TempDir
    Path temporary;

    @Test
    void a_rewritten_executable_jar_runs_with_java_jar_beside_the_runtime_its_class_path_names() throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("META-INF/MANIFEST.MF", bytes("Manifest-Version: 1.0\r\nMain-Class: com.x.Main\r\n"
                + "Class-Path: pico-runtime.jar pico-net.jar\r\n\r\n"));
        contents.putAll(TestClasses.compile(temporary.resolve("compile"), Map.of("com.x.Main", MAIN)));
        Path application = TestFiles.writeSimpleJar(temporary.resolve("app.jar"), contents);
        Path shipped = Files.createDirectories(temporary.resolve("ship"));
        copyRuntimeTo(shipped.resolve("pico-runtime.jar"));

        CommandRun run = CommandRun.run(application, shipped.resolve("app-pico.jar"));

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("ran on java.lang.Thread", javaJar(application));
        assertEquals("ran on org.picothreads.runtime.PicoThread", javaJar(shipped.resolve("app-pico.jar")));
    }

    /** Writes the runtime's classes, from this module's test classpath, as a jar. */
    private static void copyRuntimeTo(Path jar) throws Exception {
        for (Path entry : TestClasspath.entries()) {
            if (Files.isDirectory(entry) && Files.exists(entry.resolve("org/picothreads/runtime/PicoThread.class"))) {
                TestFiles.writeSimpleJar(jar, TestFiles.readTree(entry));
                return;
            }
            if (Files.isRegularFile(entry) && entry.getFileName().toString().startsWith("pico-runtime")) {
                Files.copy(entry, jar);
                return;
            }
        }
        throw new IllegalStateException("pico-runtime is not on the test classpath: " + TestClasspath.entries());
    }

    private String javaJar(Path jar) throws Exception {
        Path output = temporary.resolve("output.txt");
        Path errors = temporary.resolve("errors.txt");
        Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", jar.toString())).redirectOutput(output.toFile()).redirectError(errors.toFile())
                .start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit within 60 s");
        assertEquals(0, process.exitValue(), Files.readString(errors, StandardCharsets.UTF_8));
        return Files.readString(output, StandardCharsets.UTF_8).trim();
    }
}
