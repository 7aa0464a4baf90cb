package org.picothreads.transform.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.picothreads.transform.io.TestFiles.bytes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagedOutputTest {
    @TempDir
    Path temporary;

    @Test
    void nothing_appears_at_the_destination_until_the_output_is_committed() throws Exception {
        ClassContainer container = ClassContainer.read(classes());
        Path output = temporary.resolve("out.jar");

        try (StagedOutput staged = StagedOutput.ofContainer(container, output)) {
            assertFalse(Files.exists(output));
            staged.commit();
        }

        assertEquals(List.of("META-INF/MANIFEST.MF", "com/x/Foo.class"), TestFiles.entryNames(output));
        assertEquals(List.of("classes", "out.jar"), TestFiles.listing(temporary));
    }

    @Test
    void committing_replaces_an_existing_jar() throws Exception {
        Path output = Files.writeString(temporary.resolve("out.jar"), "an older jar");

        try (StagedOutput staged = StagedOutput.ofContainer(ClassContainer.read(classes()), output)) {
            staged.commit();
        }

        assertEquals(List.of("META-INF/MANIFEST.MF", "com/x/Foo.class"), TestFiles.entryNames(output));
    }

    @Test
    void an_output_closed_without_commit_leaves_the_destination_as_it_was_and_no_temporary() throws Exception {
        Path jar = Files.writeString(temporary.resolve("out.jar"), "an older jar");
        Path directory = TestFiles.writeTree(temporary.resolve("out"), Map.of("old.txt", bytes("old")));
        ClassContainer container = ClassContainer.read(classes());

        StagedOutput stagedJar = StagedOutput.ofContainer(container, jar);
        StagedOutput stagedDirectory = StagedOutput.ofContainer(container, directory);
        assertEquals(5, TestFiles.listing(temporary).size());
        stagedJar.close();
        stagedDirectory.close();

        assertEquals("an older jar", Files.readString(jar));
        assertEquals(List.of("old.txt"), List.copyOf(TestFiles.readTree(directory).keySet()));
        assertEquals(List.of("classes", "out", "out.jar"), TestFiles.listing(temporary));
    }

    @Test
    void a_directory_output_is_merged_into_an_existing_directory() throws Exception {
        Path output = TestFiles.writeTree(temporary.resolve("out"), Map.of(
                "com/x/Foo.class", bytes("stale"),
                "com/x/Other.class", bytes("kept"),
                "unrelated.txt", bytes("kept too")));

        try (StagedOutput staged = StagedOutput.ofContainer(ClassContainer.read(classes()), output)) {
            staged.commit();
        }

        Map<String, byte[]> files = TestFiles.readTree(output);
        assertEquals(List.of("META-INF/MANIFEST.MF", "com/x/Foo.class", "com/x/Other.class", "unrelated.txt"),
                List.copyOf(files.keySet()));
        assertArrayEquals(TestClasses.plainClass("com/x/Foo"), files.get("com/x/Foo.class"));
        assertArrayEquals(bytes("kept"), files.get("com/x/Other.class"));
        assertEquals(List.of("classes", "out"), TestFiles.listing(temporary));
    }

    @Test
    void a_directory_output_becomes_the_destination_when_nothing_is_there() throws Exception {
        Path output = temporary.resolve("new/deeper/out");

        try (StagedOutput staged = StagedOutput.ofContainer(ClassContainer.read(classes()), output)) {
            staged.commit();
        }

        assertEquals(List.of("META-INF/MANIFEST.MF", "com/x/Foo.class"),
                List.copyOf(TestFiles.readTree(output).keySet()));
        assertEquals(List.of("out"), TestFiles.listing(temporary.resolve("new/deeper")));
    }

    @Test
    void a_file_is_written_in_full_before_it_replaces_the_old_one() throws Exception {
        Path report = Files.writeString(temporary.resolve("report.json"), "old report");

        try (StagedOutput staged = StagedOutput.ofFile(report, bytes("new report"))) {
            assertEquals("old report", Files.readString(report));
            staged.commit();
        }

        assertEquals("new report", Files.readString(report));
        assertEquals(List.of("report.json"), TestFiles.listing(temporary));
    }

    @Test
    void an_output_that_fails_while_being_written_leaves_nothing_behind() throws Exception {
        Path input = TestFiles.writeSimpleJar(temporary.resolve("evil.jar"), Map.of(
                "fine.txt", bytes("fine"),
                "../escaped.txt", bytes("gotcha")));
        Path output = TestFiles.writeTree(temporary.resolve("out"), Map.of("old.txt", bytes("old")));
        ClassContainer container = ClassContainer.read(input);

        assertThrows(ContainerException.class, () -> StagedOutput.ofContainer(container, output));

        assertEquals(List.of("evil.jar", "out"), TestFiles.listing(temporary));
        assertEquals(List.of("old.txt"), List.copyOf(TestFiles.readTree(output).keySet()));
    }

    private Path classes() {
        return TestFiles.writeTree(temporary.resolve("classes"), Map.of(
                "com/x/Foo.class", TestClasses.plainClass("com/x/Foo"),
                "META-INF/MANIFEST.MF", bytes("Manifest-Version: 1.0\r\n\r\n")));
    }
}
