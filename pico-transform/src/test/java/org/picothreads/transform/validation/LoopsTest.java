package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.loops.LoopsWithSuspension;

/** Loops that suspend in their bodies and conditions. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LoopsTest {

    @Test
    void loops_with_suspensions_and_counters_in_locals_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(LoopsWithSuspension.class);
    }
}
