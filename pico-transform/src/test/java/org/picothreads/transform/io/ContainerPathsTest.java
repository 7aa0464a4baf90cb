package org.picothreads.transform.io;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerPathsTest {
    @TempDir
    Path temporary;

    @Test
    void an_output_that_is_the_input_under_another_spelling_is_refused() throws Exception {
        Path input = Files.createDirectory(temporary.resolve("classes"));
        Path sameInput = temporary.resolve("classes/../classes/.");

        ContainerException failure = assertThrows(ContainerException.class,
                () -> ContainerPaths.requireSeparate(input, sameInput));

        assertEquals("output is the same as the input: " + sameInput, failure.getMessage());
    }

    @Test
    void an_output_that_reaches_the_input_through_a_link_is_refused() throws Exception {
        Path input = Files.createDirectory(temporary.resolve("classes"));
        Path link = Files.createSymbolicLink(temporary.resolve("link"), input);

        assertThrows(ContainerException.class, () -> ContainerPaths.requireSeparate(input, link));
        assertThrows(ContainerException.class, () -> ContainerPaths.requireSeparate(input, link.resolve("out")));
    }

    @Test
    void an_output_inside_the_input_is_refused() throws Exception {
        Path input = Files.createDirectory(temporary.resolve("classes"));
        Path output = input.resolve("transformed/out.jar");

        ContainerException failure = assertThrows(ContainerException.class,
                () -> ContainerPaths.requireSeparate(input, output));

        assertEquals("output " + output + " is inside the input " + input, failure.getMessage());
    }

    @Test
    void an_input_inside_the_output_is_refused() throws Exception {
        Path output = Files.createDirectory(temporary.resolve("build"));
        Path input = Files.createFile(output.resolve("app.jar"));

        ContainerException failure = assertThrows(ContainerException.class,
                () -> ContainerPaths.requireSeparate(input, output));

        assertEquals("input " + input + " is inside the output " + output, failure.getMessage());
    }

    @Test
    void siblings_whose_names_share_a_prefix_are_separate() throws Exception {
        Path input = Files.createDirectory(temporary.resolve("classes"));

        assertDoesNotThrow(() -> ContainerPaths.requireSeparate(input, temporary.resolve("classes-out")));
        assertDoesNotThrow(() -> ContainerPaths.requireSeparate(input, temporary.resolve("classes.jar")));
    }

    @Test
    void two_spellings_of_a_file_that_does_not_exist_yet_are_the_same_file() throws Exception {
        assertTrue(ContainerPaths.sameFile(temporary.resolve("a/b/report.json"),
                temporary.resolve("a/./c/../b/report.json")));
        assertFalse(ContainerPaths.sameFile(temporary.resolve("report.json"), temporary.resolve("out.jar")));
    }
}
