package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResultAllowingPinnedBlocks;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.records.BlockingRecords;
import org.picothreads.targets.records.RecordWithBlockingConstructor;

/** Records whose methods, accessors and constructors block. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RecordsTest {

    @Test
    void records_whose_methods_block_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResult(BlockingRecords.class);
    }

    @Test
    void a_record_whose_compact_constructor_sleeps_gives_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResultAllowingPinnedBlocks(RecordWithBlockingConstructor.class);
    }
}
