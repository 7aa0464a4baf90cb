package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.targets.blind.overrides.SleepingStep;
import org.picothreads.transform.SourceCompiler;
import org.picothreads.transform.testing.GeneratedClassLoader;
import org.picothreads.transform.testing.RuntimeStatistics;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;
import org.picothreads.transform.testing.ValidationAssertions.Pinning;

/**
 * The frame check reads a frame's descriptor only where the marker's site keys say the name and the bytecode offset
 * could also be a call that is no suspension site. These targets put such a call exactly at the offset of a
 * suspension site of a method of the same name (a non-rewritten overload, a method and its continuation), below a
 * blocking call reached through an override the analysis never saw ({@code blind.overrides.SleepingStep}, rewritten
 * apart): every such blocking call must pin and give the platform result. So must one below a method the input
 * names like the resume entry the transformer adds ({@code $picothreads$resume}, with another descriptor), which the
 * check, reading only names there, must not take for the entry.
 *
 * <p>The targets are generated with padding of every length before the calls, so that, whatever layout the rewriter
 * gives the capturing methods, some variant has each collision; the test finds it in the written class and says so.
 * {@code c} sleeps itself before the unseen call, rather than through {@code m}: a call of a method of the same class
 * saves no arguments, so its continuation only ever continues after it and keeps no suspension site there.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FrameCheckKeysTest {
    private static final String PACKAGE = "org.picothreads.generated.keys";
    private static final int LONGEST_PADDING = 150;
    private static final String EXPECTED = "overload 70, first 2, resumed 13, sleeper 5, reserved name 90";
    private static final String STEP_CALL = "applyAsInt";

    private static Map<String, byte[]> compiled;
    private static TransformingClassLoader transforming;

    @BeforeAll
    static void compileAndTransform(@TempDir Path classes) throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        for (int length = 0; length <= LONGEST_PADDING; length++) {
            if (length != 1) {
                sources.put(PACKAGE + ".Keys" + length, source(length));
            }
        }
        compiled = SourceCompiler.compile(classes, sources);
        transforming = TransformingClassLoader.forClasses(List.of(PACKAGE + "."), SourceCompiler.inputs(compiled));
    }

    @Test
    void a_non_rewritten_overload_calling_an_unseen_override_at_the_offset_of_its_namesakes_suspension_site_pins_and_gives_the_same_result()
            throws Exception {
        Variant variant = find("the overload m() calls the override at a suspension site offset of a method named m",
                written -> written.collides("m()V", "m(I)I", "m(ILorg/picothreads/runtime/internal/Frame;)I"));
        assertPinsWithTheSameResult(variant.name);
    }

    @Test
    void a_continuation_calling_an_unseen_override_at_the_offset_of_its_methods_suspension_site_pins_and_gives_the_same_result()
            throws Exception {
        Variant variant = find("the continuation of c calls the override at a suspension site offset of c",
                written -> written.collides("c(ZLorg/picothreads/runtime/internal/Frame;)I", "c(Z)I"));
        assertPinsWithTheSameResult(variant.name);
    }

    @Test
    void a_method_calling_an_unseen_override_at_the_offset_of_its_continuations_suspension_site_pins_and_gives_the_same_result()
            throws Exception {
        Variant variant = find("c calls the override at a suspension site offset of its continuation",
                written -> written.collides("c(Z)I", "c(ZLorg/picothreads/runtime/internal/Frame;)I"));
        assertPinsWithTheSameResult(variant.name);
    }

    @Test
    void a_class_whose_marker_has_no_site_keys_as_written_by_an_older_build_still_suspends_and_pins_where_it_must()
            throws Exception {
        String name = PACKAGE + ".Keys0";
        byte[] withoutKeys = withoutSiteKeys(transforming.rewrittenBytes(name));
        Class<?> older = new GeneratedClassLoader(Map.of(name, withoutKeys)).loadClass(name);
        assertEquals(0, older.getAnnotation(Rewritten.class).siteKeys().length);
        assertTrue(transforming.loadClass(name).getAnnotation(Rewritten.class).siteKeys().length > 0);

        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(name, () -> run(plain(name), new SleepingStep()), () -> run(older, rewrittenStep()),
                Pinning.ALLOWED);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        assertTrue(during.foreignFramePins() >= 4, during.toString());
        assertTrue(during.suspensions() >= 5, during.toString());
    }

    @Test
    void every_site_key_is_a_letter_per_suspension_site_and_most_sites_of_the_targets_need_no_descriptor()
            throws Exception {
        int sites = 0;
        int byDescriptor = 0;
        for (String name : compiled.keySet()) {
            Rewritten marker = transforming.loadClass(name.replace('/', '.')).getAnnotation(Rewritten.class);
            assertEquals(marker.value().length, marker.siteKeys().length, name);
            for (int index = 0; index < marker.value().length; index++) {
                String key = marker.siteKeys()[index];
                assertEquals(marker.sites()[index].isEmpty() ? 0 : marker.sites()[index].split(",").length,
                        key.length(), name + " " + marker.value()[index]);
                assertTrue(key.chars().allMatch(letter -> letter == 'o' || letter == 'n' || letter == 'd'), key);
                sites += key.length();
                byDescriptor += (int) key.chars().filter(letter -> letter == 'd').count();
            }
        }
        // the colliding variants need the descriptor at one or two sites each; the rest are told by offset or name
        assertTrue(sites > 0 && byDescriptor > 0 && byDescriptor < sites / 2, byDescriptor + " of " + sites);
    }

    private static void assertPinsWithTheSameResult(String name) throws Exception {
        Class<?> transformed = transforming.loadClass(name);
        assertEquals(EXPECTED, run(plain(name), new SleepingStep()));
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(name, () -> run(plain(name), new SleepingStep()), () -> run(transformed, rewrittenStep()),
                Pinning.ALLOWED);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // the overload's, c(false)'s, c(true)'s and the reserved name's calls of the override block in place; the
        // sleeper's naps suspend
        assertTrue(during.foreignFramePins() >= 4, during.toString());
        assertTrue(during.suspensions() >= 5, during.toString());
    }

    private static String run(Class<?> target, IntUnaryOperator step) throws Exception {
        return (String) TargetRunner.callStatic(target, "run", new Class<?>[] {IntUnaryOperator.class}, step);
    }

    private static Class<?> plain(String name) throws ClassNotFoundException {
        Map<String, byte[]> byBinaryName = new TreeMap<>();
        compiled.forEach((internal, bytes) -> byBinaryName.put(internal.replace('/', '.'), bytes));
        return new GeneratedClassLoader(byBinaryName).loadClass(name);
    }

    private static IntUnaryOperator rewrittenStep() throws Exception {
        return (IntUnaryOperator) TransformingClassLoader.forPackages(SleepingStep.class.getPackageName() + ".")
                .transformedCopyOf(SleepingStep.class).getConstructor().newInstance();
    }

    /** The first variant whose written class has the collision, or a failure that lists what each variant has. */
    private static Variant find(String collision, java.util.function.Predicate<Written> has) throws Exception {
        StringBuilder seen = new StringBuilder();
        for (String internal : compiled.keySet()) {
            String name = internal.replace('/', '.');
            Written written = Written.of(transforming.rewrittenBytes(name),
                    transforming.loadClass(name).getAnnotation(Rewritten.class));
            if (has.test(written)) {
                return new Variant(name);
            }
            seen.append('\n').append(name).append(": ").append(written.describe());
        }
        throw new AssertionError("no variant where " + collision + ":" + seen);
    }

    private record Variant(String name) {
    }

    /** A written class's suspension sites and the offsets of its calls of the override, by method. */
    private record Written(Map<String, List<Integer>> sites, Map<String, String> keys,
            Map<String, List<Integer>> stepCalls) {
        static Written of(byte[] classFile, Rewritten marker) {
            Map<String, List<Integer>> sites = new HashMap<>();
            Map<String, String> keys = new HashMap<>();
            for (int index = 0; index < marker.value().length; index++) {
                List<Integer> offsets = new ArrayList<>();
                // A continuation whose sites all save no arguments has none (its calls there are only continued after).
                for (String site : marker.sites()[index].isEmpty() ? new String[0] : marker.sites()[index].split(",")) {
                    offsets.add(Integer.parseInt(site));
                }
                sites.put(marker.value()[index], offsets);
                keys.put(marker.value()[index], marker.siteKeys()[index]);
            }
            return new Written(sites, keys, callsOfTheOverride(classFile));
        }

        /** The sites, keys and calls of the override of the methods named m and c. */
        String describe() {
            java.util.function.Predicate<String> mOrC = method -> method.startsWith("m(") || method.startsWith("c(");
            return "sites " + new TreeMap<>(sites).entrySet().stream().filter(entry -> mOrC.test(entry.getKey())).toList()
                    + ", keys " + new TreeMap<>(keys).entrySet().stream().filter(entry -> mOrC.test(entry.getKey()))
                            .toList()
                    + ", calls of the override " + new TreeMap<>(stepCalls).entrySet().stream()
                            .filter(entry -> !entry.getValue().isEmpty()).toList();
        }

        /**
         * True when {@code caller} calls the override at an offset that is a suspension site of one of
         * {@code namesakes} and not of its own, and the marker keys that site by descriptor.
         */
        boolean collides(String caller, String... namesakes) {
            List<Integer> own = sites.getOrDefault(caller, List.of());
            for (int call : stepCalls.getOrDefault(caller, List.of())) {
                for (String namesake : namesakes) {
                    int site = sites.getOrDefault(namesake, List.of()).indexOf(call);
                    if (site >= 0 && !own.contains(call)) {
                        assertEquals('d', keys.get(namesake).charAt(site), () -> caller + " calls at " + call
                                + ", a site of " + namesake + ": " + describe());
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** The offsets of the calls of the override in each method of the class file, as the class writer lays them out. */
    private static Map<String, List<Integer>> callsOfTheOverride(byte[] classFile) {
        Map<String, List<Label>> labels = new HashMap<>();
        ClassReader reader = new ClassReader(classFile);
        // with the class file's constant pool, so that every instruction keeps its encoding (ldc, not ldc_w)
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                List<Label> calls = labels.computeIfAbsent(name + descriptor, method -> new ArrayList<>());
                return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature,
                        exceptions)) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String methodDescriptor,
                            boolean isInterface) {
                        if (method.equals(STEP_CALL)) {
                            Label call = new Label();
                            super.visitLabel(call);
                            calls.add(call);
                        }
                        super.visitMethodInsn(opcode, owner, method, methodDescriptor, isInterface);
                    }
                };
            }
        }, 0);
        byte[] rewritten = writer.toByteArray();
        assertNotNull(rewritten);
        Map<String, List<Integer>> offsets = new HashMap<>();
        labels.forEach((method, calls) -> offsets.put(method, calls.stream().map(Label::getOffset).toList()));
        return offsets;
    }

    /** The class file with its marker's site keys left out, as an older build wrote it. */
    private static byte[] withoutSiteKeys(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                return new AnnotationVisitor(Opcodes.ASM9, super.visitAnnotation(descriptor, visible)) {
                    @Override
                    public AnnotationVisitor visitArray(String name) {
                        return name.equals("siteKeys") ? null : super.visitArray(name);
                    }
                };
            }
        }, 0);
        return writer.toByteArray();
    }

    /**
     * A target whose calls of the override stand after {@code length} bytes of padding: m() (left as it was) calls it
     * at an offset that moves with the padding; c calls it once after its first suspension site (in its continuation
     * when that nap suspended) and once without, before its last.
     */
    private static String source(int length) {
        return """
                package %s;

                import java.util.function.IntUnaryOperator;

                public final class Keys%d {
                    static IntUnaryOperator step;
                    static int overloadResult;
                    static int reservedNameResult;

                    public static String run(IntUnaryOperator given) throws Exception {
                        step = given;
                        int[] results = new int[3];
                        Thread overload = new Thread(Keys%d::m);
                        Thread first = new Thread(() -> results[0] = c(false));
                        Thread resumed = new Thread(() -> results[1] = c(true));
                        Thread reservedName = new Thread(Keys%d::$picothreads$resume);
                        Thread sleeper = new Thread(() -> {
                            int naps = 0;
                            for (int nap = 0; nap < 5; nap++) {
                                naps += m(1); // suspends
                            }
                            results[2] = naps;
                        });
                        overload.start();
                        first.start();
                        resumed.start();
                        sleeper.start();
                        reservedName.start();
                        reservedName.join();
                        overload.join();
                        first.join();
                        resumed.join();
                        sleeper.join();
                        return "overload " + overloadResult + ", first " + results[0] + ", resumed " + results[1]
                                + ", sleeper " + results[2] + ", reserved name " + reservedNameResult;
                    }

                    /** Left as it was: the analysis sees no override of applyAsInt that blocks. */
                    static void m() {
                %s        overloadResult = step.applyAsInt(7); // pins: the override is unseen
                    }

                    /** Named like the resume entry the transformer adds, with another descriptor. */
                    static void $picothreads$resume() {
                        reservedNameResult = step.applyAsInt(9); // pins: the override is unseen
                    }

                    static int m(int value) {
                        try {
                            Thread.sleep(1); // suspends
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        return value;
                    }

                    static int c(boolean napFirst) {
                        int total = 0;
                        if (napFirst) {
                            try {
                                Thread.sleep(1); // suspends
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            total += 1;
                        }
                %s        total += step.applyAsInt(total); // pins: the override is unseen
                %s        total += m(2); // suspends
                        return total;
                    }
                }
                """.formatted(PACKAGE, length, length, length, padding("pad", length), padding("padBefore", length),
                padding("padAfter", length));
    }

    /**
     * Statements that compile to exactly {@code length} bytes (0, or 2 and more) of instructions that are neither
     * calls nor refer to the constant pool: a local's initialisation (2 to 4 bytes) and increments (3 bytes each).
     */
    private static String padding(String local, int length) {
        if (length == 0) {
            return "";
        }
        int initialisation = length % 3 == 2 ? 2 : length % 3 == 0 ? 3 : 4;
        String value = initialisation == 2 ? "5" : initialisation == 3 ? "10" : "1000";
        StringBuilder statements = new StringBuilder("        int " + local + " = " + value + ";\n");
        for (int increment = 0; increment < (length - initialisation) / 3; increment++) {
            statements.append("        ").append(local).append(" += 1;\n");
        }
        return statements.toString();
    }
}
