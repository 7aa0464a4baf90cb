package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.operandstack.ValuesUnderArguments;

/** Values waiting on the operand stack under the arguments of a call that suspends. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class OperandStackTest {

    @Test
    void values_under_a_suspending_call_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(ValuesUnderArguments.class);
    }
}
