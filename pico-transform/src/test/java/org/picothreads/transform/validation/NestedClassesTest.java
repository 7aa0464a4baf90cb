package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.nested.NestedAndAnonymousClasses;

/** Thread bodies in static nested, inner, local and anonymous classes. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class NestedClassesTest {

    @Test
    void nested_inner_local_and_anonymous_classes_that_sleep_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(NestedAndAnonymousClasses.class);
    }
}
