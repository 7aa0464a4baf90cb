package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResultAllowingPinnedBlocks;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.concatenation.ConcatenationCallingBlockingToString;
import org.picothreads.targets.concatenation.StringConcatenation;

/** String concatenation compiled to invokedynamic with suspending operands. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StringConcatenationTest {

    @Test
    void concatenations_with_suspending_arguments_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(StringConcatenation.class);
    }

    @Test
    void a_concatenation_whose_operand_sleeps_in_toString_gives_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResultAllowingPinnedBlocks(ConcatenationCallingBlockingToString.class);
    }
}
