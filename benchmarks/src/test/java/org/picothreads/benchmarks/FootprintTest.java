package org.picothreads.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class FootprintTest {

    @Test
    void the_heap_a_collection_leaves_grows_by_what_is_kept_and_not_by_allocation_buffers() throws Exception {
        long before = Footprint.usedHeapAfterGc();
        byte[][] kept = new byte[2000][];
        for (int index = 0; index < kept.length; index++) {
            kept[index] = new byte[1000];
        }
        long garbage = 0;
        for (int index = 0; index < 200_000; index++) {
            garbage += new byte[100].length;
        }
        long after = Footprint.usedHeapAfterGc();
        long keptBytes = 2000L * 1016;
        assertTrue(after - before >= keptBytes && after - before < keptBytes + (1 << 20),
                "grew by " + (after - before) + " bytes for " + keptBytes + " kept (and " + garbage + " dropped)");
        assertEquals(2000, kept.length);
    }

    @Test
    void the_bytes_other_threads_allocated_grow_by_what_a_live_helper_thread_allocates() throws Exception {
        CountDownLatch allocated = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        long[] dropped = new long[1];
        long before = Footprint.allocatedByOtherThreads();
        Thread helper = new Thread(() -> {
            for (int index = 0; index < 10_000; index++) {
                dropped[0] += new byte[1000].length;
            }
            allocated.countDown();
            try {
                measured.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        helper.start();
        allocated.await();
        long after = Footprint.allocatedByOtherThreads();
        measured.countDown();
        helper.join();

        assertTrue(after - before >= 10_000L * 1000, "grew by " + (after - before) + " bytes for " + dropped[0]);
    }

    @Test
    void a_growth_per_thread_is_null_when_the_measurement_shrank_or_is_missing() {
        assertEquals("200", Footprint.perThread("heap", 1000, 3000, 10));
        assertEquals("0", Footprint.perThread("heap", 1000, 1000, 10));
        assertEquals("null", Footprint.perThread("heap", 13_423_504, 8_078_960, 10_000));
        assertEquals("null", Footprint.perThread("RSS", -1, -1, 10_000));
    }
}
