package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.recursion.DeepRecursion;

/** A recursion thousands of calls deep that suspends at the bottom and on the way up. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class DeepRecursionTest {

    @Test
    void recursion_three_thousand_deep_with_state_in_every_level_gives_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(DeepRecursion.class);
    }
}
