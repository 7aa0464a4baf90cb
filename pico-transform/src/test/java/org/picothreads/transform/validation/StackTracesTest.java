package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.resume.StackTracesAfterResume;

/** Thread.getStackTrace of a PicoThread shows its activations as a platform thread's would, after a lazy resume too. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StackTracesTest {

    @Test
    void a_thread_sees_its_saved_activations_below_the_resumed_one_in_its_own_stack_trace_with_the_platform_lines()
            throws Exception {
        assertSameResult(StackTracesAfterResume.class);
    }
}
