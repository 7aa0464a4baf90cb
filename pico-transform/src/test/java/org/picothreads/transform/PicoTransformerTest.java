package org.picothreads.transform;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceMethodVisitor;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.report.PinnedCallSite;
import org.picothreads.transform.report.SavedValue;
import org.picothreads.transform.report.SharedMonitorRegion;
import org.picothreads.transform.report.SuspensionPoint;

class PicoTransformerTest {
    @TempDir
    Path temporary;

    private static final String WORKER = """
            package sample;
            public class Worker {
                static int untouched(int x) { int y = x * 3; return y + 1; }
                static long keepsLiveLocals(long a) throws InterruptedException {
                    long b = a * 2;
                    int dead = 7;
                    Thread.sleep(1);
                    return a + b;
                }
                static String noThreads(String s) { return s.trim(); }
                public static void main(String[] args) throws Exception {
                    Thread thread = new Thread(() -> System.out.println(untouched(2)));
                    thread.start();
                    thread.join();
                }
            }
            """;

    @Test
    void a_class_that_uses_no_threads_comes_back_as_the_very_same_bytes() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Plain",
                "package sample; public class Plain { static int twice(int x) { return x * 2; } }"));
        TransformResult result = transform(classes);
        ClassOutput output = result.classes().get(0);
        assertFalse(output.changed());
        assertArrayEquals(classes.get("sample/Plain"), output.bytes());
        assertEquals(0, result.report().classes().get(0).redirectedCalls());
    }

    @Test
    void methods_that_cannot_reach_a_blocking_call_keep_their_instructions_exactly() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Worker", WORKER));
        byte[] rewritten = byName(transform(classes)).get("sample/Worker").bytes();
        for (String method : List.of("untouched(I)I", "noThreads(Ljava/lang/String;)Ljava/lang/String;")) {
            assertEquals(listing(classes.get("sample/Worker"), method), listing(rewritten, method), method);
        }
        String rewrittenListing = listing(rewritten, "keepsLiveLocals(J)J");
        assertFalse(rewrittenListing.contains("INVOKEDYNAMIC resume()"), rewrittenListing);
        String continuation = listing(rewritten, "keepsLiveLocals(JLorg/picothreads/runtime/internal/Frame;)J");
        assertTrue(continuation.contains("INVOKEDYNAMIC resume()") && continuation.contains("Continuation.link"),
                continuation);
        assertFalse(listing(rewritten, "main([Ljava/lang/String;)V").contains("java/lang/Thread.join"),
                "join must be redirected to the runtime");
    }

    @Test
    void a_rewritten_method_keeps_only_its_normal_path_and_its_continuation_holds_the_restore_code() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Fibonacci", """
                package sample;
                public class Fibonacci {
                    public int fib(int n) {
                        if (n < 2) {
                            if (n < 0) { Thread.yield(); }
                            return n;
                        }
                        return fib(n - 1) + fib(n - 2);
                    }
                }
                """));
        byte[] rewritten = byName(transform(classes)).get("sample/Fibonacci").bytes();
        // No entry check and no restore code: the original's instructions, the spill of the values a capture saves
        // (none at the first call of fib: no stack entry is saved there), the caller token before the call into the
        // runtime, and one handler per site that hands the saved values to the site's capture helper: the receiver
        // only where the rest of the method reads it (null after the last call and the yield), and no argument of a
        // call of fib, which reaches only the program's code and so always has an activation of its own above this
        // one.
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 org/picothreads/runtime/internal/Capture
                    TRYCATCHBLOCK L3 L4 L5 org/picothreads/runtime/internal/Capture
                    TRYCATCHBLOCK L6 L7 L8 org/picothreads/runtime/internal/Capture
                   L9
                    LINENUMBER 4 L9
                    ILOAD 1
                    ICONST_2
                    IF_ICMPGE L10
                   L11
                    LINENUMBER 5 L11
                    ILOAD 1
                    IFGE L1
                    ACONST_NULL
                    INVOKESTATIC org/picothreads/runtime/internal/CallerToken.pass (Ljava/lang/Object;)V
                   L0
                    INVOKESTATIC org/picothreads/runtime/internal/ThreadCalls.yieldNow ()V
                   L1
                    LINENUMBER 6 L1
                   FRAME SAME
                    ILOAD 1
                    IRETURN
                   L10
                    LINENUMBER 8 L10
                   FRAME SAME
                    ALOAD 0
                    ILOAD 1
                    ICONST_1
                    ISUB
                   L3
                    INVOKEVIRTUAL sample/Fibonacci.fib (I)I
                   L4
                    ALOAD 0
                    ILOAD 1
                    ICONST_2
                    ISUB
                    ISTORE 3
                    POP
                    ISTORE 2
                    ALOAD 0
                    ILOAD 3
                   L6
                    INVOKEVIRTUAL sample/Fibonacci.fib (I)I
                   L7
                    ISTORE 4
                    ILOAD 2
                    ILOAD 4
                    IADD
                    IRETURN
                   L2
                   FRAME SAME1 org/picothreads/runtime/internal/Capture
                    ACONST_NULL
                    ILOAD 1
                    INVOKESTATIC sample/Fibonacci.$picothreads$capture$0$0 (Ljava/lang/Object;I)V
                    ATHROW
                   L5
                   FRAME SAME1 org/picothreads/runtime/internal/Capture
                    ALOAD 0
                    ILOAD 1
                    INVOKESTATIC sample/Fibonacci.$picothreads$capture$0$1 (Ljava/lang/Object;I)V
                    ATHROW
                   L8
                   FRAME FULL [sample/Fibonacci I I I] [org/picothreads/runtime/internal/Capture]
                    ACONST_NULL
                    ILOAD 2
                    INVOKESTATIC sample/Fibonacci.$picothreads$capture$0$2 (Ljava/lang/Object;I)V
                    ATHROW
                    MAXSTACK = 4
                    MAXLOCALS = 5
                """, listing(rewritten, "fib(I)I"));
        ClassNode node = new ClassNode();
        new ClassReader(rewritten).accept(node, 0);
        MethodNode continuation = node.methods.stream()
                .filter(method -> (method.name + method.desc).equals("fib(Lsample/Fibonacci;ILorg/picothreads/runtime/internal/Continuation;)I"))
                .findFirst().orElseThrow();
        // the continuation of an instance method is static: it takes the receiver first, null where none was saved
        assertEquals(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, continuation.access);
        String restore = listing(rewritten, continuation.name + continuation.desc);
        assertTrue(restore.contains("INVOKEDYNAMIC resume()") && restore.contains("ResumeErrors.invalidResumePoint"),
                restore);
        assertTrue(listing(rewritten, "$picothreads$resume(Ljava/lang/Object;I)Z")
                .contains("INVOKESTATIC sample/Fibonacci.fib (Lsample/Fibonacci;ILorg/picothreads/runtime/internal/Continuation;)I"));
        List<Object> marker = node.visibleAnnotations.get(0).values;
        assertEquals(List.of("fib(I)I", "fib(Lsample/Fibonacci;ILorg/picothreads/runtime/internal/Continuation;)I"),
                marker.get(1),
                "the marker lists the continuation after the method, for the frame check");
    }

    @Test
    void only_calls_into_the_runtime_are_preceded_by_the_restored_caller_token_so_other_calls_cost_nothing_more()
            throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("org.picothreads.sample.Recursive", """
                package org.picothreads.sample;
                public class Recursive {
                    public int fib(int n) {
                        if (n < 2) {
                            if (n < 0) { Thread.yield(); }
                            return n;
                        }
                        return fib(n - 1) + fib(n - 2);
                    }
                }
                """));
        byte[] rewritten = byName(transform(classes)).get("org/picothreads/sample/Recursive").bytes();
        ClassNode node = new ClassNode();
        new ClassReader(rewritten).accept(node, 0);
        MethodNode fib = node.methods.stream().filter(m -> m.name.equals("fib")).findFirst().orElseThrow();
        List<String> callsAfterToken = new java.util.ArrayList<>();
        int recursiveCalls = 0;
        for (var instruction : fib.instructions) {
            if (instruction instanceof org.objectweb.asm.tree.MethodInsnNode call && call.name.equals("fib")) {
                recursiveCalls++;
            }
            if (instruction instanceof org.objectweb.asm.tree.MethodInsnNode pass
                    && pass.owner.equals("org/picothreads/runtime/internal/CallerToken")) {
                var next = pass.getNext();
                while (!(next instanceof org.objectweb.asm.tree.MethodInsnNode)) {
                    next = next.getNext();
                }
                org.objectweb.asm.tree.MethodInsnNode call = (org.objectweb.asm.tree.MethodInsnNode) next;
                callsAfterToken.add(call.owner + "." + call.name);
            }
        }
        assertEquals(2, recursiveCalls);
        // the class sits under org/picothreads/ like the runtime, but only the call of the yield gets the token
        assertEquals(List.of("org/picothreads/runtime/internal/ThreadCalls.yieldNow"), callsAfterToken);
    }

    @Test
    void a_suspension_point_saves_only_the_locals_that_are_live_after_it_and_no_constants() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Worker", WORKER), "-g");
        ClassReport report = reportFor(transform(classes), "sample/Worker");
        MethodReport method = report.methods().stream().filter(m -> m.name().equals("keepsLiveLocals"))
                .findFirst().orElseThrow();
        assertTrue(method.rewritten());
        assertEquals(1, method.suspensionPoints().size());
        SuspensionPoint point = method.suspensionPoints().get(0);
        assertEquals(7, point.line());
        assertEquals("java/lang/Thread.sleep(J)V", point.target(), "the report names the method the program called");
        // The argument of sleep(1) is a constant: pushed again on resume, never saved.
        assertEquals(List.of(new SavedValue("local", 0, "a", "J"), new SavedValue("local", 2, "b", "J")),
                point.saved());
    }

    @Test
    void transforming_twice_leaves_the_rewritten_classes_alone() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Worker", WORKER));
        TransformResult first = transform(classes);
        Map<String, byte[]> rewritten = new HashMap<>();
        for (ClassOutput output : first.classes()) {
            rewritten.put(output.className(), output.bytes());
        }
        TransformResult second = transform(rewritten);
        for (ClassOutput output : second.classes()) {
            assertFalse(output.changed(), output.className());
            assertArrayEquals(rewritten.get(output.className()), output.bytes(), output.className());
        }
        assertTrue(reportFor(second, "sample/Worker").alreadyTransformed());
        assertTrue(PicoTransformer.isTransformed(rewritten.get("sample/Worker")));
        assertFalse(PicoTransformer.isTransformed(classes.get("sample/Worker")));
    }

    @Test
    void the_same_input_gives_byte_identical_output() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Worker", WORKER));
        TransformResult first = transform(classes);
        TransformResult second = transform(classes);
        for (int index = 0; index < first.classes().size(); index++) {
            assertArrayEquals(first.classes().get(index).bytes(), second.classes().get(index).bytes());
        }
    }

    @Test
    void a_method_too_large_after_rewriting_is_left_untransformed_with_its_call_sites_pinned() throws Exception {
        StringBuilder source = new StringBuilder("package sample; public class Huge { static long body(long seed)"
                + " throws InterruptedException {\n");
        for (int local = 0; local < 24; local++) {
            source.append("long v").append(local).append(" = seed + ").append(local).append(";\n");
        }
        for (int call = 0; call < 400; call++) {
            source.append("Thread.sleep(0); v").append(call % 24).append("++;\n");
        }
        source.append("return ");
        for (int local = 0; local < 24; local++) {
            source.append(local == 0 ? "" : " + ").append("v").append(local);
        }
        source.append(";\n} }");
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Huge", source.toString()));
        TransformResult result = transform(classes);
        MethodReport method = reportFor(result, "sample/Huge").methods().get(0);
        assertFalse(method.rewritten());
        assertTrue(method.reason().contains("64 KB"), method.reason());
        assertEquals(400, method.pinnedCallSites().size());
        assertTrue(listing(result.classes().get(0).bytes(), "body(J)J").contains("Continuation.pin"));
        assertTrue(verify(result.classes().get(0).bytes()).isEmpty());
    }

    @Test
    void a_method_whose_types_need_a_missing_class_is_reported_untransformed() throws Exception {
        Path library = temporary.resolve("library");
        Path application = temporary.resolve("application");
        Files.createDirectories(library);
        Files.createDirectories(application);
        SourceCompiler.compile(library, Map.of("lib.Base", "package lib; public class Base {}",
                "lib.First", "package lib; public class First extends Base {}",
                "lib.Second", "package lib; public class Second extends Base {}"));
        Map<String, byte[]> classes = SourceCompiler.compile(application, Map.of("app.User", """
                package app;
                public class User {
                    static Object pick(boolean first) throws InterruptedException {
                        lib.Base chosen = first ? new lib.First() : new lib.Second();
                        Thread.sleep(1);
                        return chosen;
                    }
                }
                """), "-classpath", library + java.io.File.pathSeparator + System.getProperty("java.class.path"));
        TransformResult result = PicoTransformer.withClasspath(List.of()).transform(SourceCompiler.inputs(classes));
        MethodReport method = reportFor(result, "app/User").methods().get(0);
        assertFalse(method.rewritten());
        assertTrue(method.reason().contains("lib.First") || method.reason().contains("lib.Second")
                || method.reason().contains("lib.Base"), method.reason());
        TransformResult withLibrary = PicoTransformer.withClasspath(List.of(library))
                .transform(SourceCompiler.inputs(classes));
        assertTrue(reportFor(withLibrary, "app/User").methods().get(0).rewritten());
    }

    @Test
    void a_blocking_lambda_handed_to_a_jdk_method_is_reported_as_a_call_site_that_pins() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Callbacks", """
                package sample;
                import java.util.List;
                public class Callbacks {
                    static int total;
                    static void visit(List<Integer> values) {
                        values.forEach(value -> {
                            try {
                                Thread.sleep(value);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            total += value;
                        });
                    }
                    static void start(Runnable work) {
                        new Thread(() -> { work.run(); }).start();
                    }
                }
                """));
        ClassReport report = reportFor(transform(classes), "sample/Callbacks");
        MethodReport visit = report.methods().stream().filter(m -> m.name().equals("visit")).findFirst().orElseThrow();
        assertFalse(visit.rewritten());
        assertEquals(1, visit.pinnedCallSites().size());
        assertEquals(6, visit.pinnedCallSites().get(0).line());
        assertEquals("java/util/List.forEach(Ljava/util/function/Consumer;)V", visit.pinnedCallSites().get(0).target());
        assertTrue(visit.pinnedCallSites().get(0).reason().contains("sample.Callbacks.lambda$visit$0"));
        assertTrue(report.methods().stream().noneMatch(m -> m.name().equals("start")),
                "handing a Runnable to a new Thread does not pin");
    }

    @Test
    void an_object_handed_to_a_jdk_method_is_reported_only_when_a_jdk_type_declares_one_of_its_blocking_methods()
            throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Handed", """
                package sample;
                import java.util.ArrayList;
                import java.util.List;
                public class Handed {
                    static final class Job {
                        void work() throws InterruptedException { Thread.sleep(1); }
                    }
                    static final class SlowOrder implements java.util.Comparator<String> {
                        public int compare(String left, String right) {
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            return left.compareTo(right);
                        }
                    }
                    static final class SlowText {
                        @Override
                        public String toString() {
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            return "slow";
                        }
                    }
                    static List<Object> keep(List<Object> list) throws InterruptedException {
                        Job job = new Job();
                        list.add(job);
                        job.work();
                        return list;
                    }
                    static List<String> sorted(List<String> list) {
                        list.sort(new SlowOrder());
                        return list;
                    }
                    static String text() {
                        return String.valueOf(new SlowText());
                    }
                }
                """));
        ClassReport report = reportFor(transform(classes), "sample/Handed");
        // Job.work overrides nothing of the JDK's: ArrayList cannot call it back
        assertTrue(pinnedCallSites(report, "keep").isEmpty(), () -> pinnedCallSites(report, "keep").toString());
        // Comparator declares compare, Object declares toString: the JDK calls them back
        assertEquals(List.of("java/util/List.sort(Ljava/util/Comparator;)V"),
                pinnedCallSites(report, "sorted").stream().map(PinnedCallSite::target).toList());
        assertEquals(List.of("java/lang/String.valueOf(Ljava/lang/Object;)Ljava/lang/String;"),
                pinnedCallSites(report, "text").stream().map(PinnedCallSite::target).toList());
    }

    @Test
    void only_the_continuations_typed_handlers_hand_the_caught_exception_to_the_runtime_first() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Catching", """
                package sample;
                public class Catching {
                    static String nap(long millis) {
                        try {
                            Thread.sleep(millis);
                            return "slept";
                        } catch (InterruptedException e) {
                            return "interrupted";
                        } finally {
                            millis = 0;
                        }
                    }
                }
                """));
        byte[] rewritten = byName(transform(classes)).get("sample/Catching").bytes();
        String call = "LDC \"sample/Catching.nap(J)Ljava/lang/String;\"\n"
                + "    INVOKESTATIC org/picothreads/runtime/internal/Continuation.caughtAfterResume"
                + " (Ljava/lang/Throwable;Ljava/lang/String;)V";
        String continuation = listing(rewritten, "nap(JLorg/picothreads/runtime/internal/Frame;)Ljava/lang/String;");
        // the InterruptedException handler, not the finally's catch-all one nor the capture handler
        assertEquals(1, occurrences(continuation, "DUP\n    " + call), continuation);
        assertFalse(listing(rewritten, "nap(J)Ljava/lang/String;").contains("caughtAfterResume"));
        assertEquals("", verify(rewritten));
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    private static List<PinnedCallSite> pinnedCallSites(ClassReport report, String method) {
        return report.methods().stream().filter(m -> m.name().equals(method)).findFirst()
                .map(MethodReport::pinnedCallSites).orElse(List.of());
    }

    @Test
    void runnable_and_callable_lambdas_that_can_block_are_created_through_the_runtime_and_listed_as_thread_entries()
            throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Entries", """
                package sample;
                import java.io.Serializable;
                import java.util.concurrent.Callable;
                import java.util.function.IntSupplier;
                public class Entries implements Runnable {
                    static Runnable sleeper(int millis) { return () -> nap(millis); }
                    static Callable<String> caller(long millis) { return () -> { nap(millis); return "done"; }; }
                    static Callable<Integer> quickCall() { return () -> 1; }
                    static Runnable quick() { return () -> System.nanoTime(); }
                    static Runnable serializable() { return (Runnable & Serializable) () -> nap(1); }
                    static IntSupplier supplier() { return () -> { nap(1); return 1; }; }
                    Runnable byReference() { return this::run; }
                    static Runnable byStaticReference() { return Entries::pause; }
                    static void pause() { nap(1); }
                    public void run() { nap(2); }
                    static void nap(long millis) {
                        try { Thread.sleep(millis); } catch (InterruptedException e) { throw new IllegalStateException(e); }
                    }
                }
                """));
        byte[] input = classes.get("sample/Entries");
        byte[] rewritten = byName(transform(classes)).get("sample/Entries").bytes();
        String jdkBootstrap = "java/lang/invoke/LambdaMetafactory.metafactory";
        String runtimeBootstrap = "org/picothreads/runtime/internal/ThreadEntries.metafactory";
        // the method that creates the lambda cannot block, and is copied but for the bootstrap of its creation
        String sleeper = listing(input, "sleeper(I)Ljava/lang/Runnable;");
        assertTrue(sleeper.contains(jdkBootstrap), sleeper);
        assertEquals(sleeper.replace(jdkBootstrap, runtimeBootstrap), listing(rewritten, "sleeper(I)Ljava/lang/Runnable;"));
        assertTrue(listing(rewritten, "byStaticReference()Ljava/lang/Runnable;").contains(runtimeBootstrap));
        assertTrue(listing(rewritten, "caller(J)Ljava/util/concurrent/Callable;").contains(runtimeBootstrap));
        for (String unlinked : List.of("quick()Ljava/lang/Runnable;", "serializable()Ljava/lang/Runnable;",
                "supplier()Ljava/util/function/IntSupplier;", "byReference()Ljava/lang/Runnable;",
                "quickCall()Ljava/util/concurrent/Callable;")) {
            assertFalse(listing(rewritten, unlinked).contains(runtimeBootstrap), unlinked);
        }
        ClassNode node = new ClassNode();
        new ClassReader(rewritten).accept(node, 0);
        List<Object> threadEntries = node.visibleAnnotations.stream()
                .filter(annotation -> annotation.desc.equals("Lorg/picothreads/runtime/internal/Rewritten;"))
                .findFirst().orElseThrow().values;
        List<?> listed = (List<?>) threadEntries.get(threadEntries.indexOf("threadEntries") + 1);
        String sleeperBody = node.methods.stream().map(method -> method.name + method.desc)
                .filter(method -> method.startsWith("lambda$sleeper$") && method.endsWith("(I)V")).findFirst()
                .orElseThrow();
        String callerBody = node.methods.stream().map(method -> method.name + method.desc)
                .filter(method -> method.startsWith("lambda$caller$") && method.endsWith("(J)Ljava/lang/String;"))
                .findFirst().orElseThrow();
        assertEquals(List.of(callerBody, sleeperBody, "pause()V", "run()V").stream().sorted().toList(), listed);
        // the body's continuation keeps the entry that runs it from its start (resume point -1)
        String continuation = listing(rewritten, sleeperBody.replace(")V", "Lorg/picothreads/runtime/internal/Frame;)V"));
        assertTrue(continuation.contains("IFLT"), continuation);
        assertEquals("", verify(rewritten));
    }

    @Test
    void the_call_of_a_callable_class_that_can_block_is_listed_as_a_thread_entry_and_a_call_of_another_class_is_not()
            throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Calls", """
                package sample;
                import java.util.concurrent.Callable;
                public class Calls {
                    static void nap() {
                        try { Thread.sleep(1); } catch (InterruptedException e) { throw new IllegalStateException(e); }
                    }
                    public static class Covariant implements Callable<Integer> {
                        public Integer call() { nap(); return 1; }
                    }
                    public static class Plain implements Callable<Object> {
                        public Object call() { nap(); return "plain"; }
                    }
                    public static class Inherited extends Plain {
                    }
                    public static class Quick implements Callable<Object> {
                        public Object call() { return "quick"; }
                    }
                    public static class NotCallable {
                        public Object call() { nap(); return "other"; }
                    }
                }
                """));
        Map<String, ClassOutput> rewritten = byName(transform(classes));
        String call = "call()Ljava/lang/Object;";
        // Covariant's call() is its bridge to call()Integer; the future calls the bridge, entered fresh
        assertEquals(List.of(call), threadEntries(rewritten.get("sample/Calls$Covariant").bytes()));
        assertEquals(List.of(call), threadEntries(rewritten.get("sample/Calls$Plain").bytes()));
        for (String other : List.of("sample/Calls$Inherited", "sample/Calls$Quick", "sample/Calls$NotCallable")) {
            ClassOutput output = rewritten.get(other);
            assertEquals(List.of(), output.changed() ? threadEntries(output.bytes()) : List.of(), other);
            assertEquals("", verify(output.bytes()), other);
        }
        assertEquals("", verify(rewritten.get("sample/Calls$Covariant").bytes()));
        assertEquals("", verify(rewritten.get("sample/Calls$Plain").bytes()));
    }

    /** The thread entries a rewritten class's marker lists; empty when it lists none. */
    private static List<?> threadEntries(byte[] classFile) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, 0);
        List<Object> values = node.visibleAnnotations.stream()
                .filter(annotation -> annotation.desc.equals("Lorg/picothreads/runtime/internal/Rewritten;"))
                .findFirst().orElseThrow().values;
        int index = values.indexOf("threadEntries");
        return index < 0 ? List.of() : (List<?>) values.get(index + 1);
    }

    @Test
    void regions_that_cannot_block_check_for_a_suspended_holder_and_regions_that_can_take_the_runtime_monitor()
            throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Regions", """
                package sample;
                public class Regions {
                    static final Object LOCK = new Object();
                    static int count;
                    static void quick() { synchronized (LOCK) { count++; } }
                    synchronized void quickMethod() { count++; }
                    static void slow() throws InterruptedException { synchronized (LOCK) { Thread.sleep(1); } }
                }
                """));
        byte[] rewritten = byName(transform(classes)).get("sample/Regions").bytes();
        String quick = listing(rewritten, "quick()V");
        assertTrue(quick.contains("GETSTATIC org/picothreads/runtime/internal/Monitors.suspendedHolders : I"), quick);
        assertTrue(quick.contains("Monitors.mustBackOff") && quick.contains("Monitors.awaitUnowned"), quick);
        assertFalse(quick.contains("Monitors.enter"), quick);
        String quickMethod = listing(rewritten, "quickMethod()V");
        assertTrue(quickMethod.contains("MONITORENTER") && quickMethod.contains("Monitors.mustBackOff"), quickMethod);
        String slow = listing(rewritten, "slow()V");
        assertTrue(slow.contains("Monitors.enter") && !slow.contains("Monitors.mustBackOff"), slow);
        assertTrue(verify(rewritten).isEmpty(), verify(rewritten));
        ClassNode node = new ClassNode();
        new ClassReader(rewritten).accept(node, 0);
        for (MethodNode method : node.methods) {
            assertEquals(0, method.access & Opcodes.ACC_SYNCHRONIZED, method.name + " is lowered to a block");
        }
    }

    @Test
    void regions_that_can_suspend_on_objects_jdk_code_also_locks_are_reported_with_the_object() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Shared", """
                package sample;
                import java.util.*;
                public class Shared {
                    final List<String> names = Collections.synchronizedList(new ArrayList<>());
                    final Vector<String> vector = new Vector<>();
                    final Object own = new Object();
                    void onWrapper() throws InterruptedException {
                        synchronized (names) { Thread.sleep(1); }
                    }
                    void onVector() throws InterruptedException {
                        synchronized (vector) { Thread.sleep(1); }
                    }
                    void onOwnLock() throws InterruptedException {
                        synchronized (own) { Thread.sleep(1); }
                    }
                    void quickOnVector() { synchronized (vector) { vector.add("x"); } }
                    void onStack(Stack<String> stack) throws InterruptedException {
                        synchronized (stack) { Thread.sleep(1); }
                    }
                }
                """));
        ClassReport report = reportFor(transform(classes), "sample/Shared");
        Map<String, List<SharedMonitorRegion>> byMethod = report.methods().stream()
                .collect(Collectors.toMap(MethodReport::name, MethodReport::sharedMonitorRegions));
        assertEquals(List.of(new SharedMonitorRegion(8,
                "field sample.Shared.names, set from java.util.Collections.synchronizedList")),
                byMethod.get("onWrapper"));
        assertEquals(List.of(new SharedMonitorRegion(11, "a java.util.Vector")), byMethod.get("onVector"));
        assertEquals(List.of(), byMethod.get("onOwnLock"));
        assertFalse(byMethod.containsKey("quickOnVector"), "a region that cannot suspend is not reported");
        assertEquals(List.of(new SharedMonitorRegion(18, "a java.util.Stack")), byMethod.get("onStack"));
    }

    @Test
    void bytes_that_are_not_a_class_file_are_refused_with_the_file_named() {
        TransformException notAClass = assertThrows(TransformException.class, () -> PicoTransformer
                .withClasspath(List.of()).transform(List.of(new ClassInput("in/Broken.class", "hello".getBytes()))));
        assertEquals("in/Broken.class: not a class file (no 0xCAFEBABE header)", notAClass.getMessage());
    }

    @Test
    void a_truncated_class_file_is_refused_with_the_file_named() throws Exception {
        byte[] whole = SourceCompiler.compile(temporary, Map.of("sample.Worker", WORKER)).get("sample/Worker");
        byte[] truncated = Arrays.copyOf(whole, whole.length / 2);
        TransformException failure = assertThrows(TransformException.class, () -> PicoTransformer
                .withClasspath(List.of()).transform(List.of(new ClassInput("in/Worker.class", truncated))));
        assertTrue(failure.getMessage().startsWith("in/Worker.class: "), failure.getMessage());
        assertFalse(failure.getMessage().contains("\n"));
    }

    private static final String CLIENT = """
            package sample;
            import java.io.IOException;
            import java.net.InetAddress;
            import java.net.Socket;
            public class Client {
                static int firstByte(int port) throws IOException {
                    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                        return socket.getInputStream().read();
                    }
                }
            }
            """;

    @Test
    void a_class_that_uses_sockets_is_named_exactly_when_the_redirects_to_pico_net_do_not_apply() throws Exception {
        Path netDirectory = temporary.resolve("pico-net");
        Map<String, byte[]> probe = SourceCompiler.compile(netDirectory, Map.of("org.picothreads.net.ChannelCalls",
                "package org.picothreads.net; public final class ChannelCalls {}"));
        List<ClassInput> client = SourceCompiler.inputs(SourceCompiler.compile(temporary.resolve("client"),
                Map.of("sample.Client", CLIENT)));
        List<ClassInput> clientWithNet = new ArrayList<>(client);
        clientWithNet.addAll(SourceCompiler.inputs(probe));
        PicoTransformer withoutNet = PicoTransformer.withClasspath(List.of());
        PicoTransformer netOnClasspath = PicoTransformer.withClasspath(List.of(netDirectory));
        PicoTransformer netPromised = PicoTransformer.withClasspath(List.of()).withPicoNetAtRunTime();

        assertEquals("sample.Client", withoutNet.socketUserWithoutPicoNet(client));
        assertEquals(null, netOnClasspath.socketUserWithoutPicoNet(client));
        assertEquals(null, netPromised.socketUserWithoutPicoNet(client));
        assertEquals(null, withoutNet.socketUserWithoutPicoNet(clientWithNet));
        String socketCreation = "NEW org/picothreads/net/PicoSocket";
        assertFalse(listing(withoutNet.transform(client).classes().get(0).bytes(), "firstByte(I)I")
                .contains(socketCreation));
        assertTrue(listing(netOnClasspath.transform(client).classes().get(0).bytes(), "firstByte(I)I")
                .contains(socketCreation));
        assertTrue(listing(withoutNet.transform(clientWithNet).classes().get(0).bytes(), "firstByte(I)I")
                .contains(socketCreation));
    }

    @Test
    void classes_that_refer_to_no_socket_type_are_never_named_as_socket_users() throws Exception {
        Map<String, byte[]> classes = SourceCompiler.compile(temporary, Map.of("sample.Worker", WORKER));
        assertEquals(null, PicoTransformer.withClasspath(List.of()).socketUserWithoutPicoNet(
                SourceCompiler.inputs(classes)));
    }

    @Test
    void a_missing_classpath_entry_is_refused() {
        Path missing = temporary.resolve("nowhere.jar");
        TransformException failure = assertThrows(TransformException.class,
                () -> PicoTransformer.withClasspath(List.of(missing)));
        assertEquals("classpath entry " + missing + " does not exist", failure.getMessage());
    }

    private static TransformResult transform(Map<String, byte[]> classes) throws TransformException {
        return PicoTransformer.withClasspath(List.of()).transform(SourceCompiler.inputs(classes));
    }

    private static Map<String, ClassOutput> byName(TransformResult result) {
        return result.classes().stream().collect(Collectors.toMap(ClassOutput::className,
                output -> output));
    }

    private static ClassReport reportFor(TransformResult result, String className) {
        return result.report().classes().stream().filter(report -> report.className().equals(className))
                .findFirst().orElseThrow();
    }

    /** The Textifier listing of one method of a class file. */
    static String listing(byte[] classFile, String nameAndDescriptor) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, 0);
        for (MethodNode method : node.methods) {
            if ((method.name + method.desc).equals(nameAndDescriptor)) {
                Textifier textifier = new Textifier();
                method.accept(new TraceMethodVisitor(textifier));
                StringWriter text = new StringWriter();
                textifier.print(new PrintWriter(text));
                return text.toString();
            }
        }
        throw new AssertionError("no method " + nameAndDescriptor);
    }

    /** ASM's analyzer-based verification of a class file; empty when it verifies. */
    static String verify(byte[] classFile) {
        StringWriter problems = new StringWriter();
        org.objectweb.asm.util.CheckClassAdapter.verify(new ClassReader(classFile),
                PicoTransformerTest.class.getClassLoader(), false, new PrintWriter(problems));
        assertNotNull(problems);
        return problems.toString();
    }
}
