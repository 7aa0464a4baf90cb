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
 * Item 4: handing control between two threads, {@value #ROUNDS} round trips per invocation, the score per round
 * trip (thread start and join amortized). {@code monitor}: {@code synchronized} with {@code wait}/{@code notify}
 * on a turn flag; {@code synchronousQueue} and {@code arrayBlockingQueue}: a ball sent through one queue and
 * back through another ({@code SynchronousQueue}, {@code ArrayBlockingQueue} of capacity 1). The baseline takes
 * and releases the monitor and notifies twice per round on one thread, without anyone waiting.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class Handoff {

    /** Round trips per invocation. */
    static final int ROUNDS = 10_000;

    /** What the two threads hand over with. */
    @Param({"monitor", "synchronousQueue", "arrayBlockingQueue"})
    public String kind;

    private final Object lock = new Object();
    private int turns;

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int baseline() {
        for (int round = 0; round < 2 * ROUNDS; round++) {
            synchronized (lock) {
                turns++;
                lock.notify();
            }
        }
        return turns;
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    @Fork(value = 2, jvmArgsAppend = "-Dpicothreads.carriers=1")
    public void pico() throws InterruptedException {
        if (kind.equals("monitor")) {
            PicoWorkloads.monitorPingPong(ROUNDS);
        } else {
            PicoWorkloads.queuePingPongOnThreads(kind.equals("synchronousQueue"), ROUNDS);
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    @Fork(value = 2, jvmArgsAppend = {
            "-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1"})
    public void virtualOneCarrier() throws InterruptedException {
        run(Thread.ofVirtual());
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public void platform() throws InterruptedException {
        run(Thread.ofPlatform());
    }

    private void run(Thread.Builder threads) throws InterruptedException {
        if (kind.equals("monitor")) {
            JdkWorkloads.monitorPingPong(threads, ROUNDS);
        } else {
            JdkWorkloads.queuePingPongOnThreads(threads, kind.equals("synchronousQueue"), ROUNDS);
        }
    }
}
