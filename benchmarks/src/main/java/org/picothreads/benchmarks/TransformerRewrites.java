package org.picothreads.benchmarks;

import java.util.List;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformResult;

/**
 * The in-memory rewrite of {@link TransformerThroughput} repeated in one JVM, each rewrite's wall and process CPU time
 * printed, to watch the transformer warm up and to profile its steady state (attach a profiler after the first
 * twenty or so): all of Guava's classes in one {@link PicoTransformer#transform} call per rewrite, each with a
 * transformer of its own, as the plugin makes it.
 *
 * <pre>
 *   java -cp benchmarks.jar org.picothreads.benchmarks.TransformerRewrites REWRITES
 * </pre>
 */
public final class TransformerRewrites {
    private TransformerRewrites() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || !args[0].matches("[1-9][0-9]*")) {
            System.err.println("usage: TransformerRewrites REWRITES");
            System.exit(2);
        }
        int rewrites = Integer.parseInt(args[0]);
        List<ClassInput> classes = GuavaClasses.read();
        for (int rewrite = 0; rewrite < rewrites; rewrite++) {
            PicoTransformer transformer = PicoTransformer.withClasspath(List.of(GuavaClasses.jar()));
            long cpuBefore = ProcessCpuTime.nanos();
            long start = System.nanoTime();
            TransformResult result = transformer.transform(classes);
            long wallMillis = (System.nanoTime() - start) / 1_000_000;
            long cpuMillis = (ProcessCpuTime.nanos() - cpuBefore) / 1_000_000;
            System.out.println("rewrite " + rewrite + " wall_ms " + wallMillis + " cpu_ms " + cpuMillis + " classes "
                    + result.classes().size());
        }
    }
}
