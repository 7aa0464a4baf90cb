package org.picothreads.transform.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerKindTest {
    @TempDir
    Path temporary;

    @Test
    void an_input_is_a_directory_or_a_file_named_or_shaped_like_a_jar() throws Exception {
        Path directory = Files.createDirectory(temporary.resolve("classes.jar"));
        Path jar = TestFiles.writeSimpleJar(temporary.resolve("app.jar"), Map.of("a.txt", TestFiles.bytes("a")));
        Path zipWithOtherName = Files.copy(jar, temporary.resolve("app.war"));
        Path emptyFileNamedZip = Files.createFile(temporary.resolve("empty.ZIP"));

        assertEquals(ContainerKind.DIRECTORY, ContainerKind.ofInput(directory));
        assertEquals(ContainerKind.JAR, ContainerKind.ofInput(jar));
        assertEquals(ContainerKind.JAR, ContainerKind.ofInput(zipWithOtherName));
        assertEquals(ContainerKind.JAR, ContainerKind.ofInput(emptyFileNamedZip));
    }

    @Test
    void a_class_file_given_as_input_is_neither_a_directory_nor_a_jar() throws Exception {
        Path classFile = Files.write(temporary.resolve("Foo.class"), TestClasses.plainClass("Foo"));

        ContainerException failure = assertThrows(ContainerException.class, () -> ContainerKind.ofInput(classFile));

        assertEquals("input is neither a directory nor a jar or zip file: " + classFile, failure.getMessage());
    }

    @Test
    void an_output_is_what_exists_there_or_else_a_jar_when_named_so() throws Exception {
        Path existingDirectory = Files.createDirectory(temporary.resolve("out.jar"));
        Path existingFile = Files.createFile(temporary.resolve("out"));

        assertEquals(ContainerKind.DIRECTORY, ContainerKind.ofOutput(existingDirectory));
        assertEquals(ContainerKind.JAR, ContainerKind.ofOutput(existingFile));
        assertEquals(ContainerKind.JAR, ContainerKind.ofOutput(temporary.resolve("new.jar")));
        assertEquals(ContainerKind.JAR, ContainerKind.ofOutput(temporary.resolve("new.Zip")));
        assertEquals(ContainerKind.DIRECTORY, ContainerKind.ofOutput(temporary.resolve("new-classes")));
    }
}
