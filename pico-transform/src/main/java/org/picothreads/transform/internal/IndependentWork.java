package org.picothreads.transform.internal;

import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * Runs a task for each index of a set of independent classes on every processor (the common fork-join pool and the
 * calling thread); each task writes only its own index, so the result does not depend on the order they ran in.
 */
public final class IndependentWork {
    /** Below this many classes, the work stays on the calling thread: handing it out would cost more than it saves. */
    private static final int SMALLEST_SHARED = 16;

    private IndependentWork() {
    }

    /** Runs {@code task} once for each index from 0 to {@code count - 1}, and returns when all have run. */
    public static void forEachIndex(int count, IntConsumer task) {
        IntStream indices = IntStream.range(0, count);
        if (count >= SMALLEST_SHARED) {
            indices = indices.parallel();
        }
        indices.forEach(task);
    }
}
