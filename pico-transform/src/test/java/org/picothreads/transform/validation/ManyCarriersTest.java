package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.carriers.BusySpinOnVolatileFlag;
import org.picothreads.targets.carriers.CallbackMonitorExclusion;
import org.picothreads.targets.carriers.CompletableFutureJoinOnFixedPool;
import org.picothreads.targets.carriers.ComputeIfAbsentOnOneKey;
import org.picothreads.targets.carriers.ConstructorMonitorExclusion;
import org.picothreads.targets.carriers.HundredForEachSleepers;
import org.picothreads.targets.carriers.ObjectStreamExchanges;
import org.picothreads.targets.carriers.ReflectiveStaticSynchronized;
import org.picothreads.targets.carriers.SlowClassInitializer;
import org.picothreads.targets.carriers.SpinWaitUntilFlag;
import org.picothreads.targets.carriers.ThousandForEachSleepers;
import org.picothreads.targets.carriers.ThreadPoolExecutorWithProgramFactory;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;
import org.picothreads.transform.testing.ValidationAssertions;

/**
 * Threads that must block where they cannot be captured (in a constructor, a class initializer, a JDK callback,
 * reflection, ObjectInputStream, a JDK pool's worker loop) while other threads go on, and threads that spin: each
 * target gives the result worked out for it on platform threads, and the same result rewritten, with the JVM's
 * monitor and class-initialization semantics intact.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ManyCarriersTest {
    /** The wall time within which a hundred or a thousand threads sleeping 3 x 100 ms inside forEach finish. */
    private static final long FOR_EACH_SLEEPERS_LIMIT_MILLIS = 2_000;

    @Test
    void a_constructor_sleeping_inside_synchronized_excludes_every_other_thread_from_the_region() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(ConstructorMonitorExclusion.class,
                "objects 24, counter 24, value sum 864, entries that found another thread inside 0");
    }

    @Test
    void a_synchronized_block_sleeping_inside_forEach_excludes_every_other_thread_from_the_region() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(CallbackMonitorExclusion.class,
                "counter 24 of 24, step sum 144, entries that found another thread inside 0");
    }

    @Test
    void compute_if_absent_with_a_sleeping_mapping_runs_it_once_for_two_threads_on_one_key() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(ComputeIfAbsentOnOneKey.class,
                "thread 0 got 42; thread 1 got 42; the mapping function ran 1 time(s); map {key=42}");
    }

    @Test
    void a_class_initializer_that_sleeps_is_seen_complete_by_both_threads_that_first_use_it() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(SlowClassInitializer.class, "thread 0 read 42, thread 1 read 42");
    }

    @Test
    void two_reflective_calls_of_a_sleeping_static_synchronized_method_both_complete() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(ReflectiveStaticSynchronized.class,
                "calls completed 2, total 3, the later call returned 3");
    }

    @Test
    void two_object_stream_exchanges_complete_when_the_first_reply_is_needed_by_the_second() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(ObjectStreamExchanges.class, """
                client 1 got pong 1 for ping 1
                client 2 got pong 2 for ping 2
                server 1 answered ping 1
                server 2 answered ping 2""");
    }

    @Test
    void a_completable_future_stage_joining_another_on_a_fixed_pool_of_two_completes() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(CompletableFutureJoinOnFixedPool.class, """
                round 0: outer stage completed with 42
                round 1: outer stage completed with 142
                round 2: outer stage completed with 242
                pool terminated true""");
    }

    @Test
    void a_thread_pool_executor_with_a_program_thread_factory_returns_results_and_terminates() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(ThreadPoolExecutorWithProgramFactory.class,
                "sum of squares 91, terminated true, threads made by the factory 2");
    }

    @Test
    void a_hundred_threads_sleeping_three_times_inside_forEach_all_finish_within_two_seconds() throws Exception {
        assertFinishesRewrittenWithin(FOR_EACH_SLEEPERS_LIMIT_MILLIS, HundredForEachSleepers.class,
                "100 threads, 100 finished all three sleeps, 300 sleeps in all, 0 skipped after 15 s");
    }

    @Test
    void a_thousand_threads_sleeping_three_times_inside_forEach_all_finish_within_two_seconds() throws Exception {
        assertFinishesRewrittenWithin(FOR_EACH_SLEEPERS_LIMIT_MILLIS, ThousandForEachSleepers.class,
                "1000 threads, 1000 finished all three sleeps, 3000 sleeps in all, 0 skipped after 15 s");
    }

    @Test
    void a_thread_spinning_with_on_spin_wait_sees_the_flag_another_thread_sets() throws Exception {
        assertGivenOnPlatformThreadsAndRewritten(SpinWaitUntilFlag.class, "the spinner saw 333383335000");
    }

    @Test
    void threads_spinning_without_on_spin_wait_progress_with_two_or_more_carriers() throws Exception {
        assumeTrue(configuredCarriers() >= 2,
                "a spin that never blocks holds its only carrier: this needs two or more carriers");
        assertGivenOnPlatformThreadsAndRewritten(BusySpinOnVolatileFlag.class,
                "the spinner saw 333383335000; the waiter was signalled, the signaller signalled");
    }

    /**
     * Runs a target as compiled and asserts that it gives {@code expected} on platform threads, then asserts that its
     * rewritten run gives the same, blocking for real where it cannot be captured.
     */
    static void assertGivenOnPlatformThreadsAndRewritten(Class<?> target, String expected) throws Exception {
        ValidationAssertions.assertSameResult(target.getName(),
                () -> resultOnPlatformThreads(target, expected),
                () -> TargetRunner.runTransformed(target),
                ValidationAssertions.Pinning.ALLOWED);
    }

    /**
     * Like {@link #assertGivenOnPlatformThreadsAndRewritten}, and the rewritten run (transformed beforehand, so that
     * only the run is timed) takes less than {@code limitMillis} of wall time.
     */
    private static void assertFinishesRewrittenWithin(long limitMillis, Class<?> target, String expected)
            throws Exception {
        Class<?> rewritten = TransformingClassLoader.forPackages(target.getPackageName() + ".")
                .transformedCopyOf(target);
        long[] elapsedMillis = new long[1];
        ValidationAssertions.assertSameResult(target.getName(),
                () -> resultOnPlatformThreads(target, expected),
                () -> {
                    long started = System.nanoTime();
                    String result = TargetRunner.run(rewritten);
                    elapsedMillis[0] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                    return result;
                },
                ValidationAssertions.Pinning.ALLOWED);
        assertTrue(elapsedMillis[0] < limitMillis, () -> target.getName() + " took " + elapsedMillis[0]
                + " ms rewritten, not less than " + limitMillis + " ms");
    }

    /** Runs a target as compiled, asserts that it gives {@code expected} and returns its result. */
    private static String resultOnPlatformThreads(Class<?> target, String expected) throws Exception {
        String result = TargetRunner.runPlain(target);
        assertEquals(expected, result, () -> target.getName() + " as compiled, on platform threads");
        return result;
    }

    /** How many carriers the runtime runs: {@code picothreads.carriers}, by default one per available processor. */
    private static int configuredCarriers() {
        return Integer.getInteger("picothreads.carriers", Runtime.getRuntime().availableProcessors());
    }
}
