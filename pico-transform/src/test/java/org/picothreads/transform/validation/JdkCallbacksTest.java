package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResultAllowingPinnedBlocks;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.callbacks.JdkCallbacks;

/** Lambdas that sleep while JDK code calls them back, where the sleep cannot be captured. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JdkCallbacksTest {

    @Test
    void lambdas_sleeping_inside_jdk_callbacks_give_the_same_result_transformed_and_untransformed() throws Exception {
        assertSameResultAllowingPinnedBlocks(JdkCallbacks.class);
    }
}
