package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.constructors.ConstructorArguments;

/** Objects between NEW and their constructor call while an argument suspends. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ConstructorArgumentsTest {

    @Test
    void objects_under_construction_while_an_argument_suspends_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(ConstructorArguments.class);
    }
}
