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
import org.picothreads.transform.SourceCompiler;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;
import org.picothreads.transform.io.ClassNameFilter;
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
        return inputs -> {
            throw new TransformException(inputs.get(0).source() + ": truncated or corrupt class file");
        };
    }

    /** A rewriting that marks each class by appending a byte, and records what it was given. */
    private static ClassRewriting marking(List<List<ClassInput>> calls) {
        return inputs -> {
            calls.add(inputs);
            List<ClassOutput> outputs = new ArrayList<>();
            for (ClassInput input : inputs) {
                byte[] marked = Arrays.copyOf(input.bytes(), input.bytes().length + 1);
                outputs.add(new ClassOutput(input.source(), "x", marked, true));
            }
            return new TransformResult(outputs, new TransformReport(List.of()));
        };
    }

    @Test
    void a_class_that_cannot_be_rewritten_loads_unchanged_with_one_warning_line_naming_it() throws Exception {
        PreparedClasses nothingPrepared = PreparedClasses.prepare(List.of(), ClassNameFilter.everyClass(), refusing(),
                warnings);
        RewritingTransformer transformer = new RewritingTransformer(nothingPrepared, ClassNameFilter.everyClass(),
                refusing(), warnings);

        assertNull(transformer.transform(APPLICATION_LOADER, "com/example/Broken", null, null, new byte[] {1, 2}));
        assertNull(transformer.transform(APPLICATION_LOADER, "com/example/Broken", null, null, new byte[] {1, 2}));

        assertEquals("pico-agent: warning: cannot rewrite com.example.Broken, it is loaded unchanged:"
                + " com/example/Broken.class: truncated or corrupt class file\n", warnings());
    }

    @Test
    void jdk_classes_and_pico_threads_own_classes_are_never_given_to_the_transformer() {
        List<List<ClassInput>> calls = new ArrayList<>();
        RewritingTransformer transformer = new RewritingTransformer(
                PreparedClasses.prepare(List.of(), ClassNameFilter.everyClass(), marking(calls), warnings),
                ClassNameFilter.everyClass(), marking(calls), warnings);

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
    void classes_read_at_startup_are_rewritten_together_and_served_only_for_the_same_bytes() throws Exception {
        SourceCompiler.compile(classes, Map.of(
                "startup.First", "package startup; public class First { }",
                "startup.Second", "package startup; public class Second { }",
                "other.Left", "package other; public class Left { }"));
        List<List<ClassInput>> calls = new ArrayList<>();
        ClassNameFilter filter = ClassNameFilter.of(List.of("startup.*"), List.of());
        PreparedClasses prepared = PreparedClasses.prepare(List.of(classes), filter, marking(calls), warnings);
        RewritingTransformer transformer = new RewritingTransformer(prepared, filter, marking(calls), warnings);
        byte[] first = Files.readAllBytes(classes.resolve("startup/First.class"));

        assertEquals(1, calls.size());
        assertEquals(2, calls.get(0).size());
        byte[] served = transformer.transform(APPLICATION_LOADER, "startup/First", null, null, first);
        assertEquals(first.length + 1, served.length);
        assertEquals(1, calls.size());

        byte[] otherBytes = Arrays.copyOf(first, first.length);
        otherBytes[otherBytes.length - 1] ^= 1;
        byte[] aloneServed = transformer.transform(APPLICATION_LOADER, "startup/First", null, null, otherBytes);
        assertEquals(2, calls.size());
        assertEquals(1, calls.get(1).size());
        assertArrayEquals(otherBytes, Arrays.copyOf(aloneServed, otherBytes.length));
        assertNull(transformer.transform(APPLICATION_LOADER, "other/Left", null, null, new byte[1]));
        assertEquals("", warnings());
    }

    @Test
    void a_class_refused_at_startup_is_left_out_with_one_warning_and_the_others_are_rewritten() throws Exception {
        SourceCompiler.compile(classes, Map.of(
                "startup.Good", "package startup; public class Good { }",
                "startup.Bad", "package startup; public class Bad { }"));
        List<List<ClassInput>> calls = new ArrayList<>();
        ClassRewriting refusingBad = inputs -> {
            for (ClassInput input : inputs) {
                if (input.source().endsWith("Bad.class")) {
                    throw new TransformException(input.source() + ": class startup.Bad cannot be rewritten: test");
                }
            }
            return marking(calls).rewrite(inputs);
        };
        ClassNameFilter filter = ClassNameFilter.everyClass();
        PreparedClasses prepared = PreparedClasses.prepare(List.of(classes), filter, refusingBad, warnings);
        RewritingTransformer transformer = new RewritingTransformer(prepared, filter, refusingBad, warnings);
        byte[] bad = Files.readAllBytes(classes.resolve("startup/Bad.class"));

        assertNull(transformer.transform(APPLICATION_LOADER, "startup/Bad", null, null, bad));
        assertEquals(1, calls.size());
        assertEquals(1, calls.get(0).size());
        assertEquals(1, warnings().lines().count(), warnings());
        assertTrue(warnings().startsWith("pico-agent: warning: cannot rewrite startup.Bad, it is loaded"
                + " unchanged: "), warnings());
    }
}
