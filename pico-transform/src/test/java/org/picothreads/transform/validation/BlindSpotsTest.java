package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResultAllowingPinnedBlocks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.targets.blind.handles.HiddenFrameCalls;
import org.picothreads.targets.blind.missing.MissingClassInFrames;
import org.picothreads.targets.blind.overrides.SleepingStep;
import org.picothreads.targets.blind.unseen.UnseenOverride;
import org.picothreads.transform.SourceCompiler;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.testing.GeneratedClassLoader;
import org.picothreads.transform.testing.OversizedClasses;
import org.picothreads.transform.testing.RuntimeStatistics;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TestClasspath;
import org.picothreads.transform.testing.TransformingClassLoader;
import org.picothreads.transform.testing.ValidationAssertions.Pinning;

/**
 * Where the analysis is blind, the runtime must block in place (pin) and give the platform result: methods left
 * untransformed inside a rewritten class, and blocking calls reached through frames the JVM hides.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class BlindSpotsTest {
    @Test
    void a_method_left_untransformed_because_a_class_is_missing_pins_the_sleeps_below_it_and_gives_the_same_result()
            throws Exception {
        TransformingClassLoader loader = TransformingClassLoader.forPackagesAgainst(classpathWithoutTestClasses(),
                MissingClassInFrames.class.getPackageName() + ".");
        Class<?> transformed = loader.transformedCopyOf(MissingClassInFrames.class);

        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(MissingClassInFrames.class.getName(), () -> TargetRunner.runPlain(MissingClassInFrames.class),
                () -> TargetRunner.run(transformed), Pinning.ALLOWED);
        assertEquals("circle0 square1 circle2 square3 after 1 start(s)\nan ordinary sleeper napped 5 times",
                TargetRunner.runPlain(MissingClassInFrames.class));
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // the four sleeps under shapes() block in place; the ordinary sleeper's five suspend
        assertTrue(during.pinnedBlocks() >= 4, during.toString());

        MethodReport shapes = methodReport(loader, MissingClassInFrames.class, "shapes");
        assertFalse(shapes.rewritten());
        assertTrue(shapes.reason().startsWith("cannot be analysed") && shapes.reason().contains("frame check pins"),
                shapes.reason());
        assertEquals(1, shapes.pinnedCallSites().size(), shapes.pinnedCallSites().toString());
        Rewritten marker = transformed.getAnnotation(Rewritten.class);
        assertEquals(List.of("shapes([II)Ljava/lang/String;"), List.of(marker.notCapturable()));
    }

    @Test
    void a_call_whose_blocking_override_the_analysis_never_saw_pins_the_sleeps_below_it_and_gives_the_same_result()
            throws Exception {
        TransformingClassLoader callers = TransformingClassLoader.forPackagesAgainst(classpathWithoutTestClasses(),
                UnseenOverride.class.getPackageName() + ".");
        TransformingClassLoader overrides = TransformingClassLoader.forPackages(
                SleepingStep.class.getPackageName() + ".");
        Class<?> transformed = callers.transformedCopyOf(UnseenOverride.class);
        IntUnaryOperator rewrittenStep = (IntUnaryOperator) overrides.transformedCopyOf(SleepingStep.class)
                .getConstructor().newInstance();
        Class<?>[] parameters = {IntUnaryOperator.class};

        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(UnseenOverride.class.getName(),
                () -> (String) TargetRunner.callStatic(UnseenOverride.class, "run", parameters, new SleepingStep()),
                () -> (String) TargetRunner.callStatic(transformed, "run", parameters, rewrittenStep),
                Pinning.ALLOWED);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        assertEquals("""
                steps total 60 after 1 start(s)
                nap then steps total 130 after 1 start(s)
                an ordinary sleeper napped 5 times""",
                TargetRunner.callStatic(UnseenOverride.class, "run", parameters, new SleepingStep()));
        // the seven sleeps of the override block in place; the first nap of napThenSteps and the sleeper's five suspend
        assertTrue(during.foreignFramePins() >= 7, during.toString());

        // the analysis saw no blocking override: steps is no capturing method, and napThenSteps suspends at its nap only
        assertFalse(List.of(transformed.getAnnotation(Rewritten.class).value())
                .contains("steps(Ljava/util/function/IntUnaryOperator;[II)Ljava/lang/String;"));
        assertEquals(1, methodReport(callers, UnseenOverride.class, "napThenSteps").suspensionPoints().size());
        assertTrue(methodReport(overrides, SleepingStep.class, "applyAsInt").rewritten());
    }

    @Test
    void a_method_too_large_to_rewrite_or_even_to_pin_is_left_as_it_was_and_the_sleeps_below_it_pin_with_the_same_result(
            @TempDir Path classes) throws Exception {
        // 5,000 calls of nap(k), 9 bytes each: 45 KB as compiled; pinning adds 13 bytes a call (110 KB), capture code more.
        StringBuilder calls = new StringBuilder();
        for (int call = 0; call < 5000; call++) {
            calls.append("        total += nap(").append(call).append(");\n");
        }
        String source = """
                package org.picothreads.generated.large;

                public final class LargeMethod {
                    public static String run() throws Exception {
                        int[] starts = new int[1];
                        String[] results = new String[2];
                        Thread caller = new Thread(() -> results[0] = many(starts));
                        Thread sleeper = new Thread(() -> {
                            int naps = 0;
                            for (int round = 0; round < 5; round++) {
                                naps += nap(0);
                            }
                            results[1] = "an ordinary sleeper napped " + naps + " times";
                        });
                        caller.start();
                        sleeper.start();
                        caller.join();
                        sleeper.join();
                        return results[0] + " after " + starts[0] + " start(s)\\n" + results[1];
                    }

                    static String many(int[] starts) {
                        starts[0]++;
                        int total = 0;
                %s        return "total " + total;
                    }

                    static int nap(int call) {
                        if (call %% 1000 == 0) {
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                        return 1;
                    }
                }
                """.formatted(calls);
        Map<String, byte[]> compiled = SourceCompiler.compile(classes,
                Map.of("org.picothreads.generated.large.LargeMethod", source));
        Map<String, byte[]> byBinaryName = new TreeMap<>();
        compiled.forEach((name, bytes) -> byBinaryName.put(name.replace('/', '.'), bytes));
        TransformingClassLoader loader = TransformingClassLoader.forClasses(List.of("org.picothreads.generated.large."),
                SourceCompiler.inputs(compiled));
        Class<?> plain = new GeneratedClassLoader(byBinaryName).loadClass("org.picothreads.generated.large.LargeMethod");
        Class<?> transformed = loader.loadClass("org.picothreads.generated.large.LargeMethod");

        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(plain.getName(), () -> TargetRunner.run(plain), () -> TargetRunner.run(transformed),
                Pinning.ALLOWED);
        assertEquals("total 5000 after 1 start(s)\nan ordinary sleeper napped 5 times", TargetRunner.run(plain));
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // the five sleeps under many() block in place
        assertTrue(during.foreignFramePins() >= 5, during.toString());

        MethodReport many = methodReport(loader, plain, "many");
        assertFalse(many.rewritten());
        assertTrue(many.reason().startsWith("would exceed 64 KB") && many.reason().contains("frame check pins"),
                many.reason());
        assertEquals(5000, many.pinnedCallSites().size());
        assertEquals(List.of("many([I)Ljava/lang/String;"),
                List.of(transformed.getAnnotation(Rewritten.class).notCapturable()));
    }

    @Test
    void a_class_too_large_after_rewriting_is_left_as_it_was_and_the_sleeps_under_its_methods_pin_with_the_same_result(
            @TempDir Path classes) throws Exception {
        Map<String, byte[]> compiled = SourceCompiler.compile(classes, Map.of(
                "org.picothreads.generated.toolarge.Sleepers", """
                        package org.picothreads.generated.toolarge;

                        public final class Sleepers {
                            static int relays;

                            public static int nap(int value) {
                                try {
                                    Thread.sleep(1);
                                } catch (InterruptedException e) {
                                    throw new IllegalStateException(e);
                                }
                                return value + 1;
                            }

                            public static int relay(java.util.function.IntUnaryOperator step, int value) {
                                relays++;
                                return step.applyAsInt(value) + 1;
                            }
                        }
                        """,
                "org.picothreads.generated.toolarge.Callers", """
                        package org.picothreads.generated.toolarge;

                        public final class Callers {
                            public static String run() throws Exception {
                                int[] totals = new int[3];
                                Thread napper = new Thread(() -> {
                                    for (int round = 0; round < 5; round++) {
                                        totals[0] += Sleepers.nap(round);
                                    }
                                });
                                Thread relayer = new Thread(() -> {
                                    for (int round = 0; round < 5; round++) {
                                        totals[1] += Sleepers.relay(Callers::doubleAfterNap, round);
                                    }
                                });
                                Thread sleeper = new Thread(() -> {
                                    for (int round = 0; round < 5; round++) {
                                        doubleAfterNap(round);
                                        totals[2]++;
                                    }
                                });
                                napper.start();
                                relayer.start();
                                sleeper.start();
                                napper.join();
                                relayer.join();
                                sleeper.join();
                                return "naps total " + totals[0] + "\\nrelays total " + totals[1] + " in "
                                        + Sleepers.relays + " relays\\nan ordinary sleeper napped " + totals[2] + " times";
                            }

                            static int doubleAfterNap(int value) {
                                try {
                                    Thread.sleep(1);
                                } catch (InterruptedException e) {
                                    throw new IllegalStateException(e);
                                }
                                return 2 * value;
                            }
                        }
                        """));
        String sleepers = "org/picothreads/generated/toolarge/Sleepers";
        Map<String, byte[]> inflated = new TreeMap<>(compiled);
        inflated.put(sleepers, OversizedClasses.nearlyFullConstantPool(compiled.get(sleepers)));
        Map<String, byte[]> byBinaryName = new TreeMap<>();
        inflated.forEach((name, bytes) -> byBinaryName.put(name.replace('/', '.'), bytes));
        TransformingClassLoader loader = TransformingClassLoader.forClasses(
                List.of("org.picothreads.generated.toolarge."), SourceCompiler.inputs(inflated));
        Class<?> plain = new GeneratedClassLoader(byBinaryName).loadClass("org.picothreads.generated.toolarge.Callers");
        Class<?> transformed = loader.loadClass("org.picothreads.generated.toolarge.Callers");

        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(plain.getName(), () -> TargetRunner.run(plain), () -> TargetRunner.run(transformed),
                Pinning.ALLOWED);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        assertEquals("naps total 15\nrelays total 25 in 5 relays\nan ordinary sleeper napped 5 times",
                TargetRunner.run(new GeneratedClassLoader(byBinaryName)
                        .loadClass("org.picothreads.generated.toolarge.Callers")));
        // the five sleeps of doubleAfterNap under relay() block in place: the frame check finds relay's frame not
        // rewritten, though the caller was rewritten to suspend at its call of relay
        assertTrue(during.foreignFramePins() >= 5, during.toString());

        assertArrayEquals(inflated.get(sleepers), loader.rewrittenBytes(sleepers.replace('/', '.')));
        ClassReport report = classReport(loader, sleepers);
        assertFalse(report.changed());
        assertTrue(report.leftUnrewritten().startsWith("the class would have ")
                && report.leftUnrewritten().contains("constant pool entries after rewriting, more than a class file"
                        + " holds, so it is left as it was"), report.leftUnrewritten());
        MethodReport relay = report.methods().stream().filter(method -> method.name().equals("relay")).findFirst()
                .orElseThrow();
        assertFalse(relay.rewritten());
        assertEquals(report.leftUnrewritten(), relay.reason());
        assertEquals(1, relay.pinnedCallSites().size(), relay.pinnedCallSites().toString());
        assertTrue(List.of(transformed.getAnnotation(Rewritten.class).value()).stream()
                .anyMatch(method -> method.startsWith("lambda$")), "the caller's lambdas capture");
        assertEquals(null, loader.loadClass(sleepers.replace('/', '.')).getAnnotation(Rewritten.class));
    }

    private static ClassReport classReport(TransformingClassLoader loader, String internalName) {
        for (ClassReport report : loader.transformResult().report().classes()) {
            if (report.className().equals(internalName)) {
                return report;
            }
        }
        throw new AssertionError("no report for " + internalName);
    }

    @Test
    void blocking_through_method_handles_combinators_proxies_reflection_and_run_time_lambdas_pins_and_gives_the_same_result()
            throws Exception {
        assertEquals(String.join("\n", "invokeExact 2", "invoke 4", "invokeWithArguments 6", "filterReturnValue 9",
                "foldArguments 10", "MethodHandleProxies 12", "Proxy 14", "Constructor.newInstance 16",
                "LambdaMetafactory at run time 18", "LambdaMetafactory at run time, called by IntStream.map 20",
                "an ordinary sleeper napped 5 times", "rounds around the blocking calls: 1 1 1 2 2 1 1 1 1 1"),
                TargetRunner.runPlain(HiddenFrameCalls.class));
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResultAllowingPinnedBlocks(HiddenFrameCalls.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // the ten sleeps under hidden, generated or JDK frames block in place (nine found by the frame check, one in
        // the constructor that reflection calls); the ordinary sleeper's five suspend
        assertTrue(during.foreignFramePins() >= 9 && during.pinnedBlocks() >= 10, during.toString());
    }

    /** The tests' class path without their own classes, so that the transformer does not see the other targets. */
    private static List<Path> classpathWithoutTestClasses() {
        List<Path> classpath = new ArrayList<>(TestClasspath.entries());
        classpath.removeIf(entry -> entry.toAbsolutePath().normalize()
                .equals(TestClasspath.testClassesDirectory().toAbsolutePath().normalize()));
        return classpath;
    }

    private static MethodReport methodReport(TransformingClassLoader loader, Class<?> target, String method) {
        String internalName = target.getName().replace('.', '/');
        for (ClassReport report : loader.transformResult().report().classes()) {
            if (report.className().equals(internalName)) {
                for (MethodReport methodReport : report.methods()) {
                    if (methodReport.name().equals(method)) {
                        return methodReport;
                    }
                }
            }
        }
        throw new AssertionError("no report for " + target.getName() + "." + method);
    }
}
