package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResultAllowingPinnedBlocks;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.resume.ExceptionTracesAfterResume;
import org.picothreads.targets.resume.StackTracesAfterResume;
import org.picothreads.targets.resume.StackTracesOfOtherThreads;
import org.picothreads.transform.testing.RuntimeStatistics;
import org.picothreads.transform.testing.TargetRunner;

/**
 * Thread.getStackTrace of a PicoThread shows its activations as a platform thread's would, after a lazy resume too,
 * and to other threads while it is suspended or pinned.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StackTracesTest {

    @Test
    void a_thread_sees_its_saved_activations_below_the_resumed_one_in_its_own_stack_trace_with_the_platform_lines()
            throws Exception {
        assertSameResult(StackTracesAfterResume.class);
    }

    @Test
    void an_exception_thrown_after_a_lazy_resume_has_the_stack_trace_of_a_platform_threads_exception()
            throws Exception {
        assertSameResult(ExceptionTracesAfterResume.class);
    }

    @Test
    void another_thread_sees_a_waiting_threads_saved_activations_with_the_platform_lines_and_in_the_map_of_all_threads()
            throws Exception {
        // the thread waiting inside forEach pins, as it must: its frames are read from its carrier's stack
        assertSameResultAllowingPinnedBlocks(StackTracesOfOtherThreads.class);
        RuntimeStatistics before = RuntimeStatistics.now();
        TargetRunner.runTransformed(StackTracesOfOtherThreads.class);
        RuntimeStatistics growth = RuntimeStatistics.now().since(before);
        // the other waiting thread suspends, its activations saved, and nothing else pins
        assertEquals(1, growth.pinnedBlocks(), () -> "only the wait inside forEach pins: " + growth);
        assertTrue(growth.suspensions() >= 1, () -> "the waiting thread suspended: " + growth);
    }
}
