package org.picothreads.transform.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Keeps HotSpot's optimizing compiler (C2) out of the command's own process: a run is over before the code C2
 * compiles repays the compiling, which took half of the processor time on Guava, so the quick compiler (C1) alone
 * compiles the transformer there. Only for a process that runs nothing else, never for the agent or the plugin.
 */
final class ShortRunCompilation {
    /**
     * From this many input classes on, the compiler directive is added: below it, loading the JVM's management
     * classes to add it costs about as much as C2 would.
     */
    static final int SMALLEST_INPUT = 32;
    private static final String DIRECTIVE = "[{match: \"*.*\", c2: {Exclude: true}}]";
    private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

    private ShortRunCompilation() {
    }

    /**
     * Adds the compiler directive that excludes every method from C2, through HotSpot's diagnostic command
     * {@code Compiler.directives_add}, and returns whether the JVM added it; a JVM without that command compiles as
     * it always does.
     */
    static boolean apply() {
        try {
            Path directives = Files.createTempFile("pico-transform-compiler", ".json");
            try {
                Files.writeString(directives, DIRECTIVE);
                Object answer = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(DIAGNOSTIC_COMMAND),
                        "compilerDirectivesAdd", new Object[] {new String[] {directives.toString()}},
                        new String[] {String[].class.getName()});
                return String.valueOf(answer).startsWith("1 ");
            } finally {
                Files.deleteIfExists(directives);
            }
        } catch (IOException | JMException | RuntimeException | LinkageError unavailable) {
            // Not HotSpot, or no jdk.management module: the run is the same, only its compiling differs.
            return false;
        }
    }
}
