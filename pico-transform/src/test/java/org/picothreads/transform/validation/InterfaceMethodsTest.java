package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.interfaces.BlockingInterfaceMethods;
import org.picothreads.targets.interfaces.ClosesThroughInterfaces;

/** Default, static and private interface methods that block. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class InterfaceMethodsTest {

    @Test
    void blocking_default_static_and_private_interface_methods_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(BlockingInterfaceMethods.class);
    }

    @Test
    void closes_through_closeable_auto_closeable_and_channel_that_block_suspend_as_the_interface_calls_did()
            throws Exception {
        assertSameResult(ClosesThroughInterfaces.class);
    }
}
