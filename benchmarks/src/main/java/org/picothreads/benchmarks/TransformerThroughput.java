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
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
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
