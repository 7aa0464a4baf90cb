package org.picothreads.benchmarks;

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

/**
 * Item 1: the cost of the rewrite on code that never suspends. Each workload runs from a copy loaded as javac
 * wrote it (the baseline, {@code *Untransformed}) and from a copy rewritten by the transformer
 * ({@code *Transformed}), on the JMH thread, a platform thread: rewritten code that is not on a PicoThread runs
 * its normal path, which is also the path of a PicoThread that does not block. Target: within 3%.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class CallOverhead {

    /** The two copies of the workload and its inputs. */
    @State(Scope.Benchmark)
    public static class Workloads {
        CallHeavy untransformed;
        CallHeavy transformed;
        int fibArgument = 25;
        int calls = 100_000;

        @Setup(Level.Trial)
        public void load() {
            untransformed = WorkloadLoader.load(false);
            transformed = WorkloadLoader.load(true);
            untransformed.buildTree(14);
            transformed.buildTree(14);
        }
    }

    @Benchmark
    public int fibUntransformed(Workloads workloads) {
        return workloads.untransformed.fib(workloads.fibArgument);
    }

    @Benchmark
    public int fibTransformed(Workloads workloads) {
        return workloads.transformed.fib(workloads.fibArgument);
    }

    @Benchmark
    public long treeWalkUntransformed(Workloads workloads) {
        return workloads.untransformed.walkTree();
    }

    @Benchmark
    public long treeWalkTransformed(Workloads workloads) {
        return workloads.transformed.walkTree();
    }

    @Benchmark
    public long smallCallsUntransformed(Workloads workloads) {
        return workloads.untransformed.smallCalls(workloads.calls);
    }

    @Benchmark
    public long smallCallsTransformed(Workloads workloads) {
        return workloads.transformed.smallCalls(workloads.calls);
    }
}
