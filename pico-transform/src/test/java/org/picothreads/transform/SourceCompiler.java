package org.picothreads.transform;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/** Compiles Java sources given as strings into a directory, for tests that need specific class files. */
public final class SourceCompiler {
    private SourceCompiler() {
    }

    /** Compiles {@code sources} (class name to source text) with --release 17 into {@code output}; returns the class files. */
    public static Map<String, byte[]> compile(Path output, Map<String, String> sources, String... options)
            throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        List<SimpleJavaFileObject> units = new ArrayList<>();
        for (Map.Entry<String, String> source : sources.entrySet()) {
            units.add(new SimpleJavaFileObject(URI.create("string:///" + source.getKey().replace('.', '/') + ".java"),
                    SimpleJavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return source.getValue();
                }
            });
        }
        List<String> arguments = new ArrayList<>(List.of("--release", "17", "-d", output.toString(),
                "-classpath", System.getProperty("java.class.path")));
        arguments.addAll(List.of(options));
        StringWriter diagnostics = new StringWriter();
        if (!compiler.getTask(diagnostics, null, null, arguments, null, units).call()) {
            throw new IllegalStateException("compilation failed:\n" + diagnostics);
        }
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(output)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".class")).sorted().toList()) {
                String name = output.relativize(file).toString().replace('\\', '/');
                classes.put(name.substring(0, name.length() - ".class".length()), Files.readAllBytes(file));
            }
        }
        return classes;
    }

    /** The class files as transformer inputs, in name order. */
    public static List<ClassInput> inputs(Map<String, byte[]> classes) {
        List<ClassInput> inputs = new ArrayList<>();
        classes.forEach((name, bytes) -> inputs.add(new ClassInput(name + ".class", bytes)));
        return inputs;
    }
}
