package org.picothreads.maven;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.io.ClassNameFilter;

class ClassDirectoryTransformationTest {
    private static final String SLEEPER = """
            package app;

            public class Sleeper {
                public static void sleepOnAThread() throws InterruptedException {
                    Thread thread = new Thread(() -> {
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException interrupted) {
                            return;
                        }
                    });
                    thread.start();
                    thread.join();
                }
            }
            """;
    private static final String PLAIN = """
            package app;

            public class Plain {
                public static int twice(int value) {
                    return value * 2;
                }
            }
            """;
    private static final String PINNED = """
            package app;

            public class Pinned {
                public Pinned() throws InterruptedException {
                    Thread.sleep(1);
                }
            }
            """;
    private static final String SHARED = """
            package app;

            import java.util.ArrayList;
            import java.util.Collections;
            import java.util.List;

            public class Shared {
                final List<String> names = Collections.synchronizedList(new ArrayList<>());

                public void addSlowly(String name) throws InterruptedException {
                    synchronized (names) {
                        Thread.sleep(1);
                        names.add(name);
                    }
                }
            }
            """;
    private static final String SHARED_WARNING = "PicoThreads: 1 synchronized region can suspend holding the monitor"
            + " of an object that JDK code also locks; the JDK's own synchronized methods on it do not wait for a"
            + " suspended holder";
    private static final String SHARED_REGION = "  app.Shared.addSlowly(Ljava/lang/String;)V line 11: synchronized on"
            + " field app.Shared.names, set from java.util.Collections.synchronizedList";

    private static final String CLIENT = """
            package app;

            import java.io.IOException;
            import java.net.InetAddress;
            import java.net.Socket;

            public class Client {
                public static int firstByte(int port) throws IOException {
                    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                        return socket.getInputStream().read();
                    }
                }
            }
            """;
    /** The class by which the transformer knows pico-net is on the classpath (RuntimeNames.NET_PROBE). */
    private static final String NET_PROBE = """
            package org.picothreads.net;

            public final class ChannelCalls {
            }
            """;
    private static final String SOCKET_WARNING = "PicoThreads: app.Client uses sockets, but pico-net is not on the"
            + " classpath: its socket calls block the carrier thread, and every PicoThread waits with them; add the"
            + " dependency org.picothreads:pico-net";

    @TempDir
    Path directory;

    private Path classes;
    private Path sources;
    private final RecordingLog log = new RecordingLog();

    @BeforeEach
    void createDirectories() throws IOException {
        classes = Files.createDirectories(directory.resolve("classes"));
        sources = Files.createDirectories(directory.resolve("sources"));
    }

    private void compile(Path output, Map<String, String> classSources) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--release", "17", "-g", "-d", output.toString()));
        for (Map.Entry<String, String> source : classSources.entrySet()) {
            Path file = sources.resolve(source.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            arguments.add(file.toString());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        assertEquals(0, compiler.run(null, null, diagnostics, arguments.toArray(String[]::new)),
                diagnostics::toString);
    }

    private ClassDirectoryTransformation.Request request(ClassNameFilter filter, List<DependencyToRewrite> dependencies,
            boolean failOnPinned) {
        return new ClassDirectoryTransformation.Request(classes, List.of(), List.of(), filter, dependencies, "options",
                directory.resolve("state/transform-state"), directory.resolve("report.json"), failOnPinned);
    }

    private ClassDirectoryTransformation.Outcome run(ClassNameFilter filter) throws Exception {
        return new ClassDirectoryTransformation(request(filter, List.of(), false), log).run();
    }

    private byte[] classFile(String path) throws IOException {
        return Files.readAllBytes(classes.resolve(path));
    }

    @Test
    void a_second_run_with_nothing_changed_rewrites_nothing_and_says_so() throws Exception {
        compile(classes, Map.of("app.Sleeper", SLEEPER, "app.Plain", PLAIN));

        ClassDirectoryTransformation.Outcome first = run(ClassNameFilter.everyClass());
        byte[] rewritten = classFile("app/Sleeper.class");
        ClassDirectoryTransformation.Outcome second = run(ClassNameFilter.everyClass());

        assertEquals(new ClassDirectoryTransformation.Outcome(2, 1, false), first);
        assertTrue(PicoTransformer.isTransformed(rewritten));
        assertFalse(PicoTransformer.isTransformed(classFile("app/Plain.class")));
        assertEquals(new ClassDirectoryTransformation.Outcome(2, 0, true), second);
        assertArrayEquals(rewritten, classFile("app/Sleeper.class"));
        assertTrue(log.lines().contains("INFO PicoThreads: nothing to rewrite, 2 classes up to date in " + classes),
                log.lines()::toString);
        assertTrue(Files.readString(directory.resolve("report.json")).contains("\"className\": \"app/Sleeper\""));
    }

    @Test
    void a_run_with_another_plugin_build_or_options_refuses_classes_an_earlier_run_rewrote_and_writes_nothing()
            throws Exception {
        compile(classes, Map.of("app.Sleeper", SLEEPER, "app.Plain", PLAIN));
        run(ClassNameFilter.everyClass());
        byte[] rewritten = classFile("app/Sleeper.class");
        byte[] state = Files.readAllBytes(directory.resolve("state/transform-state"));

        ClassDirectoryTransformation.Request otherBuild = new ClassDirectoryTransformation.Request(classes, List.of(),
                List.of(), ClassNameFilter.everyClass(), List.of(), "another build of the plugin",
                directory.resolve("state/transform-state"), directory.resolve("report.json"), false);
        MojoFailureException refused = assertThrows(MojoFailureException.class,
                () -> new ClassDirectoryTransformation(otherBuild, log).run());

        assertTrue(refused.getMessage().contains("app/Sleeper.class") && refused.getMessage().contains("mvn clean"),
                refused.getMessage());
        assertArrayEquals(rewritten, classFile("app/Sleeper.class"));
        assertArrayEquals(state, Files.readAllBytes(directory.resolve("state/transform-state")));
    }

    @Test
    void a_recompiled_class_is_rewritten_again_and_a_rewritten_one_is_never_rewritten_twice() throws Exception {
        compile(classes, Map.of("app.Sleeper", SLEEPER, "app.Plain", PLAIN));
        byte[] original = classFile("app/Sleeper.class");
        run(ClassNameFilter.everyClass());
        byte[] rewritten = classFile("app/Sleeper.class");

        Files.write(classes.resolve("app/Sleeper.class"), original);
        ClassDirectoryTransformation.Outcome again = run(ClassNameFilter.everyClass());

        assertEquals(new ClassDirectoryTransformation.Outcome(2, 1, false), again);
        assertArrayEquals(rewritten, classFile("app/Sleeper.class"));
    }

    @Test
    void a_new_class_makes_the_run_check_every_class_again_and_rewrite_only_the_new_one() throws Exception {
        compile(classes, Map.of("app.Sleeper", SLEEPER));
        run(ClassNameFilter.everyClass());
        byte[] rewritten = classFile("app/Sleeper.class");

        compile(classes, Map.of("app.Other", SLEEPER.replace("Sleeper", "Other")));
        ClassDirectoryTransformation.Outcome withNewClass = run(ClassNameFilter.everyClass());

        assertEquals(new ClassDirectoryTransformation.Outcome(2, 1, false), withNewClass);
        assertArrayEquals(rewritten, classFile("app/Sleeper.class"));
        assertTrue(PicoTransformer.isTransformed(classFile("app/Other.class")));
        assertTrue(log.lines().get(log.lines().size() - 1).contains("1 were rewritten by an earlier build"),
                log.lines()::toString);
    }

    @Test
    void an_excluded_class_is_left_as_compiled() throws Exception {
        compile(classes, Map.of("app.Sleeper", SLEEPER, "app.Other", SLEEPER.replace("Sleeper", "Other")));

        ClassDirectoryTransformation.Outcome outcome = run(ClassNameFilter.of(List.of(), List.of("app.Other*")));

        assertEquals(new ClassDirectoryTransformation.Outcome(1, 1, false), outcome);
        assertFalse(PicoTransformer.isTransformed(classFile("app/Other.class")));
        assertTrue(PicoTransformer.isTransformed(classFile("app/Sleeper.class")));
    }

    @Test
    void fail_on_pinned_lists_each_pinned_call_site_and_writes_nothing() throws Exception {
        compile(classes, Map.of("app.Sleeper", SLEEPER, "app.Pinned", PINNED));
        byte[] original = classFile("app/Sleeper.class");

        MojoFailureException failure = assertThrows(MojoFailureException.class,
                () -> new ClassDirectoryTransformation(request(ClassNameFilter.everyClass(), List.of(), true), log)
                        .run());

        assertTrue(failure.getMessage().startsWith("PicoThreads: 1 call site blocks in place, pinning its thread,"
                + " instead of suspending (failOnPinned is set):\n  app.Pinned.<init>()V line 5: calls "),
                failure.getMessage());
        assertTrue(failure.getMessage().contains(".sleep(J)V: in a constructor"), failure.getMessage());
        assertArrayEquals(original, classFile("app/Sleeper.class"));
        assertFalse(Files.exists(directory.resolve("state/transform-state")));
    }

    @Test
    void fail_on_pinned_also_fails_a_build_with_nothing_left_to_rewrite() throws Exception {
        compile(classes, Map.of("app.Pinned", PINNED));
        run(ClassNameFilter.everyClass());

        MojoFailureException failure = assertThrows(MojoFailureException.class,
                () -> new ClassDirectoryTransformation(request(ClassNameFilter.everyClass(), List.of(), true), log)
                        .run());

        assertTrue(failure.getMessage().contains("app.Pinned.<init>()V line 5"), failure.getMessage());
    }

    @Test
    void a_region_that_can_suspend_on_a_monitor_jdk_code_also_locks_is_named_in_a_warning_on_every_build()
            throws Exception {
        compile(classes, Map.of("app.Shared", SHARED, "app.Sleeper", SLEEPER));

        ClassDirectoryTransformation.Outcome first = run(ClassNameFilter.everyClass());
        ClassDirectoryTransformation.Outcome second = run(ClassNameFilter.everyClass());

        assertEquals(new ClassDirectoryTransformation.Outcome(2, 2, false), first);
        assertEquals(new ClassDirectoryTransformation.Outcome(2, 0, true), second);
        String warning = "WARN " + SHARED_WARNING + ":\n" + SHARED_REGION;
        assertEquals(List.of(warning, warning), log.lines().stream().filter(line -> line.startsWith("WARN")).toList());
    }

    @Test
    void fail_on_pinned_fails_on_a_region_that_can_suspend_on_a_monitor_jdk_code_also_locks_and_writes_nothing()
            throws Exception {
        compile(classes, Map.of("app.Shared", SHARED));
        byte[] original = classFile("app/Shared.class");

        MojoFailureException failure = assertThrows(MojoFailureException.class,
                () -> new ClassDirectoryTransformation(request(ClassNameFilter.everyClass(), List.of(), true), log)
                        .run());

        assertEquals(SHARED_WARNING + " (failOnPinned is set):\n" + SHARED_REGION, failure.getMessage());
        assertArrayEquals(original, classFile("app/Shared.class"));
        assertFalse(Files.exists(directory.resolve("state/transform-state")));
    }

    @Test
    void fail_on_pinned_fails_on_a_remembered_shared_region_when_nothing_is_left_to_rewrite() throws Exception {
        compile(classes, Map.of("app.Shared", SHARED));
        run(ClassNameFilter.everyClass());

        MojoFailureException failure = assertThrows(MojoFailureException.class,
                () -> new ClassDirectoryTransformation(request(ClassNameFilter.everyClass(), List.of(), true), log)
                        .run());

        assertTrue(failure.getMessage().endsWith(SHARED_REGION), failure.getMessage());
    }

    @Test
    void a_class_that_uses_sockets_without_pico_net_on_the_classpath_is_named_in_one_warning_on_every_build()
            throws Exception {
        compile(classes, Map.of("app.Client", CLIENT, "app.Sleeper", SLEEPER));

        run(ClassNameFilter.everyClass());
        run(ClassNameFilter.everyClass());

        assertEquals(List.of("WARN " + SOCKET_WARNING, "WARN " + SOCKET_WARNING),
                log.lines().stream().filter(line -> line.startsWith("WARN")).toList());
    }

    @Test
    void fail_on_pinned_fails_on_a_class_that_uses_sockets_without_pico_net_and_writes_nothing() throws Exception {
        compile(classes, Map.of("app.Client", CLIENT, "app.Sleeper", SLEEPER));
        byte[] original = classFile("app/Sleeper.class");

        MojoFailureException failure = assertThrows(MojoFailureException.class,
                () -> new ClassDirectoryTransformation(request(ClassNameFilter.everyClass(), List.of(), true), log)
                        .run());

        assertEquals(SOCKET_WARNING + " (failOnPinned is set)", failure.getMessage());
        assertArrayEquals(original, classFile("app/Sleeper.class"));
        assertFalse(Files.exists(directory.resolve("state/transform-state")));
    }

    @Test
    void a_class_that_uses_sockets_with_pico_net_on_the_classpath_gets_no_warning() throws Exception {
        Path picoNet = Files.createDirectories(directory.resolve("pico-net"));
        compile(picoNet, Map.of("org.picothreads.net.ChannelCalls", NET_PROBE));
        compile(classes, Map.of("app.Client", CLIENT));

        new ClassDirectoryTransformation(new ClassDirectoryTransformation.Request(classes, List.of(picoNet), List.of(),
                ClassNameFilter.everyClass(), List.of(), "options", directory.resolve("state/transform-state"), null,
                true), log).run();

        assertEquals(List.of(), log.lines().stream().filter(line -> line.startsWith("WARN")).toList());
    }

    @Test
    void an_excluded_class_that_uses_sockets_is_not_named() throws Exception {
        compile(classes, Map.of("app.Client", CLIENT, "app.Sleeper", SLEEPER));

        run(ClassNameFilter.of(List.of(), List.of("app.Client")));

        assertEquals(List.of(), log.lines().stream().filter(line -> line.startsWith("WARN")).toList());
    }

    @Test
    void a_dependency_is_unpacked_and_rewritten_once_and_again_only_when_its_jar_changes() throws Exception {
        Path libraryClasses = Files.createDirectories(directory.resolve("library"));
        compile(libraryClasses, Map.of("lib.Pool", SLEEPER.replace("package app;", "package lib;")
                .replace("Sleeper", "Pool")));
        Path jar = directory.resolve("library.jar");
        writeJar(libraryClasses, jar);
        List<DependencyToRewrite> dependencies = List.of(new DependencyToRewrite("org.example:library", jar));

        ClassDirectoryTransformation.Outcome first = new ClassDirectoryTransformation(
                request(ClassNameFilter.everyClass(), dependencies, false), log).run();
        ClassDirectoryTransformation.Outcome second = new ClassDirectoryTransformation(
                request(ClassNameFilter.everyClass(), dependencies, false), log).run();

        assertEquals(new ClassDirectoryTransformation.Outcome(1, 1, false), first);
        assertTrue(PicoTransformer.isTransformed(classFile("lib/Pool.class")));
        assertEquals(new ClassDirectoryTransformation.Outcome(1, 0, true), second);
        assertEquals(1, log.lines().stream().filter(line -> line.contains("unpacked 1 class of org.example:library"))
                .count(), log.lines()::toString);
    }

    private static void writeJar(Path classesDirectory, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> files = Files.walk(classesDirectory)) {
            for (Path classFile : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new ZipEntry(classesDirectory.relativize(classFile).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(classFile));
                out.closeEntry();
            }
        }
    }
}
