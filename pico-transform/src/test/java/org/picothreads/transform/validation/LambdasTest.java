package org.picothreads.transform.validation;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.lambdas.FunctionalInterfacesCalledDirectly;
import org.picothreads.targets.lambdas.ThreadLambdas;
import org.picothreads.targets.methodrefs.BoundReferencesToRedirectedMethods;

/** Lambdas and method references as thread bodies and as blocking functions called from rewritten code. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LambdasTest {

    @Test
    void lambdas_and_method_references_that_sleep_give_the_same_result_transformed_and_untransformed()
            throws Exception {
        assertSameResult(ThreadLambdas.class);
    }

    @Test
    void jdk_functional_interfaces_whose_lambdas_sleep_give_the_same_result_when_called_directly() throws Exception {
        assertSameResult(FunctionalInterfacesCalledDirectly.class);
    }

    @Test
    void bound_method_references_to_redirected_methods_of_a_thread_subclass_link_and_give_the_same_result()
            throws Exception {
        assertSameResult(BoundReferencesToRedirectedMethods.class);
    }
}
