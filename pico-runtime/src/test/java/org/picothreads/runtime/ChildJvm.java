package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@link ChildProgram} in a child JVM with the test's java executable and class path, and collects its output. */
final class ChildJvm {
    /** What the child printed and how it ended. */
    record Result(int exitCode, String output, String errors, long elapsedMillis) {
    }

    private ChildJvm() {
    }

    static Result run(List<String> jvmOptions, String... arguments) throws IOException, InterruptedException {
        return run(jvmOptions, List.of(), arguments);
    }

    /** Runs the child with {@code classPathFirst} before the test's class path. */
    static Result run(List<String> jvmOptions, List<Path> classPathFirst, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The child runs the same hand-written protocol frames as these tests: no frame check (see pom.xml).
        command.add("-Dpicothreads.checkFrames=" + System.getProperty("picothreads.checkFrames", "true"));
        command.addAll(jvmOptions);
        command.add("-cp");
        List<String> classPath = new ArrayList<>();
        classPathFirst.forEach(entry -> classPath.add(entry.toString()));
        classPath.add(System.getProperty("java.class.path"));
        command.add(String.join(File.pathSeparator, classPath));
        command.add(ChildProgram.class.getName());
        command.addAll(Arrays.asList(arguments));
        File output = File.createTempFile("pico-child", ".out");
        File errors = File.createTempFile("pico-child", ".err");
        try {
            long started = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectOutput(output).redirectError(errors).start();
            boolean exited = process.waitFor(20, TimeUnit.SECONDS);
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (!exited) {
                process.destroyForcibly().waitFor();
            }
            String printed = Files.readString(output.toPath(), StandardCharsets.UTF_8);
            String reported = Files.readString(errors.toPath(), StandardCharsets.UTF_8);
            assertTrue(exited, () -> "the child JVM did not exit within 20 s; it printed: " + printed + reported);
            return new Result(process.exitValue(), printed, reported, elapsed);
        } finally {
            Files.deleteIfExists(output.toPath());
            Files.deleteIfExists(errors.toPath());
        }
    }
}
