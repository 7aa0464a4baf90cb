package org.picothreads.transform.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.io.TestFiles.bytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;

class ClassContainerTest {
    @TempDir
    Path temporary;

    @Test
    void a_directory_is_read_in_relative_path_order_with_the_manifest_first() throws Exception {
        Path input = TestFiles.writeTree(temporary.resolve("classes"), Map.of(
                "b/Two.class", TestClasses.plainClass("b/Two"),
                "a/One.class", TestClasses.plainClass("a/One"),
                "META-INF/MANIFEST.MF", bytes("Manifest-Version: 1.0\r\n\r\n"),
                "Alpha.txt", bytes("alpha"),
                "z.txt", bytes("zed")));

        ClassContainer container = ClassContainer.read(input);

        assertEquals(ContainerKind.DIRECTORY, container.kind());
        assertEquals(List.of("META-INF/MANIFEST.MF", "Alpha.txt", "a/One.class", "b/Two.class", "z.txt"),
                names(container));
        assertArrayEquals(bytes("zed"), container.entries().get(4).bytes());
    }

    @Test
    void a_jar_is_read_in_entry_order_with_the_manifest_where_it_was() throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("z.txt", bytes("zed"));
        contents.put("META-INF/MANIFEST.MF", bytes("Manifest-Version: 1.0\r\n\r\n"));
        contents.put("com/x/Foo.class", TestClasses.plainClass("com/x/Foo"));
        contents.put("a.txt", bytes("alpha"));
        Path jar = TestFiles.writeSimpleJar(temporary.resolve("in.jar"), contents);

        ClassContainer container = ClassContainer.read(jar);

        assertEquals(ContainerKind.JAR, container.kind());
        assertEquals(List.of("z.txt", "META-INF/MANIFEST.MF", "com/x/Foo.class", "a.txt"), names(container));
        assertArrayEquals(contents.get("com/x/Foo.class"), container.entries().get(2).bytes());
        assertEquals("com/x/Foo.class", container.entries().get(2).archiveEntry().getName());
    }

    @Test
    void the_classes_of_a_directory_are_named_by_their_file_and_module_info_is_not_among_them() throws Exception {
        byte[] foo = TestClasses.plainClass("com/x/Foo");
        Path input = TestFiles.writeTree(temporary.resolve("classes"), Map.of(
                "module-info.class", TestClasses.moduleInfo("com.x"),
                "com/x/Foo.class", foo,
                "com/x/data.bin", new byte[] {1, 2, 3}));

        List<ClassInput> classes = ClassContainer.read(input).classInputs();

        assertEquals(1, classes.size());
        assertEquals(input.resolve("com/x/Foo.class").toString(), classes.get(0).source());
        assertArrayEquals(foo, classes.get(0).bytes());
    }

    @Test
    void the_classes_of_a_jar_are_named_by_the_jar_and_entry_and_versioned_module_info_is_left_out() throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("module-info.class", TestClasses.moduleInfo("com.x"));
        contents.put("META-INF/versions/11/module-info.class", TestClasses.moduleInfo("com.x"));
        contents.put("com/x/Foo.class", TestClasses.plainClass("com/x/Foo"));
        contents.put("com/x/Bar.class", TestClasses.plainClass("com/x/Bar"));
        Path jar = TestFiles.writeSimpleJar(temporary.resolve("in.jar"), contents);

        List<String> sources = ClassContainer.read(jar).classInputs().stream().map(ClassInput::source)
                .collect(Collectors.toList());

        assertEquals(List.of(jar + "!/com/x/Foo.class", jar + "!/com/x/Bar.class"), sources);
    }

    @Test
    void a_missing_input_is_refused_by_name() {
        Path missing = temporary.resolve("nowhere");

        ContainerException failure = assertThrows(ContainerException.class, () -> ClassContainer.read(missing));

        assertEquals("input does not exist: " + missing, failure.getMessage());
    }

    @Test
    void a_file_that_is_neither_a_directory_nor_a_jar_is_refused() throws Exception {
        Path notes = Files.writeString(temporary.resolve("notes.txt"), "not a jar");

        ContainerException failure = assertThrows(ContainerException.class, () -> ClassContainer.read(notes));

        assertEquals("input is neither a directory nor a jar or zip file: " + notes, failure.getMessage());
    }

    @Test
    void a_jar_that_is_not_a_zip_file_is_refused_as_corrupt() throws Exception {
        Path broken = Files.writeString(temporary.resolve("broken.jar"), "this is not a zip file");

        ContainerException failure = assertThrows(ContainerException.class, () -> ClassContainer.read(broken));

        assertTrue(failure.getMessage().startsWith("corrupt jar " + broken + ": "), failure.getMessage());
    }

    @Test
    void a_jar_cut_short_is_refused_as_corrupt() throws Exception {
        Path whole = TestFiles.writeSimpleJar(temporary.resolve("whole.jar"),
                Map.of("com/x/Foo.class", TestClasses.plainClass("com/x/Foo")));
        byte[] bytes = Files.readAllBytes(whole);
        Path truncated = Files.write(temporary.resolve("truncated.jar"), Arrays.copyOf(bytes, bytes.length / 2));

        ContainerException failure = assertThrows(ContainerException.class, () -> ClassContainer.read(truncated));

        assertTrue(failure.getMessage().startsWith("corrupt jar " + truncated + ": "), failure.getMessage());
    }

    @Test
    void a_jar_holding_two_entries_of_one_name_is_refused() throws Exception {
        Map<ZipEntry, byte[]> entries = new LinkedHashMap<>();
        entries.put(TestFiles.entry("A.txt"), bytes("first"));
        entries.put(TestFiles.entry("B.txt"), bytes("second"));
        Path jar = TestFiles.writeJar(temporary.resolve("twice.jar"), entries);
        String patched = new String(Files.readAllBytes(jar), StandardCharsets.ISO_8859_1).replace("B.txt", "A.txt");
        Files.write(jar, patched.getBytes(StandardCharsets.ISO_8859_1));

        ContainerException failure = assertThrows(ContainerException.class, () -> ClassContainer.read(jar));

        assertEquals("corrupt jar " + jar + ": duplicate entry A.txt", failure.getMessage());
    }

    @Test
    void an_entry_whose_content_does_not_match_its_checksum_is_refused() throws Exception {
        byte[] content = bytes("original content");
        Map<ZipEntry, byte[]> entries = new LinkedHashMap<>();
        entries.put(TestFiles.storedEntry("data.txt", content), content);
        Path jar = TestFiles.writeJar(temporary.resolve("damaged.jar"), entries);
        String patched = new String(Files.readAllBytes(jar), StandardCharsets.ISO_8859_1)
                .replace("original content", "modified content");
        Files.write(jar, patched.getBytes(StandardCharsets.ISO_8859_1));

        ContainerException failure = assertThrows(ContainerException.class, () -> ClassContainer.read(jar));

        assertEquals("corrupt jar " + jar + ": entry data.txt: content does not match its checksum",
                failure.getMessage());
    }

    @Test
    void rewritten_classes_replace_their_entries_and_the_signature_files_are_dropped() throws Exception {
        ClassContainer container = signedJar();
        List<ClassInput> inputs = container.classInputs();
        byte[] rewrittenFoo = TestClasses.plainClass("com/x/Rewritten");

        ClassContainer rewritten = container.withTransformedClasses(List.of(
                new ClassOutput(inputs.get(0).source(), "com/x/Foo", rewrittenFoo, true),
                new ClassOutput(inputs.get(1).source(), "com/x/Bar", inputs.get(1).bytes(), false)));

        assertEquals(List.of("META-INF/SIGNER.SF", "META-INF/SIGNER.RSA", "META-INF/OTHER.EC"),
                container.signatureFiles());
        assertEquals(List.of("META-INF/MANIFEST.MF", "com/x/Foo.class", "com/x/Bar.class", "readme.txt"),
                names(rewritten));
        assertArrayEquals(rewrittenFoo, rewritten.entries().get(1).bytes());
        assertSame(container.entries().get(5).bytes(), rewritten.entries().get(2).bytes());
        assertEquals(List.of(), rewritten.signatureFiles());
    }

    @Test
    void the_signature_files_stay_when_no_class_changed() throws Exception {
        ClassContainer container = signedJar();
        List<ClassOutput> unchanged = container.classInputs().stream()
                .map(input -> new ClassOutput(input.source(), "any", input.bytes(), false))
                .collect(Collectors.toList());

        ClassContainer rewritten = container.withTransformedClasses(unchanged);

        assertEquals(names(container), names(rewritten));
    }

    @Test
    void an_unchanged_class_keeps_its_input_bytes_whatever_bytes_the_output_carries() throws Exception {
        ClassContainer container = signedJar();
        List<ClassOutput> outputs = container.classInputs().stream()
                .map(input -> new ClassOutput(input.source(), "any", new byte[] {0}, false))
                .collect(Collectors.toList());

        ClassContainer rewritten = container.withTransformedClasses(outputs);

        assertArrayEquals(container.entries().get(4).bytes(), rewritten.entries().get(4).bytes());
    }

    @Test
    void outputs_that_do_not_match_the_inputs_are_rejected() throws Exception {
        ClassContainer container = signedJar();
        ClassInput foo = container.classInputs().get(0);

        IllegalArgumentException tooFew = assertThrows(IllegalArgumentException.class,
                () -> container.withTransformedClasses(List.of(new ClassOutput(foo.source(), "x", foo.bytes(), false))));
        IllegalArgumentException swapped = assertThrows(IllegalArgumentException.class,
                () -> container.withTransformedClasses(List.of(
                        new ClassOutput("elsewhere", "x", foo.bytes(), false),
                        new ClassOutput(foo.source(), "x", foo.bytes(), false))));

        assertEquals("the transformer returned 1 classes for 2 inputs", tooFew.getMessage());
        assertEquals("the transformer returned elsewhere where " + foo.source() + " was expected",
                swapped.getMessage());
    }

    private ClassContainer signedJar() throws ContainerException, IOException {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("META-INF/MANIFEST.MF", bytes("Manifest-Version: 1.0\r\n\r\n"));
        contents.put("META-INF/SIGNER.SF", bytes("Signature-Version: 1.0\r\n\r\n"));
        contents.put("META-INF/SIGNER.RSA", new byte[] {48, -126, 1, 2});
        contents.put("META-INF/OTHER.EC", new byte[] {48, -126, 3, 4});
        contents.put("com/x/Foo.class", TestClasses.plainClass("com/x/Foo"));
        contents.put("com/x/Bar.class", TestClasses.plainClass("com/x/Bar"));
        contents.put("readme.txt", bytes("read me"));
        return ClassContainer.read(TestFiles.writeSimpleJar(temporary.resolve("signed.jar"), contents));
    }

    private static List<String> names(ClassContainer container) {
        return container.entries().stream().map(ContainerEntry::name).collect(Collectors.toList());
    }
}
