package org.picothreads.transform.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.picothreads.transform.internal.analysis.MethodPlan;

/** The packages depend one way: the analysis that plans never refers to the emission that follows the plan. */
class PackageDependenciesTest {
    @Test
    void no_class_of_the_analysis_package_refers_to_the_emit_package() throws IOException, URISyntaxException {
        Path classes = Path.of(MethodPlan.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path analysis = classes.resolve("org/picothreads/transform/internal/analysis");
        List<Path> classFiles;
        try (Stream<Path> files = Files.list(analysis)) {
            classFiles = files.filter(file -> file.toString().endsWith(".class")).sorted().toList();
        }
        assertTrue(classFiles.size() > 10, "the analysis package's classes were not found in " + analysis);
        List<String> referring = classFiles.stream()
                .filter(file -> constantPoolText(file).contains("org/picothreads/transform/internal/emit/"))
                .map(file -> file.getFileName().toString())
                .toList();
        assertEquals(List.of(), referring);
    }

    /** The class file's bytes as text: its constant pool's names appear in it as they are (ASCII). */
    private static String constantPoolText(Path classFile) {
        try {
            return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
        } catch (IOException exception) {
            throw new AssertionError(exception);
        }
    }
}
