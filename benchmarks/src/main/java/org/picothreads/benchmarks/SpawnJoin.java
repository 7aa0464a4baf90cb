package org.picothreads.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.picothreads.benchmarks.jdk.JdkWorkloads;
import org.picothreads.benchmarks.pico.PicoWorkloads;

/**
 * Item 3: spawning, running and joining trivial threads. A parent thread of the runtime under test starts
 * {@value #CHILDREN} threads with an empty body and joins them; the score is per child. The baseline runs the
 * empty body on the calling thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SpawnJoin {

    /** Threads started per invocation. */
    static final int CHILDREN = 1_000;

    @Benchmark
    @OperationsPerInvocation(CHILDREN)
    public void baseline(Blackhole blackhole) {
        Runnable task = () -> { };
        for (int index = 0; index < CHILDREN; index++) {
            task.run();
            blackhole.consume(task);
        }
    }

    @Benchmark
    @OperationsPerInvocation(CHILDREN)
    public void pico() throws InterruptedException {
        PicoWorkloads.spawnAndJoin(CHILDREN);
    }

    @Benchmark
    @OperationsPerInvocation(CHILDREN)
    public void virtual() throws InterruptedException {
        JdkWorkloads.spawnAndJoin(Thread.ofVirtual(), CHILDREN);
    }

    @Benchmark
    @OperationsPerInvocation(CHILDREN)
    @Fork(value = 2, jvmArgsAppend = {
            "-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1"})
    public void virtualOneCarrier() throws InterruptedException {
        JdkWorkloads.spawnAndJoin(Thread.ofVirtual(), CHILDREN);
    }

    @Benchmark
    @OperationsPerInvocation(CHILDREN)
    public void platform() throws InterruptedException {
        JdkWorkloads.spawnAndJoin(Thread.ofPlatform(), CHILDREN);
    }
}
