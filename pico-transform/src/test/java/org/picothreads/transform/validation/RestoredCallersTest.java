package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResultAllowingPinnedBlocks;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.callbacks.RestoredCallers;
import org.picothreads.targets.callbacks.RestoredForeignCalls;
import org.picothreads.transform.testing.RuntimeStatistics;

class RestoredCallersTest {
    @Test
    void restored_activations_that_block_directly_skip_the_frame_check_and_through_jdk_callbacks_still_pin_with_the_same_result()
            throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResultAllowingPinnedBlocks(RestoredCallers.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // 9 sleeps under List.forEach and 2 or more comparisons under List.sort block in place
        assertTrue(during.foreignFramePins() >= 11, "pins by foreign frames: " + during.foreignFramePins());
        // most of the captures, of the 200 yields and 100 queue hand-offs, are made by restored activations: no walk
        // before them. How many of those suspend depends on the timing: a yield with nobody else ready returns at
        // once, and so do a put and a take that find room or a value, more often with several carriers (one run on a
        // loaded machine suspended 36 times, all of them by restored activations)
        assertTrue(during.framesTrustedByCaller() >= 20 && during.framesTrustedByCaller() * 4 >= during.suspensions() * 3,
                "captures without a walk: " + during);
        // every capture came either after a walk that found no foreign frame, or from a restored caller
        assertEquals(during.suspensions(),
                during.framesTrustedByCaller() + during.framesChecked() - during.foreignFramePins(), during.toString());
        // every first capture of an activation, and the lambdas' own sleeps, are still checked
        assertTrue(during.framesChecked() >= 4, "captures after a walk: " + during.framesChecked());
    }

    @Test
    void restored_activations_that_block_through_method_handles_reflection_and_jdk_callbacks_pin_and_through_rewritten_helpers_suspend()
            throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResultAllowingPinnedBlocks(RestoredForeignCalls.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // per thread and round: the sleeps under invokeExact, Method.invoke and the two of forEach block in place
        assertTrue(during.foreignFramePins() >= 3 * 3 * 4, "pins by foreign frames: " + during);
        // per thread: the first sleep and the helper's three suspend, after a walk that ended at the continuation
        assertTrue(during.suspensions() >= 3 * 4, "suspensions: " + during);
        assertEquals(during.suspensions(),
                during.framesTrustedByCaller() + during.framesChecked() - during.foreignFramePins(), during.toString());
    }
}
