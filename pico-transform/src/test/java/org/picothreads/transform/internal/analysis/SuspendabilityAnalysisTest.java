package org.picothreads.transform.internal.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.SourceCompiler;
import org.picothreads.transform.internal.ClassRewriter;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/** The analysis answering on demand, reading classes only as far as the calls asked about reach. */
class SuspendabilityAnalysisTest {
    @TempDir
    Path classes;

    /** The names the reader was asked for, in order. */
    private final List<String> read = new ArrayList<>();

    /** An analysis that knows, for dispatch, which classes of the class path declare each method. */
    private SuspendabilityAnalysis onDemand(ClassHierarchy hierarchy) {
        Map<String, List<String>> declaring = hierarchy.declaringClassesByMethod(name -> name.startsWith("demand/"));
        return onDemand(hierarchy, method -> declaring.getOrDefault(method, List.of()));
    }

    private SuspendabilityAnalysis onDemand(ClassHierarchy hierarchy,
            Function<String, List<String>> declaring) {
        return SuspendabilityAnalysis.onDemand(hierarchy, name -> {
            if (!name.startsWith("demand/")) {
                return null;
            }
            read.add(name);
            byte[] classFile = hierarchy.classFile(name);
            return classFile == null ? null
                    : ClassRewriter.parseForRewrite(new ClassInput(name + ".class", classFile), hierarchy).node();
        }, declaring);
    }

    private static MethodNode method(ClassNode owner, String name) {
        return owner.methods.stream().filter(method -> method.name.equals(name)).findFirst().orElseThrow();
    }

    @Test
    void a_question_about_one_method_reads_only_the_classes_its_calls_reach() throws Exception {
        SourceCompiler.compile(classes, Map.of(
                "demand.Caller", "package demand; class Caller { static void call() throws InterruptedException {"
                        + " Middle.pass(); } static int plain() { return Unrelated.value(); } }",
                "demand.Middle", "package demand; class Middle { static void pass() throws InterruptedException {"
                        + " Sleeper.nap(); } }",
                "demand.Sleeper", "package demand; class Sleeper { static void nap() throws InterruptedException {"
                        + " Thread.sleep(1); } }",
                "demand.Unrelated", "package demand; class Unrelated { static int value() { return 1; }"
                        + " static void nap() throws InterruptedException { Thread.sleep(1); } }",
                "demand.Never", "package demand; class Never { static void nap() throws InterruptedException {"
                        + " Thread.sleep(1); } }"));
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of(classes))) {
            SuspendabilityAnalysis analysis = onDemand(hierarchy);
            ClassNode caller = analysis.programClass("demand/Caller");

            assertTrue(analysis.reachesBlockingCall(method(caller, "call")));
            assertEquals(List.of("demand/Caller", "demand/Middle", "demand/Sleeper"), read);
            assertFalse(analysis.reachesBlockingCall(method(caller, "plain")));
            assertEquals(List.of("demand/Caller", "demand/Middle", "demand/Sleeper", "demand/Unrelated"), read);
            assertTrue(analysis.isCapturable(method(analysis.programClass("demand/Middle"), "pass")));
            assertFalse(analysis.isCapturable(method(analysis.programClass("demand/Unrelated"), "value")));
            assertEquals(4, read.size(), "a decided method is never read again");
        }
    }

    @Test
    void methods_calling_each_other_in_a_cycle_block_only_when_the_cycle_reaches_a_blocking_call()
            throws Exception {
        SourceCompiler.compile(classes, Map.of(
                "demand.Quiet", "package demand; class Quiet { static int even(int n) { return n == 0 ? 1 : odd(n - 1);"
                        + " } static int odd(int n) { return n == 0 ? 0 : even(n - 1); } }",
                "demand.Loud", "package demand; class Loud { static int even(int n) throws InterruptedException {"
                        + " return n == 0 ? 1 : odd(n - 1); } static int odd(int n) throws InterruptedException {"
                        + " if (n == 7) { Thread.sleep(1); } return n == 0 ? 0 : even(n - 1); }"
                        + " static int outside() throws InterruptedException { return even(3); } }"));
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of(classes))) {
            SuspendabilityAnalysis analysis = onDemand(hierarchy);
            ClassNode quiet = analysis.programClass("demand/Quiet");
            ClassNode loud = analysis.programClass("demand/Loud");

            assertFalse(analysis.reachesBlockingCall(method(quiet, "even")));
            assertFalse(analysis.reachesBlockingCall(method(quiet, "odd")));
            assertTrue(analysis.reachesBlockingCall(method(loud, "outside")));
            assertTrue(analysis.reachesBlockingCall(method(loud, "even")));
            assertTrue(analysis.reachesBlockingCall(method(loud, "odd")));
        }
    }

    @Test
    void an_interface_call_reads_the_classes_of_the_class_path_that_implement_the_method_and_only_those()
            throws Exception {
        compileTasks();
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of(classes))) {
            SuspendabilityAnalysis analysis = onDemand(hierarchy);

            assertTrue(analysis.reachesBlockingCall(method(analysis.programClass("demand/Worker"), "work")));
            assertEquals(Set.of("demand/SleepTask", "demand/Task", "demand/Worker"), new TreeSet<>(read));
        }
    }

    @Test
    void without_the_declarations_of_the_class_path_an_interface_call_sees_the_classes_an_included_class_creates()
            throws Exception {
        compileTasks();
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of(classes))) {
            SuspendabilityAnalysis withoutMain = onDemand(hierarchy, method -> List.of());
            assertFalse(withoutMain.reachesBlockingCall(method(withoutMain.programClass("demand/Worker"), "work")),
                    "no class read so far implements Task with a blocking execute");

            SuspendabilityAnalysis afterMain = onDemand(hierarchy, method -> List.of());
            afterMain.include(afterMain.programClass("demand/Main"));
            assertTrue(afterMain.reachesBlockingCall(method(afterMain.programClass("demand/Worker"), "work")));
        }
    }

    private void compileTasks() throws Exception {
        SourceCompiler.compile(classes, Map.of(
                "demand.Task", "package demand; interface Task { void execute() throws InterruptedException; }",
                "demand.SleepTask", "package demand; class SleepTask implements Task { public void execute() throws"
                        + " InterruptedException { Thread.sleep(1); } }",
                "demand.QuietTask", "package demand; class QuietTask { public void execute() { } }",
                "demand.Worker", "package demand; class Worker { static void work(Task task) throws"
                        + " InterruptedException { task.execute(); } }",
                "demand.Main", "package demand; class Main { public static void main(String[] args) throws"
                        + " InterruptedException { Worker.work(new SleepTask()); } }"));
    }

    @Test
    void a_fixed_set_of_classes_gives_the_same_answers_asked_in_any_order() throws Exception {
        Map<String, byte[]> compiled = SourceCompiler.compile(classes, Map.of(
                "demand.Ring", "package demand; class Ring { static void a() throws InterruptedException { b(); }"
                        + " static void b() throws InterruptedException { c(); } static void c() throws"
                        + " InterruptedException { a(); if (Math.random() > 2) { Thread.sleep(1); } }"
                        + " static void d() { e(); } static void e() { d(); } }"));
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of(classes))) {
            List<String> orders = List.of("abcde", "edcba", "cadeb");
            for (String order : orders) {
                ClassNode ring = ClassRewriter.parseForRewrite(new ClassInput("Ring.class",
                        compiled.get("demand/Ring")), hierarchy).node();
                SuspendabilityAnalysis analysis = SuspendabilityAnalysis.analyze(List.of(ring), List.of(), hierarchy);
                StringBuilder blocking = new StringBuilder();
                for (char name : order.toCharArray()) {
                    if (analysis.reachesBlockingCall(method(ring, String.valueOf(name)))) {
                        blocking.append(name);
                    }
                }
                assertEquals(new TreeSet<>(List.of('a', 'b', 'c')).toString(),
                        new TreeSet<>(blocking.chars().mapToObj(c -> (char) c).toList()).toString(), order);
            }
        }
    }
}
