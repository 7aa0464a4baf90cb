package org.picothreads.benchmarks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformResult;

/**
 * Prints, as one line of JSON, what the transformer does to Guava: how many classes it read, how many it
 * rewrote and the bytes before and after. {@code benchmarks/run.sh} puts it beside {@link TransformerThroughput}.
 */
public final class TransformStatistics {

    private TransformStatistics() {
    }

    public static void main(String[] args) throws Exception {
        List<ClassInput> classes = GuavaClasses.read();
        TransformResult result = PicoTransformer.withClasspath(List.of(GuavaClasses.jar())).transform(classes);
        long bytesIn = classes.stream().mapToLong(in -> in.bytes().length).sum();
        long bytesOut = result.classes().stream().mapToLong(out -> out.bytes().length).sum();
        long changed = result.classes().stream().filter(ClassOutput::changed).count();
        Map<String, Integer> sizeBySource = new HashMap<>();
        classes.forEach(in -> sizeBySource.put(in.source(), in.bytes().length));
        long changedBytesIn = result.classes().stream().filter(ClassOutput::changed)
                .mapToLong(out -> sizeBySource.getOrDefault(out.source(), 0)).sum();
        System.out.printf("{\"jar\": \"%s\", \"classes\": %d, \"rewritten\": %d, \"bytesIn\": %d, \"bytesOut\": %d,"
                + " \"rewrittenBytesIn\": %d}%n", GuavaClasses.jar().getFileName(), classes.size(), changed, bytesIn,
                bytesOut, changedBytesIn);
    }
}
