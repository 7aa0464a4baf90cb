package org.picothreads.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;

/**
 * Item 6: how fast the transformer rewrites a large real jar, Guava, all its classes in one
 * {@link PicoTransformer#transform} call as the plugin makes it, from bytes already in memory to bytes in
 * memory. Divide the class count ({@link TransformStatistics} prints it with the share of classes that
 * needed rewriting) by the score for classes per second. The baseline only checks each class's marker
 * ({@link PicoTransformer#isTransformed}), the least a pass over the input costs.
 *
 * <p>Each iteration is one whole rewrite. The transformer's code is large and its first rewrites run while HotSpot
 * still compiles it: measured, a JVM's rewrites of Guava took 2.3 s, 1.3 s, 1.2 s, 1.1 s... and levelled off from
 * about the eighteenth. So the warm-up is long enough to measure the steady state; the cold rewrite (JVM start,
 * class loading and compiling included) is what the command line's run on Guava measures.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 20)
@Measurement(iterations = 10)
@Fork(1)
public class TransformerThroughput {

    /** Guava's class files and a transformer that resolves the hierarchy from its jar. */
    @State(Scope.Benchmark)
    public static class Input {
        List<ClassInput> classes;
        PicoTransformer transformer;

        @Setup(Level.Trial)
        public void read() throws TransformException {
            classes = GuavaClasses.read();
            transformer = PicoTransformer.withClasspath(List.of(GuavaClasses.jar()));
        }
    }

    @Benchmark
    public int baseline(Input input) {
        int transformed = 0;
        for (ClassInput in : input.classes) {
            if (PicoTransformer.isTransformed(in.bytes())) {
                transformed++;
            }
        }
        return transformed;
    }

    @Benchmark
    public TransformResult transformGuava(Input input) throws TransformException {
        return input.transformer.transform(input.classes);
    }
}
