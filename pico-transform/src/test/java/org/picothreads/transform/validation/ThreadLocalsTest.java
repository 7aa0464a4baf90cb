package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.threadlocals.ThreadLocalsPerThread;
import org.picothreads.transform.testing.TargetRunner;

/** Thread-local values belong to each PicoThread, as they belong to each platform thread. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ThreadLocalsTest {

    @Test
    void a_thousand_threads_keep_their_own_thread_local_values_transformed_and_untransformed() throws Exception {
        String expected = "threads 1000, correct 1000, caller's context root, changed after the threads were created,"
                + " caller's own number null"
                + "\nfirst: " + "0|initial of worker-0|0;set by 0;|null|initial of worker-0|root/child"
                + "|worker 0, changed after the child|worker 0/child, null, initial of child-0, 0"
                + "\nsecond: " + "1|initial of worker-1|1;set by 1;|null|initial of worker-1|root/child"
                + "|worker 1|no child"
                + "\nlast: " + "999|initial of worker-999|999;set by 999;|null|initial of worker-999|root/child"
                + "|worker 999|no child";

        assertEquals(expected, TargetRunner.runPlain(ThreadLocalsPerThread.class));
        assertSameResult(ThreadLocalsPerThread.class);
    }
}
