package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.picothreads.targets.streams.StreamsWithoutSockets;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.io.TestClasses;
import org.picothreads.transform.io.TestFiles;
import org.picothreads.transform.testing.TestClasspath;

/**
 * A program that uses java.io's decorators (the types pico-net stands in for over sockets) without sockets needs
 * only pico-runtime: this module's test class path has no pico-net, so the rewrite keeps the JDK's types; with
 * pico-net's classes on the classpath the same classes are redirected to pico-net.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StreamsWithoutPicoNetTest {
    private static final String TARGET_PACKAGE = "org.picothreads.targets.streams";

    @TempDir
    Path temporary;

    @Test
    void java_io_streams_without_sockets_give_the_same_result_transformed_without_pico_net() throws Exception {
        assertSameResult(StreamsWithoutSockets.class);
    }

    @Test
    void the_rewrite_refers_to_pico_net_only_when_the_classpath_holds_pico_net() throws Exception {
        List<ClassOutput> withoutNet = PicoTransformer.withClasspath(TestClasspath.entries())
                .transform(TestClasspath.classFilesOf(List.of(TARGET_PACKAGE))).classes();
        Path fakeNet = TestFiles.writeTree(temporary.resolve("pico-net"), Map.of(
                "org/picothreads/net/ChannelCalls.class", TestClasses.plainClass("org/picothreads/net/ChannelCalls")));
        List<Path> classpath = new ArrayList<>(TestClasspath.entries());
        classpath.add(fakeNet);
        List<ClassOutput> withNet = PicoTransformer.withClasspath(classpath)
                .transform(TestClasspath.classFilesOf(List.of(TARGET_PACKAGE))).classes();

        for (ClassOutput output : withoutNet) {
            assertFalse(mentions(output, "org/picothreads/net/"), output.className() + " refers to pico-net");
        }
        assertEquals("java/io/BufferedReader", superclassOf(withoutNet, "CountingReader"));
        assertEquals("org/picothreads/net/io/PicoBufferedReader", superclassOf(withNet, "CountingReader"));
        assertTrue(withNet.stream().anyMatch(output -> mentions(output, "org/picothreads/net/io/PicoPrintWriter")));
    }

    private static boolean mentions(ClassOutput output, String text) {
        return new String(output.bytes(), StandardCharsets.ISO_8859_1).contains(text);
    }

    private static String superclassOf(List<ClassOutput> outputs, String simpleName) {
        return outputs.stream().filter(output -> output.className().endsWith("$" + simpleName))
                .map(output -> new ClassReader(output.bytes()).getSuperName()).findFirst().orElseThrow();
    }
}
