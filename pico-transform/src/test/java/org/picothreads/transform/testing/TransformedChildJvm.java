package org.picothreads.transform.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;

/**
 * Runs a test program transformed in a child JVM, for what only a whole JVM shows (its exit status, what it prints
 * when it ends, what a system property read once at startup turns on): the classes of the program's package are
 * transformed with the facade into a temporary directory, which comes first on the child's class path, before the
 * tests' own class path with the runtime.
 */
public final class TransformedChildJvm {
    /** How long the child may run before it is killed and the test fails. */
    private static final long TIME_LIMIT_SECONDS = 60;

    /** What the child printed and how it ended. */
    public record Result(int exitCode, String output, String errors, long elapsedMillis) {
    }

    private TransformedChildJvm() {
    }

    /**
     * Transforms the package of {@code program} (subpackages included) and runs the transformed {@code main} of
     * {@code program} in a child JVM with the given options and arguments.
     */
    public static Result run(Class<?> program, List<String> jvmOptions, String... arguments)
            throws IOException, InterruptedException {
        Path classes = Files.createTempDirectory("pico-transformed");
        try {
            writeTransformedPackage(program.getPackageName() + ".", classes);
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.add("-cp");
            List<String> classPath = new ArrayList<>();
            classPath.add(classes.toString());
            TestClasspath.entries().forEach(entry -> classPath.add(entry.toString()));
            command.add(String.join(File.pathSeparator, classPath));
            command.add(program.getName());
            command.addAll(List.of(arguments));
            return runCommand(command, classes);
        } finally {
            deleteRecursively(classes);
        }
    }

    /** Runs {@code main} of {@code program} as compiled, on platform threads, in a child JVM, to compare with. */
    public static Result runAsCompiled(Class<?> program, List<String> jvmOptions, String... arguments)
            throws IOException, InterruptedException {
        Path workDirectory = Files.createTempDirectory("pico-as-compiled");
        try {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.add("-cp");
            List<String> classPath = new ArrayList<>();
            TestClasspath.entries().forEach(entry -> classPath.add(entry.toString()));
            command.add(String.join(File.pathSeparator, classPath));
            command.add(program.getName());
            command.addAll(List.of(arguments));
            return runCommand(command, workDirectory);
        } finally {
            deleteRecursively(workDirectory);
        }
    }

    private static Result runCommand(List<String> command, Path workDirectory)
            throws IOException, InterruptedException {
        Path output = workDirectory.resolve("child.out");
        Path errors = workDirectory.resolve("child.err");
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .redirectOutput(output.toFile())
                .redirectError(errors.toFile())
                .start();
        boolean exited = process.waitFor(TIME_LIMIT_SECONDS, TimeUnit.SECONDS);
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8).replace("\r\n", "\n");
        String reported = Files.readString(errors, StandardCharsets.UTF_8).replace("\r\n", "\n");
        assertTrue(exited, () -> "the child JVM did not exit within " + TIME_LIMIT_SECONDS + " s; it printed: "
                + printed + reported);
        return new Result(process.exitValue(), printed, reported, elapsed);
    }

    private static void writeTransformedPackage(String packagePrefix, Path directory) throws IOException {
        List<ClassOutput> outputs;
        try {
            outputs = PicoTransformer.withClasspath(TestClasspath.entries())
                    .transform(TestClasspath.classFilesOf(List.of(packagePrefix))).classes();
        } catch (TransformException exception) {
            throw new AssertionError("the transformer rejected " + packagePrefix + ": " + exception.getMessage(),
                    exception);
        }
        for (ClassOutput output : outputs) {
            Path file = directory.resolve(output.className() + ".class");
            Files.createDirectories(file.getParent());
            Files.write(file, output.bytes());
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (UncheckedIOException exception) {
            throw exception.getCause();
        }
    }
}
