package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResultAllowingPinnedBlocks;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.callbacks.ForeignFrameShapes;
import org.picothreads.transform.testing.RuntimeStatistics;

class ForeignFrameShapesTest {
    @Test
    void blocking_through_reflection_a_class_initializer_a_jdk_driven_iterator_and_a_comparator_pins_and_gives_the_same_result()
            throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResultAllowingPinnedBlocks(ForeignFrameShapes.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // reflection, class initializer, 3 iterator steps, 3 comparisons: each blocks in place, none is captured
        assertTrue(during.pinnedBlocks() >= 8, "pinned blocks: " + during.pinnedBlocks());
    }
}
