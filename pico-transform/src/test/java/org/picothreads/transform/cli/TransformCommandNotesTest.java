package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.io.TestFiles.bytes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.io.TestClasses;
import org.picothreads.transform.io.TestFiles;
import org.picothreads.transform.testing.OversizedClasses;

/**
 * What the command says about the parts of a program that will not suspend (pinned call sites, methods left as they
 * were because a class is missing from {@code --classpath}, a class left as it was because its rewrite would not
 * fit) and about an input without classes, and how {@code --strict} turns each into exit code 3 with nothing written.
 */
class TransformCommandNotesTest {
    /** A blocking call in a constructor, which pins: constructors cannot be re-entered. */
    private static final String CONNECTION = """
            package com.x;

            public class Connection {
                public Connection() throws InterruptedException {
                    Thread.sleep(1);
                }

                public static void main(String[] args) throws Exception {
                    Thread worker = new Thread(() -> {
                        try {
                            new Connection();
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
    void a_pinned_call_site_is_named_with_its_line_and_reason() {
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(classes(Map.of("com.x.Connection", CONNECTION)), output);

        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.errorLines();
        assertEquals("pico-transform: warning: 1 call site blocks in place (pinned) instead of suspending:",
                lines.get(lines.size() - 2), run.err());
        String site = lines.get(lines.size() - 1);
        assertTrue(site.startsWith("  com.x.Connection.<init>()V line 5: calls java/lang/Thread.sleep(J)V: "), site);
        assertTrue(site.contains("constructor"), site);
        assertTrue(Files.exists(output));
    }

    @Test
    void a_region_that_can_suspend_on_a_vector_is_named_with_its_line_and_strict_fails_on_it() {
        Map<String, String> sources = Map.of("com.x.Names", """
                package com.x;

                public class Names {
                    static final java.util.Vector<String> NAMES = new java.util.Vector<>();

                    static void addSlowly(String name) throws InterruptedException {
                        synchronized (NAMES) {
                            Thread.sleep(1);
                            NAMES.add(name);
                        }
                    }
                }
                """);

        Path input = classes(sources);
        CommandRun run = CommandRun.run(input, temporary.resolve("out.jar"));
        CommandRun strict = CommandRun.run("--strict", input, temporary.resolve("strict.jar"));

        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.errorLines();
        assertEquals("pico-transform: warning: 1 synchronized region can suspend holding the monitor of an object that"
                + " JDK code also locks; the JDK's own synchronized methods on it do not wait for a suspended holder:",
                lines.get(lines.size() - 2), run.err());
        assertEquals("  com.x.Names.addSlowly(Ljava/lang/String;)V line 7: synchronized on a java.util.Vector",
                lines.get(lines.size() - 1), run.err());
        assertEquals(3, strict.exitCode(), strict.err());
        assertFalse(Files.exists(temporary.resolve("strict.jar")));
    }

    @Test
    void strict_fails_on_a_pinned_call_site_and_writes_nothing() {
        Path output = temporary.resolve("out.jar");
        Path report = temporary.resolve("report.json");

        CommandRun run = CommandRun.run("--strict", "--report", report, classes(Map.of("com.x.Connection",
                CONNECTION)), output);

        assertEquals(3, run.exitCode(), run.err());
        List<String> lines = run.errorLines();
        assertTrue(lines.contains("pico-transform: error: 1 call site blocks in place (pinned) instead of suspending:"),
                run.err());
        assertEquals("pico-transform: error: --strict is given, so nothing was written", lines.get(lines.size() - 1));
        assertEquals("", run.out());
        assertFalse(Files.exists(output));
        assertFalse(Files.exists(report));
    }

    @Test
    void only_the_first_five_pinned_call_sites_are_named() {
        StringBuilder source = new StringBuilder("package com.x;\n\npublic class Many {\n");
        for (int index = 0; index < 7; index++) {
            source.append("    public Many(String name");
            for (int parameter = 0; parameter < index; parameter++) {
                source.append(", int number").append(parameter);
            }
            source.append(") throws InterruptedException { Thread.sleep(1); }\n");
        }
        source.append("}\n");
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(classes(Map.of("com.x.Many", source.toString())), output);

        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.errorLines();
        int header = lines.indexOf("pico-transform: warning: 7 call sites block in place (pinned) instead of"
                + " suspending:");
        assertTrue(header >= 0, run.err());
        assertEquals(header + 7, lines.size(), run.err());
        assertEquals("  ... and 2 more; --report FILE lists every one", lines.get(header + 6));
    }

    @Test
    void a_method_left_as_it_was_for_a_class_missing_from_the_classpath_is_named_with_the_reason() {
        Map<String, byte[]> compiled = TestClasses.compile(temporary.resolve("compile"), Map.of(
                "org.lib.Base", "package org.lib; public class Base {}",
                "org.lib.Left", "package org.lib; public class Left extends Base {}",
                "org.lib.Right", "package org.lib; public class Right extends Base {}",
                "com.x.Chooser", """
                        package com.x;

                        public class Chooser {
                            public static Object choose(boolean left) throws InterruptedException {
                                Object chosen = left ? new org.lib.Left() : new org.lib.Right();
                                Thread.sleep(1);
                                return chosen;
                            }
                        }
                        """));
        Map<String, byte[]> application = new HashMap<>();
        compiled.forEach((name, bytes) -> {
            if (name.startsWith("com/")) {
                application.put(name, bytes);
            }
        });
        Path input = TestFiles.writeTree(temporary.resolve("classes"), application);
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(input, output);
        CommandRun strict = CommandRun.run("--strict", input, temporary.resolve("strict.jar"));

        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.errorLines();
        assertEquals("pico-transform: warning: 1 method is left as it was, so the blocking calls in them block in"
                + " place (pinned):", lines.get(0), run.err());
        assertTrue(lines.get(1).startsWith("  com.x.Chooser.choose(Z)Ljava/lang/Object;: "), lines.get(1));
        assertTrue(lines.get(1).contains("class org.lib.Left is not among the inputs, on --classpath, or in the JDK"),
                lines.get(1));
        assertEquals(3, strict.exitCode(), strict.err());
        assertFalse(Files.exists(temporary.resolve("strict.jar")));
    }

    @Test
    void a_class_too_large_after_rewriting_is_copied_as_it_was_and_named_with_the_reason_and_strict_fails_on_it()
            throws Exception {
        Map<String, byte[]> compiled = TestClasses.compile(temporary.resolve("compile"), Map.of("com.x.Huge", """
                package com.x;

                public class Huge {
                    static void nap() throws InterruptedException {
                        Thread.sleep(1);
                    }
                }
                """));
        byte[] huge = OversizedClasses.nearlyFullConstantPool(compiled.get("com/x/Huge.class"));
        Path input = TestFiles.writeTree(temporary.resolve("classes"), Map.of("com/x/Huge.class", huge));
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run(input, output);
        CommandRun strict = CommandRun.run("--strict", input, temporary.resolve("strict.jar"));

        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.errorLines();
        assertEquals("pico-transform: warning: 1 class is left as it was (not rewritten), so the blocking calls under"
                + " their methods block in place (pinned):", lines.get(0), run.err());
        assertTrue(lines.get(1).startsWith("  com.x.Huge: the class would have ")
                && lines.get(1).contains(" constant pool entries after rewriting, more than a class file holds, so it"
                        + " is left as it was"), lines.get(1));
        try (ZipFile jar = new ZipFile(output.toFile())) {
            assertArrayEquals(huge, jar.getInputStream(jar.getEntry("com/x/Huge.class")).readAllBytes());
        }
        assertEquals(3, strict.exitCode(), strict.err());
        assertFalse(Files.exists(temporary.resolve("strict.jar")));
    }

    @Test
    void an_input_without_classes_is_said_and_strict_refuses_it() {
        Path input = TestFiles.writeTree(temporary.resolve("resources"), Map.of("notes.txt", bytes("notes")));

        CommandRun run = CommandRun.run(input, temporary.resolve("out.jar"));
        CommandRun strict = CommandRun.run("--strict", input, temporary.resolve("strict.jar"));

        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("pico-transform: warning: " + input + " holds no class files; the output is a copy of its"
                + " other files"), run.errorLines());
        assertEquals(3, strict.exitCode(), strict.err());
        assertEquals(List.of("pico-transform: error: " + input + " holds no class files; the output is a copy of its"
                + " other files", "pico-transform: error: --strict is given, so nothing was written"),
                strict.errorLines());
        assertFalse(Files.exists(temporary.resolve("strict.jar")));
    }

    @Test
    void a_program_whose_every_blocking_call_suspends_prints_only_the_summary() {
        Path output = temporary.resolve("out.jar");

        CommandRun run = CommandRun.run("--strict", classes(Map.of("com.x.Sleeper", """
                package com.x;

                public class Sleeper {
                    public static void main(String[] args) throws Exception {
                        Thread worker = new Thread(() -> {
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException interrupted) {
                                return;
                            }
                        });
                        worker.start();
                        worker.join();
                    }
                }
                """)), output);

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        assertTrue(run.out().startsWith("rewrote 1 of 1 class ("), run.out());
    }

    private Path classes(Map<String, String> sources) {
        return TestFiles.writeTree(temporary.resolve("classes"), TestClasses.compile(temporary.resolve("compile"),
                sources));
    }
}
