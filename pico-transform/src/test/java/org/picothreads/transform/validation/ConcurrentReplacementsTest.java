package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResultAllowingPinnedBlocks;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.concurrent.FutureOverridesCallingSuper;
import org.picothreads.targets.concurrent.FutureTasksBlockersAndPools;
import org.picothreads.targets.concurrent.QueueingAndFairness;
import org.picothreads.targets.concurrent.SerializedAndFilledReplacements;

/**
 * The runtime's replacements of java.util.concurrent types behave as the JDK's where the JSR-166 TCK found them
 * apart: after serialization and the collection constructors, in what the locks report about their queues and in
 * the order they serve waiters, and in the JDK types the program creates that a PicoThread runs or waits in.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ConcurrentReplacementsTest {

    @Test
    void replacements_keep_their_state_through_serialization_and_the_collection_constructors() throws Exception {
        assertSameResult(SerializedAndFilledReplacements.class);
    }

    @Test
    void locks_report_signalled_waiters_as_queued_and_serve_waiters_in_the_jdk_order() throws Exception {
        assertSameResult(QueueingAndFairness.class);
    }

    @Test
    void future_task_cancel_get_blocker_timed_wait_and_pools_with_thread_factories_behave_as_the_jdk()
            throws Exception {
        // The FutureTask's callable and the pool's tasks run under JDK frames, where a blocking call pins.
        assertSameResultAllowingPinnedBlocks(FutureTasksBlockersAndPools.class);
    }

    @Test
    void a_future_whose_get_and_join_overrides_call_super_gives_the_superclass_value_instead_of_recursing()
            throws Exception {
        assertSameResult(FutureOverridesCallingSuper.class);
    }
}
