package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.platform.PlatformThreadSleeper;
import org.picothreads.transform.testing.RuntimeStatistics;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;

/** Rewritten code run by a platform thread, here JUnit's, blocks that thread as before and never suspends. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class PlatformThreadBlockingTest {

    @Test
    void transformed_code_sleeping_on_the_junit_platform_thread_blocks_that_thread_and_suspends_nothing()
            throws Exception {
        String expected = "slept at least 50 ms: true, same thread: true, thread class: "
                + Thread.currentThread().getClass().getName()
                + ", interrupted sleep threw: true, flag cleared: true, kept 1125899906842624";
        assertEquals(expected, TargetRunner.runPlain(PlatformThreadSleeper.class));

        Class<?> transformed = TransformingClassLoader.forPackages(PlatformThreadSleeper.class.getPackageName() + ".")
                .transformedCopyOf(PlatformThreadSleeper.class);
        RuntimeStatistics before = RuntimeStatistics.now();
        long start = System.nanoTime();
        String result = TargetRunner.run(transformed);
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        RuntimeStatistics growth = RuntimeStatistics.now().since(before);

        assertEquals(expected, result);
        assertTrue(elapsedMillis >= PlatformThreadSleeper.SLEEP_MILLIS,
                "the transformed run returned after " + elapsedMillis + " ms, so its sleep did not block");
        assertFalse(Thread.currentThread().isInterrupted());
        assertEquals(0, growth.threadsStarted(), () -> "a platform thread's sleep started PicoThreads: " + growth);
        assertEquals(0, growth.suspensions(), () -> "a platform thread's sleep suspended: " + growth);
    }
}
