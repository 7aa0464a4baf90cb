package org.picothreads.benchmarks.startup;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;

/**
 * What reading, analysing and writing a jar costs any ASM-based rewriter at the least, the reference for the command
 * line's start-up case ({@link ToolStartUp}): reads every entry of INPUT, and, on every processor, parses each class
 * into ASM's tree, runs ASM's {@link Analyzer} with its {@link BasicInterpreter} over every method that has code (the
 * frames any rewriting of a method starts from) and writes the class back with a {@link ClassWriter}; then writes
 * OUTPUT with every entry in INPUT's order, deflated. No whole-program analysis, no plan, no weaving.
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.startup.AsmRoundTrip INPUT.jar OUTPUT.jar
 * </pre>
 *
 * Prints the number of classes it wrote; exits non-zero when a class cannot be read or analysed.
 */
public final class AsmRoundTrip {
    private AsmRoundTrip() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: AsmRoundTrip INPUT.jar OUTPUT.jar");
            System.exit(2);
        }
        System.out.println(roundTrip(Path.of(args[0]), Path.of(args[1])));
    }

    /** Rewrites {@code input} to {@code output} as the class comment says; returns how many classes it wrote. */
    static int roundTrip(Path input, Path output) throws IOException {
        List<String> names = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        try (ZipFile jar = new ZipFile(input.toFile())) {
            for (ZipEntry entry : Collections.list(jar.entries())) {
                names.add(entry.getName());
                try (InputStream in = jar.getInputStream(entry)) {
                    contents.add(in.readAllBytes());
                }
            }
        }
        byte[][] written = new byte[names.size()][];
        IntStream.range(0, names.size()).parallel().forEach(index -> written[index] =
                isClass(names.get(index)) ? analysedAndWritten(names.get(index), contents.get(index))
                        : contents.get(index));
        int classes = 0;
        try (OutputStream file = Files.newOutputStream(output);
                ZipOutputStream jar = new ZipOutputStream(new BufferedOutputStream(file))) {
            for (int index = 0; index < names.size(); index++) {
                jar.putNextEntry(new ZipEntry(names.get(index)));
                jar.write(written[index]);
                jar.closeEntry();
                classes += isClass(names.get(index)) ? 1 : 0;
            }
        }
        return classes;
    }

    private static boolean isClass(String name) {
        return name.endsWith(".class") && !name.endsWith("module-info.class") && !name.startsWith("META-INF/");
    }

    private static byte[] analysedAndWritten(String name, byte[] classFile) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, ClassReader.EXPAND_FRAMES);
        for (MethodNode method : node.methods) {
            if (method.instructions.size() == 0) {
                continue;
            }
            try {
                new Analyzer<>(new BasicInterpreter()).analyze(node.name, method);
            } catch (AnalyzerException e) {
                throw new IllegalStateException(name + ": " + method.name + method.desc + " cannot be analysed", e);
            }
        }
        ClassWriter writer = new ClassWriter(0);
        node.accept(writer);
        return writer.toByteArray();
    }
}
