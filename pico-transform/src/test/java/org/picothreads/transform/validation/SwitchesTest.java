package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.switches.SwitchesWithSuspension;

/** Switches on strings, enums and ints with suspensions in cases, selectors and switch expressions. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SwitchesTest {

    @Test
    void switches_that_suspend_in_cases_and_selectors_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(SwitchesWithSuspension.class);
    }
}
