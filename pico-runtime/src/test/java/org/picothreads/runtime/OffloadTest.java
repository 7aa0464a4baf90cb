package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PicoThreads.offload: the call runs on the resolver pool for a PicoThread and in place for a platform thread. */
class OffloadTest {
    @Test
    void a_pico_thread_offloading_a_call_gets_its_answer_computed_on_a_resolver_pool_thread() throws Exception {
        List<Object> events = PicoTesting.events();
        Thread caller = new PicoThread(() -> {
            try {
                events.add(PicoThreads.offload(() -> Thread.currentThread().getName() + " " + (6 * 7)));
            } catch (Exception e) {
                events.add(e);
            }
        });
        caller.start();
        PicoTesting.awaitTermination(caller);

        assertEquals(1, events.size());
        String answer = (String) events.get(0);
        assertTrue(answer.matches("pico-resolver-[12] 42"), answer);
    }

    @Test
    void a_platform_thread_offloading_a_call_runs_it_in_place_and_gets_its_exception_unchanged() throws Exception {
        assertEquals(Thread.currentThread().getName(), PicoThreads.offload(() -> Thread.currentThread().getName()));
        IOException failure = new IOException("file missing");
        assertSame(failure, assertThrows(IOException.class, () -> PicoThreads.offload(() -> {
            throw failure;
        })));
    }
}
