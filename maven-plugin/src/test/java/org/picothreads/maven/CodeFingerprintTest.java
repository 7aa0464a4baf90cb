package org.picothreads.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin's own code is part of its incremental state: a snapshot of the plugin rebuilt with a changed transformer
 * keeps its version, and the classes it rewrote before must be rewritten again.
 */
class CodeFingerprintTest {
    @TempDir
    Path directory;

    @Test
    void the_fingerprint_of_the_same_jars_is_the_same_and_changes_with_any_byte_of_them() throws Exception {
        Path transformer = Files.write(directory.resolve("pico-transform.jar"), new byte[] {1, 2, 3});
        Path plugin = Files.write(directory.resolve("pico-maven-plugin.jar"), new byte[] {4, 5});
        String before = AbstractTransformMojo.codeFingerprint(List.of(transformer, plugin));

        assertEquals(before, AbstractTransformMojo.codeFingerprint(List.of(transformer, plugin)));
        Files.write(transformer, new byte[] {1, 2, 4});
        assertNotEquals(before, AbstractTransformMojo.codeFingerprint(List.of(transformer, plugin)));
    }

    @Test
    void the_fingerprint_of_a_classes_directory_changes_with_a_class_in_it() throws Exception {
        Path classes = Files.createDirectories(directory.resolve("classes/org/example"));
        Path rewriter = Files.write(classes.resolve("Rewriter.class"), new byte[] {7});
        Path root = directory.resolve("classes");
        String before = AbstractTransformMojo.codeFingerprint(List.of(root));

        Files.write(rewriter, new byte[] {8});
        assertNotEquals(before, AbstractTransformMojo.codeFingerprint(List.of(root)));
        Files.write(classes.resolve("Added.class"), new byte[] {8});
        assertNotEquals(AbstractTransformMojo.codeFingerprint(List.of(rewriter)),
                AbstractTransformMojo.codeFingerprint(List.of(root)));
    }
}
