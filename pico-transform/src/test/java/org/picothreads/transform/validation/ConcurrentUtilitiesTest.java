package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.targets.concurrent.BlockingQueues;
import org.picothreads.targets.concurrent.ExchangersAndPhasers;
import org.picothreads.targets.concurrent.FuturesAndExecutors;
import org.picothreads.targets.concurrent.HundredThousandLatchCounters;
import org.picothreads.targets.concurrent.LatchesAndBarriers;
import org.picothreads.targets.concurrent.ParkingAndSleeping;
import org.picothreads.targets.concurrent.PoolTasksBlockingAtTheirStart;
import org.picothreads.targets.concurrent.ScheduledExecutors;
import org.picothreads.targets.concurrent.SemaphoresAndLocks;
import org.picothreads.targets.concurrent.StampedLocks;
import org.picothreads.targets.concurrent.TransferQueues;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.testing.GeneratedClassLoader;
import org.picothreads.transform.testing.RuntimeStatistics;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;

/**
 * java.util.concurrent from plain thread code: every blocking call suspends only its PicoThread, and platform
 * threads (the JUnit thread running each target) share the same objects in both directions.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ConcurrentUtilitiesTest {

    @Test
    void latches_and_barriers_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(LatchesAndBarriers.class);
    }

    @Test
    void exchangers_and_phasers_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(ExchangersAndPhasers.class);
    }

    @Test
    void semaphores_locks_conditions_and_read_write_locks_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(SemaphoresAndLocks.class);
    }

    @Test
    void pool_tasks_blocking_at_their_start_give_the_same_result_and_their_first_captures_need_no_walk()
            throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(PoolTasksBlockingAtTheirStart.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // Each task blocks at its start; run through its run() or call(), each first capture would walk the stack.
        // Entered fresh by the worker (or by the wrapper of a submitted Runnable, or the future of a Callable, a lambda
        // or an object of a Callable class), none does but the workers' own first captures, the main thread's and the
        // direct run's.
        int tasks = PoolTasksBlockingAtTheirStart.TASKS + 3 * PoolTasksBlockingAtTheirStart.SUBMITTED;
        assertTrue(during.suspensions() >= tasks, during::toString);
        assertTrue(during.framesChecked() * 6 < tasks, during::toString);
    }

    @Test
    void every_blocking_queue_gives_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(BlockingQueues.class);
    }

    @Test
    void linked_transfer_queues_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(TransferQueues.class);
    }

    @Test
    void stamped_locks_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(StampedLocks.class);
    }

    @Test
    void executors_and_futures_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(FuturesAndExecutors.class);
    }

    @Test
    void scheduled_executors_run_delayed_and_periodic_tasks_on_suspending_workers_as_the_jdk_does() throws Exception {
        assertSameResult(ScheduledExecutors.class);
    }

    @Test
    void lock_support_and_time_unit_sleep_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(ParkingAndSleeping.class);
    }

    @Test
    void a_hundred_thousand_threads_counting_down_one_latch_run_on_the_carrier_and_a_handful_of_platform_threads()
            throws Exception {
        Class<?> transformed = TransformingClassLoader.forPackages(HundredThousandLatchCounters.class.getPackageName() + ".")
                .transformedCopyOf(HundredThousandLatchCounters.class);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int liveBefore = threads.getThreadCount();
        threads.resetPeakThreadCount();
        RuntimeStatistics before = RuntimeStatistics.now();

        String result = TargetRunner.run(transformed);

        RuntimeStatistics growth = RuntimeStatistics.now().since(before);
        int peakGrowth = threads.getPeakThreadCount() - liveBefore;
        long expectedSum = (long) HundredThousandLatchCounters.THREADS * (HundredThousandLatchCounters.THREADS - 1) / 2;
        assertEquals("threads 100000, count 0, sum " + expectedSum, result);
        assertEquals(HundredThousandLatchCounters.THREADS, growth.threadsStarted());
        assertTrue(growth.suspensions() >= HundredThousandLatchCounters.THREADS, growth::toString);
        assertEquals(0, growth.pinnedBlocks(), growth::toString);
        assertTrue(peakGrowth <= 5, "platform threads grew by " + peakGrowth + " at the peak");
    }

    @Test
    void jdk_21_thread_builders_thread_per_task_executors_and_sleep_with_a_duration_give_the_same_result(
            @TempDir Path classes) throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "needs JDK 21");
        Map<String, byte[]> compiled = compileForJava21(classes, JDK21_TARGET, JDK21_SOURCE);
        List<ClassInput> inputs = new ArrayList<>();
        compiled.forEach((name, bytes) -> inputs.add(new ClassInput("compiled by the test: " + name, bytes)));
        Class<?> plain = new GeneratedClassLoader(compiled).loadClass(JDK21_TARGET);
        Class<?> transformed = TransformingClassLoader.forClasses(List.of("jdk21target."), inputs)
                .loadClass(JDK21_TARGET);

        assertEquals("""
                builder: named-0 named-1 true, joined 2
                factory: fac-5 fac-6, ran 2
                platform builder: plat false 7 ran
                started virtual thread: true ran
                thread per task: 10 terminated true
                virtual per task: 21 terminated true
                slept with a duration""", TargetRunner.run(plain));
        assertSameResult(plain, transformed);
    }

    private static final String JDK21_TARGET = "jdk21target.Builders";

    private static final String JDK21_SOURCE = """
            package jdk21target;

            import java.time.Duration;
            import java.util.ArrayList;
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.Future;
            import java.util.concurrent.ThreadFactory;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.atomic.AtomicInteger;

            public final class Builders {
                public static String run() throws Exception {
                    StringBuilder log = new StringBuilder();
                    List<String> names = new ArrayList<>();
                    Thread.Builder.OfVirtual builder = Thread.ofVirtual().name("named-", 0);
                    AtomicInteger joined = new AtomicInteger();
                    Thread first = builder.start(() -> { sleep(2); joined.incrementAndGet(); });
                    Thread second = builder.unstarted(() -> { sleep(1); joined.incrementAndGet(); });
                    second.start();
                    first.join();
                    second.join();
                    log.append("builder: ").append(first.getName()).append(' ').append(second.getName()).append(' ')
                            .append(first.isDaemon()).append(", joined ").append(joined.get());

                    ThreadFactory factory = Thread.ofVirtual().name("fac-", 5).factory();
                    AtomicInteger ran = new AtomicInteger();
                    Thread made = factory.newThread(() -> { sleep(1); ran.incrementAndGet(); });
                    Thread madeToo = factory.newThread(() -> { sleep(1); ran.incrementAndGet(); });
                    made.start();
                    madeToo.start();
                    made.join();
                    madeToo.join();
                    log.append("\\nfactory: ").append(made.getName()).append(' ').append(madeToo.getName())
                            .append(", ran ").append(ran.get());

                    StringBuilder platform = new StringBuilder();
                    Thread platformThread = Thread.ofPlatform().name("plat").daemon(false).priority(7)
                            .start(() -> { sleep(1); platform.append("ran"); });
                    platformThread.join();
                    log.append("\\nplatform builder: ").append(platformThread.getName()).append(' ')
                            .append(platformThread.isDaemon()).append(' ').append(platformThread.getPriority())
                            .append(' ').append(platform);

                    StringBuilder started = new StringBuilder();
                    Thread virtual = Thread.startVirtualThread(() -> { sleep(1); started.append("ran"); });
                    virtual.join();
                    log.append("\\nstarted virtual thread: ").append(virtual.isDaemon()).append(' ').append(started);

                    ExecutorService perTask = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
                    List<Future<Integer>> futures = new ArrayList<>();
                    for (int index = 1; index <= 4; index++) {
                        int value = index;
                        futures.add(perTask.submit(() -> { Thread.sleep(value); return value; }));
                    }
                    int sum = 0;
                    for (Future<Integer> future : futures) {
                        sum += future.get();
                    }
                    perTask.close();
                    log.append("\\nthread per task: ").append(sum).append(" terminated ").append(perTask.isTerminated());

                    int total;
                    try (ExecutorService virtualPerTask = Executors.newVirtualThreadPerTaskExecutor()) {
                        List<Future<Integer>> more = new ArrayList<>();
                        for (int index = 1; index <= 6; index++) {
                            int value = index;
                            more.add(virtualPerTask.submit(() -> { Thread.sleep(7 - value); return value; }));
                        }
                        total = 0;
                        for (Future<Integer> future : more) {
                            total += future.get();
                        }
                        virtualPerTask.shutdown();
                        virtualPerTask.awaitTermination(1, TimeUnit.MINUTES);
                        log.append("\\nvirtual per task: ").append(total).append(" terminated ")
                                .append(virtualPerTask.isTerminated());
                    }

                    Thread sleeper = new Thread(() -> {
                        try {
                            Thread.sleep(Duration.ofMillis(3));
                            TimeUnit.MILLISECONDS.sleep(1);
                        } catch (InterruptedException exception) {
                            throw new IllegalStateException(exception);
                        }
                    });
                    sleeper.start();
                    sleeper.join();
                    log.append("\\nslept with a duration");
                    return log.toString();
                }

                private static void sleep(long millis) {
                    try {
                        Thread.sleep(millis);
                    } catch (InterruptedException exception) {
                        throw new IllegalStateException(exception);
                    }
                }
            }
            """;

    /** Compiles one source with --release 21; returns its class files by binary name. */
    private static Map<String, byte[]> compileForJava21(Path output, String className, String source)
            throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        SimpleJavaFileObject unit = new SimpleJavaFileObject(
                URI.create("string:///" + className.replace('.', '/') + ".java"), SimpleJavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        StringWriter diagnostics = new StringWriter();
        boolean compiled = compiler.getTask(diagnostics, null, null,
                List.of("--release", "21", "-d", output.toString()), null, List.of(unit)).call();
        assertTrue(compiled, () -> "compilation failed:\n" + diagnostics);
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(output)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".class")).sorted().toList()) {
                String name = output.relativize(file).toString().replace('\\', '/');
                classes.put(name.substring(0, name.length() - ".class".length()).replace('/', '.'),
                        Files.readAllBytes(file));
            }
        }
        return classes;
    }
}
