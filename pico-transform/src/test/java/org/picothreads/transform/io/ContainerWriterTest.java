package org.picothreads.transform.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.io.TestFiles.bytes;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.ClassOutput;

class ContainerWriterTest {
    private static final byte[] MANIFEST = bytes("Manifest-Version: 1.0\r\nMain-Class: com.x.Foo\r\n\r\n");

    @TempDir
    Path temporary;

    @Test
    void a_jar_written_from_a_jar_keeps_order_names_comments_timestamps_and_resources() throws Exception {
        Path input = richJar();
        ClassContainer container = ClassContainer.read(input);
        byte[] rewrittenFoo = TestClasses.plainClass("com/x/Rewritten");
        ClassContainer rewritten = container.withTransformedClasses(List.of(
                new ClassOutput(container.classInputs().get(0).source(), "com/x/Foo", rewrittenFoo, true)));
        Path output = temporary.resolve("out.jar");

        ContainerWriter.writeJar(rewritten, output);

        List<ZipEntry> before = TestFiles.entries(input);
        List<ZipEntry> after = TestFiles.entries(output);
        assertEquals(names(before), names(after));
        for (int i = 0; i < before.size(); i++) {
            assertEquals(before.get(i).getTimeLocal(), after.get(i).getTimeLocal(), before.get(i).getName());
            assertEquals(before.get(i).getLastModifiedTime(), after.get(i).getLastModifiedTime());
            assertEquals(before.get(i).getComment(), after.get(i).getComment());
            assertEquals(before.get(i).getMethod(), after.get(i).getMethod());
        }
        Map<String, byte[]> beforeContents = TestFiles.contents(input);
        Map<String, byte[]> afterContents = TestFiles.contents(output);
        for (String name : List.of("META-INF/MANIFEST.MF", "META-INF/", "module-info.class", "com/x/data.bin",
                "com/x/notes.txt")) {
            assertArrayEquals(beforeContents.get(name), afterContents.get(name), name);
        }
        assertArrayEquals(rewrittenFoo, afterContents.get("com/x/Foo.class"));
        try (ZipFile written = new ZipFile(output.toFile())) {
            assertEquals("built for a test", written.getComment());
        }
    }

    @Test
    void a_stored_class_that_is_rewritten_stays_stored_with_its_new_size_and_checksum() throws Exception {
        byte[] original = TestClasses.plainClass("com/x/Foo");
        Map<ZipEntry, byte[]> entries = new LinkedHashMap<>();
        entries.put(TestFiles.storedEntry("com/x/Foo.class", original), original);
        ClassContainer container = ClassContainer.read(TestFiles.writeJar(temporary.resolve("in.jar"), entries));
        byte[] longer = TestClasses.plainClass("com/x/AMuchLongerNameForTheRewrittenClass");
        Path output = temporary.resolve("out.jar");

        ContainerWriter.writeJar(container.withTransformedClasses(List.of(
                new ClassOutput(container.classInputs().get(0).source(), "com/x/Foo", longer, true))), output);

        ZipEntry written = TestFiles.entries(output).get(0);
        assertEquals(ZipEntry.STORED, written.getMethod());
        assertEquals(longer.length, written.getSize());
        assertArrayEquals(longer, TestFiles.contents(output).get("com/x/Foo.class"));
    }

    @Test
    void the_same_directory_gives_byte_identical_jars_whatever_the_file_times() throws Exception {
        Path input = TestFiles.writeTree(temporary.resolve("classes"), Map.of(
                "com/x/Foo.class", TestClasses.plainClass("com/x/Foo"),
                "com/x/Bar.class", TestClasses.plainClass("com/x/Bar"),
                "META-INF/MANIFEST.MF", MANIFEST,
                "app.properties", bytes("name=app\n")));
        Path first = temporary.resolve("first.jar");
        Path second = temporary.resolve("second.jar");

        ContainerWriter.writeJar(ClassContainer.read(input), first);
        Files.setLastModifiedTime(input.resolve("com/x/Foo.class"), FileTime.from(Instant.parse("2001-01-01T00:00:00Z")));
        ContainerWriter.writeJar(ClassContainer.read(input), second);

        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second));
        List<ZipEntry> entries = TestFiles.entries(first);
        assertEquals(List.of("META-INF/MANIFEST.MF", "app.properties", "com/x/Bar.class", "com/x/Foo.class"),
                names(entries));
        for (ZipEntry entry : entries) {
            assertEquals(LocalDateTime.of(1980, 2, 1, 0, 0), entry.getTimeLocal());
            assertNull(entry.getExtra());
        }
    }

    @Test
    void a_jar_written_to_a_directory_becomes_files_and_directories() throws Exception {
        Map<String, byte[]> contents = new LinkedHashMap<>();
        contents.put("META-INF/MANIFEST.MF", MANIFEST);
        contents.put("empty/", new byte[0]);
        contents.put("com/x/Foo.class", TestClasses.plainClass("com/x/Foo"));
        contents.put("module-info.class", TestClasses.moduleInfo("com.x"));
        ClassContainer container = ClassContainer.read(TestFiles.writeSimpleJar(temporary.resolve("in.jar"), contents));
        Path output = temporary.resolve("out");

        ContainerWriter.writeDirectory(container, output);

        Map<String, byte[]> files = TestFiles.readTree(output);
        assertEquals(List.of("META-INF/MANIFEST.MF", "com/x/Foo.class", "module-info.class"),
                List.copyOf(files.keySet()));
        assertArrayEquals(contents.get("module-info.class"), files.get("module-info.class"));
        assertTrue(Files.isDirectory(output.resolve("empty")));
    }

    @Test
    void an_entry_whose_name_leads_outside_the_output_directory_is_refused() throws Exception {
        Path input = TestFiles.writeSimpleJar(temporary.resolve("evil.jar"),
                Map.of("../escaped.txt", bytes("gotcha")));
        Path output = temporary.resolve("out");

        ContainerException failure = assertThrows(ContainerException.class,
                () -> ContainerWriter.writeDirectory(ClassContainer.read(input), output));

        assertEquals("cannot write entry ../escaped.txt of " + input + ": its name leads outside the output directory",
                failure.getMessage());
        assertFalse(Files.exists(temporary.resolve("escaped.txt")));
    }

    /** A jar with a manifest, a directory entry, a module descriptor, a stored resource, comments and times. */
    @Test
    void a_jar_whose_entries_were_compressed_in_parallel_is_byte_for_byte_the_jar_a_zip_stream_writes_alone()
            throws Exception {
        Map<ZipEntry, byte[]> entries = new LinkedHashMap<>();
        entries.put(TestFiles.entry("META-INF/"), new byte[0]);
        entries.put(TestFiles.entry("META-INF/MANIFEST.MF"), MANIFEST);
        StringBuilder large = new StringBuilder();
        Random random = new Random(14);
        while (large.length() < 300_000) {
            large.append("line ").append(random.nextInt(1000)).append(random.nextBoolean() ? " pico\n" : " thread\n");
        }
        entries.put(TestFiles.entry("com/x/large.txt"), bytes(large.toString()));
        byte[] data = {0, 1, 2, (byte) 0xff};
        entries.put(TestFiles.storedEntry("com/x/data.bin", data), data);
        entries.put(TestFiles.entry("com/x/Foo.class"), TestClasses.plainClass("com/x/Foo"));
        entries.put(TestFiles.entry("com/x/empty.txt"), new byte[0]);
        ClassContainer container = ClassContainer.read(
                TestFiles.writeJar(temporary.resolve("in.jar"), entries, "a comment"));
        Path alone = temporary.resolve("alone.jar");
        try (OutputStream file = Files.newOutputStream(alone);
                ZipOutputStream zip = new ZipOutputStream(new BufferedOutputStream(file))) {
            for (ContainerEntry entry : container.entries()) {
                zip.putNextEntry(ContainerWriter.archiveEntryFor(entry));
                zip.write(entry.bytes());
                zip.closeEntry();
            }
            zip.setComment(container.archiveComment());
        }
        Path written = temporary.resolve("written.jar");

        ContainerWriter.writeJar(container, written);

        assertArrayEquals(Files.readAllBytes(alone), Files.readAllBytes(written));
        assertArrayEquals(bytes(large.toString()), TestFiles.contents(written).get("com/x/large.txt"));
    }

    private Path richJar() {
        Map<ZipEntry, byte[]> entries = new LinkedHashMap<>();
        ZipEntry manifest = TestFiles.entry("META-INF/MANIFEST.MF");
        manifest.setTimeLocal(LocalDateTime.of(2019, 12, 31, 23, 59, 58));
        entries.put(TestFiles.entry("META-INF/"), new byte[0]);
        entries.put(manifest, MANIFEST);
        entries.put(TestFiles.entry("module-info.class"), TestClasses.moduleInfo("com.x"));
        ZipEntry foo = TestFiles.entry("com/x/Foo.class");
        foo.setComment("the class to rewrite");
        entries.put(foo, TestClasses.plainClass("com/x/Foo"));
        byte[] data = {0, 1, 2, (byte) 0xff};
        ZipEntry stored = TestFiles.storedEntry("com/x/data.bin", data);
        stored.setComment("stored, not compressed");
        entries.put(stored, data);
        ZipEntry notes = TestFiles.entry("com/x/notes.txt");
        notes.setLastModifiedTime(FileTime.from(Instant.parse("2022-06-07T08:09:10Z")));
        entries.put(notes, bytes("notes with an extended timestamp"));
        return TestFiles.writeJar(temporary.resolve("rich.jar"), entries, "built for a test");
    }

    private static List<String> names(List<ZipEntry> entries) {
        return entries.stream().map(ZipEntry::getName).collect(Collectors.toList());
    }
}
