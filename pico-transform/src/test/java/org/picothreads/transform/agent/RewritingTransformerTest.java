package org.picothreads.transform.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.SourceCompiler;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;
import org.picothreads.transform.io.ClassNameFilter;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.TransformReport;

class RewritingTransformerTest {
    private static final ClassLoader APPLICATION_LOADER = ClassLoader.getSystemClassLoader();

    @TempDir
    Path classes;

    private final ByteArrayOutputStream warningBytes = new ByteArrayOutputStream();
    private final PrintStream warnings = new PrintStream(warningBytes, true, StandardCharsets.UTF_8);

    private String warnings() {
        return warningBytes.toString(StandardCharsets.UTF_8);
    }

    private static ClassRewriting refusing() {
        return input -> {
            throw new TransformException(input.source() + ": truncated or corrupt class file");
        };
    }

    /** A rewriting that marks each class by appending a byte, and records what it was given. */
    private static ClassRewriting marking(List<ClassInput> calls) {
        return input -> {
            calls.add(input);
            byte[] marked = Arrays.copyOf(input.bytes(), input.bytes().length + 1);
            return new TransformResult(List.of(new ClassOutput(input.source(), "x", marked, true)),
                    new TransformReport(List.of(new ClassReport("x", input.source(), true, false, List.of(), 1))));
        };
    }

    @Test
    void a_class_that_cannot_be_rewritten_loads_unchanged_with_one_warning_line_naming_it() {
        RewritingTransformer transformer = new RewritingTransformer(ClassNameFilter.everyClass(), refusing(), warnings);

        assertNull(transformer.transform(APPLICATION_LOADER, "com/example/Broken", null, null, new byte[] {1, 2}));
        assertNull(transformer.transform(APPLICATION_LOADER, "com/example/Broken", null, null, new byte[] {1, 2}));

        assertEquals("pico-agent: warning: cannot rewrite com.example.Broken, it is loaded unchanged:"
                + " com/example/Broken.class: truncated or corrupt class file\n", warnings());
    }

    @Test
    void a_class_left_as_it_was_because_its_rewrite_would_not_fit_loads_unchanged_with_one_warning_and_its_report() {
        String reason = "the class would have 76123 constant pool entries after rewriting, more than a class file"
                + " holds, so it is left as it was (not rewritten)";
        ClassRewriting tooLarge = input -> new TransformResult(
                List.of(new ClassOutput(input.source(), "com/example/Huge", input.bytes(), false)),
                new TransformReport(List.of(new ClassReport("com/example/Huge", input.source(), false, false,
                        List.of(), 0, reason))));
        RewritingTransformer transformer = new RewritingTransformer(ClassNameFilter.everyClass(), tooLarge, warnings);

        assertNull(transformer.transform(APPLICATION_LOADER, "com/example/Huge", null, null, new byte[] {1, 2}));

        assertEquals("pico-agent: warning: cannot rewrite com.example.Huge, it is loaded unchanged: " + reason + "\n",
                warnings());
        assertEquals(reason, transformer.report().classes().get(0).leftUnrewritten());
    }

    @Test
    void jdk_classes_and_pico_threads_own_classes_are_never_given_to_the_transformer() {
        List<ClassInput> calls = new ArrayList<>();
        RewritingTransformer transformer = new RewritingTransformer(ClassNameFilter.everyClass(), marking(calls),
                warnings);

        assertNull(transformer.transform(APPLICATION_LOADER, "java/lang/Thread", null, null, new byte[1]));
        assertNull(transformer.transform(APPLICATION_LOADER, "jdk/internal/Misc", null, null, new byte[1]));
        assertNull(transformer.transform(APPLICATION_LOADER, "org/picothreads/runtime/PicoThread", null, null,
                new byte[1]));
        assertNull(transformer.transform(null, "com/example/OnTheBootClassPath", null, null, new byte[1]));
        assertNull(transformer.transform(ClassLoader.getPlatformClassLoader(), "com/example/Platform", null, null,
                new byte[1]));
        assertEquals(List.of(), calls);
    }

    @Test
    void each_chosen_class_is_rewritten_as_it_loads_and_its_report_kept() {
        List<ClassInput> calls = new ArrayList<>();
        ClassNameFilter filter = ClassNameFilter.of(List.of("startup.*"), List.of());
        RewritingTransformer transformer = new RewritingTransformer(filter, marking(calls), warnings);
        byte[] first = {1, 2, 3};

        byte[] served = transformer.transform(APPLICATION_LOADER, "startup/First", null, null, first);
        assertArrayEquals(new byte[] {1, 2, 3, 0}, served);
        assertNull(transformer.transform(APPLICATION_LOADER, "other/Left", null, null, new byte[1]));

        assertEquals(1, calls.size());
        assertEquals("startup/First.class", calls.get(0).source());
        assertEquals(1, transformer.report().classes().size());
        assertEquals("", warnings());
    }

    @Test
    void under_the_real_transformer_a_class_of_the_class_path_is_rewritten_with_what_it_reaches_there()
            throws Exception {
        SourceCompiler.compile(classes, Map.of(
                "loading.Sleeper", "package loading; public class Sleeper { public static void nap() throws"
                        + " InterruptedException { Thread.sleep(1); } }",
                "loading.Caller", "package loading; public class Caller { static void call() throws"
                        + " InterruptedException { Sleeper.nap(); } static int plain() { return 1; } }"));
        Path elsewhere = classes.resolve("elsewhere");
        Map<String, byte[]> otherCaller = SourceCompiler.compile(elsewhere, Map.of(
                "loading.Caller", "package loading; public class Caller { static void call() throws"
                        + " InterruptedException { Sleeper.nap(); Sleeper.nap(); } }"), "-cp", classes.toString());
        PicoTransformer.Loading loading = PicoTransformer.withClasspath(List.of(classes))
                .forLoading(name -> name.startsWith("loading/"));
        RewritingTransformer transformer = new RewritingTransformer(ClassNameFilter.everyClass(),
                ClassRewriting.by(loading), warnings);
        byte[] caller = Files.readAllBytes(classes.resolve("loading/Caller.class"));

        byte[] served = transformer.transform(APPLICATION_LOADER, "loading/Caller", null, null, caller);
        byte[] servedAlone = transformer.transform(APPLICATION_LOADER, "loading/Caller", null, null,
                otherCaller.values().iterator().next());
        loading.close();

        assertTrue(PicoTransformer.isTransformed(served));
        assertNull(servedAlone, "alone, the class cannot see that Sleeper.nap blocks");
        List<ClassReport> reports = transformer.report().classes();
        assertEquals(2, reports.size(), warnings());
        assertEquals(List.of("call"), reports.get(0).methods().stream().map(method -> method.name()).toList());
        assertEquals(List.of(), reports.get(1).methods());
        assertEquals("", warnings());
    }
}
