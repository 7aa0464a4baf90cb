package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.primitives.PrimitiveValues;

/** Primitive values of every type in locals and on the operand stack across suspensions. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PrimitiveValuesTest {

    @Test
    void long_double_and_every_other_primitive_survive_a_suspension_in_locals_and_on_the_operand_stack()
            throws Exception {
        assertSameResult(PrimitiveValues.class);
    }
}
