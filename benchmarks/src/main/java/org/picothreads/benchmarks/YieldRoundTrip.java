package org.picothreads.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.picothreads.benchmarks.jdk.JdkWorkloads;
import org.picothreads.benchmarks.pico.PicoWorkloads;

/**
 * Item 2: suspend and resume round trips. Two threads each descend {@code depth} frames and call
 * {@code Thread.yield()} {@value #ROUNDS} times at the bottom; one round trip is one yield of each thread, so
 * two suspensions and two resumptions, each capturing and restoring {@code depth} frames on PicoThreads. The
 * score is the time per round trip, thread start and join included (amortized over {@value #ROUNDS}).
 *
 * <p>Virtual threads run on one carrier ({@code jdk.virtualThreadScheduler.parallelism=1}), as PicoThreads do.
 * Platform threads are two OS threads on however many cores there are: their yield is {@code sched_yield}, not a
 * handoff, so their number is the cost of the call, not of a switch. The baseline descends and loops on the
 * calling thread, calling nothing. Target: at depth 10, PicoThreads no slower than virtual threads.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class YieldRoundTrip {

    /** Yields per thread per invocation. */
    static final int ROUNDS = 10_000;

    /** Frames of recursion above each yield. */
    @Param({"1", "10", "50", "200"})
    public int depth;

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int baseline() {
        return descend(depth);
    }

    private static int descend(int depth) {
        if (depth > 1) {
            return descend(depth - 1) + 1;
        }
        int sum = 0;
        for (int round = 0; round < ROUNDS; round++) {
            sum += round;
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    @Fork(value = 2, jvmArgsAppend = "-Dpicothreads.carriers=1")
    public void pico() throws InterruptedException {
        PicoWorkloads.yieldPingPong(depth, ROUNDS);
    }

    /** PicoThreads without the walk over the stack that checks every frame was rewritten before a capture. */
    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    @Fork(value = 2, jvmArgsAppend = {"-Dpicothreads.checkFrames=false", "-Dpicothreads.carriers=1"})
    public void picoWithoutFrameCheck() throws InterruptedException {
        PicoWorkloads.yieldPingPong(depth, ROUNDS);
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    @Fork(value = 2, jvmArgsAppend = {
            "-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1"})
    public void virtualOneCarrier() throws InterruptedException {
        JdkWorkloads.yieldPingPong(Thread.ofVirtual(), depth, ROUNDS);
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public void platform() throws InterruptedException {
        JdkWorkloads.yieldPingPong(Thread.ofPlatform(), depth, ROUNDS);
    }
}
