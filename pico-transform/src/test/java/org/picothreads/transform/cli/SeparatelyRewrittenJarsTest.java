package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.SourceCompiler;
import org.picothreads.transform.testing.TestClasspath;

/**
 * A library rewritten by one run of the command line and an application rewritten by another, with the rewritten
 * library on its {@code --classpath}: the application's calls of the library's methods that can suspend are
 * suspension points of their own, so a thread suspending in the library is captured through the application's
 * frames, which are restored where they were, and the program prints what it prints untransformed.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SeparatelyRewrittenJarsTest {
    private static final String LIBRARY = """
            package lib;

            public final class Pause {
                private Pause() {
                }

                /** Sleeps a little, then returns the value doubled. */
                public static int sleepAndDouble(int value) throws InterruptedException {
                    Thread.sleep(5);
                    return 2 * value;
                }
            }
            """;

    private static final String APPLICATION = """
            package app;

            import java.util.Arrays;

            public final class Main {
                private Main() {
                }

                public static void main(String[] arguments) throws Exception {
                    int[] entries = new int[20];
                    int[] results = new int[20];
                    Thread[] threads = new Thread[20];
                    for (int index = 0; index < threads.length; index++) {
                        int number = index;
                        threads[index] = new Thread(() -> {
                            entries[number]++;
                            try {
                                results[number] = lib.Pause.sleepAndDouble(number) + 1;
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
                        threads[index].start();
                    }
                    for (Thread thread : threads) {
                        thread.join();
                    }
                    System.out.println("results " + Arrays.toString(results) + ", entries " + Arrays.toString(entries)
                            + ", PicoThreads " + (threads[0].getClass() != Thread.class));
                }
            }
            """;

    @TempDir
    Path temporary;

    @Test
    void an_application_rewritten_against_a_separately_rewritten_library_suspends_in_it_and_prints_the_same()
            throws Exception {
        Path compiled = temporary.resolve("compiled");
        SourceCompiler.compile(compiled, Map.of("lib.Pause", LIBRARY, "app.Main", APPLICATION));
        Path library = moveTree(compiled.resolve("lib"), temporary.resolve("library/lib"));
        Path application = moveTree(compiled.resolve("app"), temporary.resolve("application/app"));
        Path libraryRewritten = temporary.resolve("library-rewritten.jar");
        Path applicationRewritten = temporary.resolve("application-rewritten.jar");
        Path report = temporary.resolve("application-report.json");

        CommandRun libraryRun = CommandRun.run(library.getParent(), libraryRewritten);
        CommandRun applicationRun = CommandRun.run("--classpath", libraryRewritten, "--report", report,
                application.getParent(), applicationRewritten);

        assertEquals(0, libraryRun.exitCode(), libraryRun.err());
        assertEquals(0, applicationRun.exitCode(), applicationRun.err());
        String json = Files.readString(report);
        // The lambda's call of the library is a suspension point, and nothing pins.
        assertTrue(json.contains("\"target\": \"lib/Pause.sleepAndDouble(I)I\""), json);
        assertTrue(json.contains("\"pinnedCallSites\": 0"), json);
        String untransformed = runJava(List.of(application.getParent(), library.getParent()));
        String transformed = runJava(List.of(applicationRewritten, libraryRewritten));
        String expected = "results [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39], entries"
                + " [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], PicoThreads ";
        assertEquals(expected + "false\n", untransformed);
        assertEquals(expected + "true\n", transformed);
    }

    private static Path moveTree(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        return Files.move(from, to);
    }

    /** Runs app.Main in a child JVM with the given class path before the tests' own (which holds the runtime). */
    private String runJava(List<Path> classPath) throws Exception {
        List<String> entries = new ArrayList<>();
        classPath.forEach(entry -> entries.add(entry.toString()));
        TestClasspath.entries().forEach(entry -> entries.add(entry.toString()));
        Path output = Files.createTempFile(temporary, "child", ".out");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, entries), "app.Main")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit within 60 s");
        String printed = Files.readString(output, StandardCharsets.UTF_8).replace("\r\n", "\n");
        assertEquals(0, process.exitValue(), printed);
        return printed;
    }
}
