package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.threads.ContendedMonitorStates;
import org.picothreads.targets.threads.InterruptedMonitorWaits;
import org.picothreads.targets.threads.Interruption;
import org.picothreads.targets.threads.JoinAndYield;
import org.picothreads.targets.threads.SpinWaiting;
import org.picothreads.targets.threads.ThreadGroups;
import org.picothreads.targets.threads.ThreadProperties;
import org.picothreads.targets.threads.ThreadSubclasses;
import org.picothreads.targets.threads.UncaughtExceptions;
import org.picothreads.targets.threads.WaitOnThreadObjects;

/**
 * The java.lang.Thread API as PicoThreads must honour it: subclasses, join, yield, interrupts, properties and
 * uncaught exceptions.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ThreadApiTest {

    @Test
    void thread_subclasses_with_names_and_super_run_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(ThreadSubclasses.class);
    }

    @Test
    void join_join_with_timeout_yield_and_is_alive_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(JoinAndYield.class);
    }

    @Test
    void interrupting_sleeping_and_joining_threads_gives_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(Interruption.class);
    }

    @Test
    void threads_interrupted_while_blocked_on_a_monitor_held_across_sleeps_enter_it_as_on_platform_threads()
            throws Exception {
        assertSameResult(InterruptedMonitorWaits.class);
    }

    @Test
    void waiting_on_a_thread_object_until_the_thread_ends_returns_transformed_and_untransformed() throws Exception {
        assertSameResult(WaitOnThreadObjects.class);
    }

    @Test
    void threads_spinning_with_on_spin_wait_until_another_thread_acts_finish_transformed_and_untransformed()
            throws Exception {
        assertSameResult(SpinWaiting.class);
    }

    @Test
    void thread_groups_count_list_and_interrupt_their_threads_the_same_transformed_and_untransformed()
            throws Exception {
        assertSameResult(ThreadGroups.class);
    }

    @Test
    void a_thread_waiting_to_enter_a_region_that_cannot_suspend_is_blocked_as_on_platform_threads() throws Exception {
        assertSameResult(ContendedMonitorStates.class);
    }

    @Test
    void names_daemon_flags_priorities_and_states_are_the_same_transformed_and_untransformed() throws Exception {
        assertSameResult(ThreadProperties.class);
    }

    @Test
    void uncaught_exception_handlers_receive_the_same_exceptions_transformed_and_untransformed() throws Exception {
        assertSameResult(UncaughtExceptions.class);
    }
}
