package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.resume.StackTracesAfterResume;
import org.picothreads.targets.resume.StackTracesOfOtherThreads;

/**
 * Thread.getStackTrace of a PicoThread shows its activations as a platform thread's would, after a lazy resume too,
 * and to other threads while it is suspended.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StackTracesTest {

    @Test
    void a_thread_sees_its_saved_activations_below_the_resumed_one_in_its_own_stack_trace_with_the_platform_lines()
            throws Exception {
        assertSameResult(StackTracesAfterResume.class);
    }

    @Test
    void another_thread_sees_a_waiting_threads_saved_activations_with_the_platform_lines_and_in_the_map_of_all_threads()
            throws Exception {
        assertSameResult(StackTracesOfOtherThreads.class);
    }
}
