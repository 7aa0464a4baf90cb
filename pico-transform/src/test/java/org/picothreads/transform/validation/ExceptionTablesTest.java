package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.exceptions.ExceptionTables;

/** Suspensions inside try, catch and finally blocks, and exceptions thrown after a resume. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExceptionTablesTest {

    @Test
    void handlers_and_finally_blocks_around_suspensions_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(ExceptionTables.class);
    }
}
