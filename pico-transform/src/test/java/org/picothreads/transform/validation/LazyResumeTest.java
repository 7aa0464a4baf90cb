package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.resume.BlocksInRestoredActivations;
import org.picothreads.targets.resume.ExceptionsThroughRestoredFrames;
import org.picothreads.targets.resume.FiveThousandDeep;
import org.picothreads.targets.resume.MonitorsAcrossRestoredFrames;
import org.picothreads.targets.resume.CallsOfTheProgramsOwnMethods;
import org.picothreads.targets.resume.FirstActivationsEnteredFresh;
import org.picothreads.targets.resume.OwnHelpersOfRestoredActivations;
import org.picothreads.targets.resume.SleepsForComputedTimes;
import org.picothreads.targets.resume.VaryingDepths;
import org.picothreads.targets.resume.YieldsAtTheBottom;
import org.picothreads.transform.testing.RuntimeStatistics;

/**
 * Lazy resume: a resumed thread re-enters only its innermost saved activation, and each activation below continues
 * after its call site when the one above returns or throws.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LazyResumeTest {

    @Test
    void threads_blocking_again_and_again_at_varying_depths_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(VaryingDepths.class);
    }

    @Test
    void exceptions_thrown_after_a_resume_reach_handlers_and_finally_blocks_in_restored_frames_once_each()
            throws Exception {
        assertSameResult(ExceptionsThroughRestoredFrames.class);
    }

    @Test
    void monitors_held_by_several_saved_activations_keep_excluding_until_each_continues() throws Exception {
        assertSameResult(MonitorsAcrossRestoredFrames.class);
    }

    @Test
    void recursion_five_thousand_deep_blocking_at_the_bottom_and_on_the_way_up_gives_the_same_result()
            throws Exception {
        assertSameResult(FiveThousandDeep.class);
    }

    @Test
    void blocking_calls_made_by_restored_activations_end_their_captures_by_returning_and_give_the_same_result()
            throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(BlocksInRestoredActivations.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // Every loop blocks from its restored activation after its first resume, through each entry that returns;
        // a thread's first activation, entered fresh, may end even its first capture so.
        assertTrue(during.capturesEndedByReturn() >= BlocksInRestoredActivations.ROUNDS, during::toString);
        assertTrue(during.capturesEndedByReturn() <= during.suspensions(), during::toString);
    }

    @Test
    void restored_activations_calling_blocking_helpers_of_their_class_give_the_same_result_and_need_no_walk()
            throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(OwnHelpersOfRestoredActivations.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        int rounds = OwnHelpersOfRestoredActivations.THREADS * OwnHelpersOfRestoredActivations.ROUNDS;
        // Each round sleeps twice in helpers entered fresh from the restored loop (and yields three times, which
        // suspends only when another thread is ready); only the threads' first captures walk the stack.
        assertTrue(during.suspensions() >= 2L * rounds, during::toString);
        assertTrue(during.framesChecked() <= 2L * OwnHelpersOfRestoredActivations.THREADS, during::toString);
        assertTrue(during.framesTrustedByCaller() >= 2L * rounds, during::toString);
    }

    @Test
    void threads_whose_first_activation_is_entered_fresh_give_the_same_result_and_their_first_captures_need_no_walk()
            throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(FirstActivationsEnteredFresh.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // Every thread blocks at its start; entered through run(), each first capture would walk the stack. Entered
        // fresh, only the two whose first activation blocks under a call it cannot enter fresh walk, and now and then
        // a capture whose caller token another thread overwrote before it was claimed.
        assertTrue(during.suspensions() >= FirstActivationsEnteredFresh.ENTERED_FRESH, during::toString);
        assertTrue(during.framesChecked() * 3 < FirstActivationsEnteredFresh.ENTERED_FRESH, during::toString);
    }

    @Test
    void calls_of_the_programs_own_methods_saved_without_arguments_or_a_dead_receiver_resume_in_the_right_method_and_give_the_same_result()
            throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(CallsOfTheProgramsOwnMethods.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // each thread blocks at the bottom of three descents, in the napper and at the gate
        assertTrue(during.suspensions() >= CallsOfTheProgramsOwnMethods.THREADS * 4L, during::toString);
        assertEquals(0, during.pinnedBlocks(), during::toString);
    }

    @Test
    void sleeps_captured_without_their_arguments_last_their_time_and_give_the_same_result() throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(SleepsForComputedTimes.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // every sleep of every round suspends its thread (each is invoked again with zeros for its time)
        int sleeps = SleepsForComputedTimes.THREADS * SleepsForComputedTimes.ROUNDS * 2;
        assertTrue(during.suspensions() >= sleeps, during::toString);
    }

    @Test
    void a_resume_reenters_only_the_innermost_activation_and_a_capture_saves_only_what_ran() throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(YieldsAtTheBottom.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        int threads = YieldsAtTheBottom.THREADS;
        // Per thread: its outer activations (the thread's lambda and 41 levels) are saved once, at the first sleep;
        // each of the 20 sleeps saves and re-enters the looping activation; each outer one is re-entered once, when
        // the one above it returns. Restoring every frame at every resume would take 20 x 42 per thread instead.
        long outer = YieldsAtTheBottom.DEPTH + 2;
        long eager = threads * YieldsAtTheBottom.SLEEPS * outer;
        assertTrue(during.suspensions() >= threads * YieldsAtTheBottom.SLEEPS, during.toString());
        assertTrue(during.activationsSaved() <= during.suspensions() + threads * outer,
                () -> "activations saved: " + during);
        assertTrue(during.activationsRestored() <= during.resumes() + threads * outer,
                () -> "activations restored: " + during);
        assertTrue(during.activationsRestored() * 4 < eager, () -> "activations restored: " + during);
    }
}
