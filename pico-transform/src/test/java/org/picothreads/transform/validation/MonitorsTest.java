package org.picothreads.transform.validation;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.monitors.BoundedBuffer;
import org.picothreads.targets.monitors.ExceptionsLeavingSynchronized;
import org.picothreads.targets.monitors.PlatformRegionsAgainstResumingHolders;
import org.picothreads.targets.monitors.RegionsAgainstSuspendedHolders;
import org.picothreads.targets.monitors.SleepInsideSynchronized;
import org.picothreads.targets.monitors.WaitAndNotify;
import org.picothreads.transform.testing.ValidationAssertions;

class MonitorsTest {
    @Test
    void read_modify_write_with_a_sleep_inside_synchronized_counts_exactly_transformed_and_untransformed()
            throws Exception {
        ValidationAssertions.assertSameResult(SleepInsideSynchronized.class);
    }

    @Test
    void a_bounded_buffer_with_wait_and_notify_all_gives_the_same_result_transformed_and_untransformed()
            throws Exception {
        ValidationAssertions.assertSameResult(BoundedBuffer.class);
    }

    @Test
    void timed_waits_notify_interrupts_and_a_platform_thread_notifier_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        ValidationAssertions.assertSameResult(WaitAndNotify.class);
    }

    @Test
    void exceptions_leaving_synchronized_methods_that_can_suspend_free_the_monitor_transformed_and_untransformed()
            throws Exception {
        ValidationAssertions.assertSameResult(ExceptionsLeavingSynchronized.class);
    }

    @Test
    void regions_that_cannot_suspend_wait_blocked_for_a_holder_sleeping_inside_and_count_exactly_transformed_and_untransformed()
            throws Exception {
        ValidationAssertions.assertSameResultAllowingPinnedBlocks(RegionsAgainstSuspendedHolders.class);
    }

    @Test
    void a_platform_thread_s_region_that_cannot_suspend_never_enters_while_a_holder_sleeps_or_resumes_inside()
            throws Exception {
        ValidationAssertions.assertSameResultAllowingPinnedBlocks(PlatformRegionsAgainstResumingHolders.class);
    }
}
