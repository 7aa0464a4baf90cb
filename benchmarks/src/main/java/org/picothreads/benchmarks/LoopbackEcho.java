package org.picothreads.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.picothreads.benchmarks.jdk.JdkEcho;
import org.picothreads.benchmarks.pico.PicoEcho;

/**
 * Item 5: loopback echo, thread per connection. One invocation is a whole echo run in this JVM: a server socket
 * on 127.0.0.1 with an accept loop starting one thread per connection, and {@code connections} client threads
 * that each connect and make {@code rounds} round trips of a {@value PicoEcho#MESSAGE_SIZE}-byte message; the
 * score is milliseconds per run (messages per second = connections × rounds / run time). Server and clients share
 * the process, so a run holds two descriptors per connection: with {@code ulimit -n} 20,000 the largest size is
 * 5,000 connections, not the 10,000 of the issue. PicoThreads and virtual threads run on the default number of
 * carriers (one per core) and on one carrier each, which compares the cost per core without the machine's sharing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@State(Scope.Benchmark)
public class LoopbackEcho {

    /** Client connections (and server threads) per run. */
    @Param({"1000", "5000"})
    public int connections;

    /** Round trips per connection. */
    @Param({"100"})
    public int rounds;

    @Benchmark
    public void pico() throws InterruptedException {
        PicoEcho.run(connections, rounds);
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = "-Dpicothreads.carriers=1")
    public void picoOneCarrier() throws InterruptedException {
        PicoEcho.run(connections, rounds);
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = {
            "-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1"})
    public void virtualOneCarrier() throws InterruptedException {
        JdkEcho.run(Thread.ofVirtual(), connections, rounds);
    }

    @Benchmark
    public void virtual() throws InterruptedException {
        JdkEcho.run(Thread.ofVirtual(), connections, rounds);
    }

    @Benchmark
    public void platform() throws InterruptedException {
        JdkEcho.run(Thread.ofPlatform(), connections, rounds);
    }
}
