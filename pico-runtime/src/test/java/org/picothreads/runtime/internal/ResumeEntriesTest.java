package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The runtime's own classes that follow the continuation protocol by hand have resume entries the driver can call. */
class ResumeEntriesTest {
    @Test
    void every_hand_written_resume_entry_of_the_runtime_has_the_drivers_descriptor()
            throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(Capture.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> entries = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(path -> path.toString().endsWith(".class"))::iterator) {
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
                Class<?> type = Class.forName(name.substring(0, name.length() - ".class".length()), false,
                        getClass().getClassLoader());
                for (Method method : type.getDeclaredMethods()) {
                    if (method.getName().equals(DispatchFrame.RESUME_ENTRY)) {
                        entries.add(type.getSimpleName());
                        assertEquals(DispatchFrame.RESUME_ENTRY_DESCRIPTOR, MethodType.methodType(method.getReturnType(), method.getParameterTypes())
                                .toMethodDescriptorString(),
                                type.getName());
                        assertTrue(DispatchFrame.hasResumeEntry(type), type.getName());
                    }
                }
            }
        }
        assertFalse(entries.isEmpty(), "the runtime's executors follow the protocol by hand");
    }
}
