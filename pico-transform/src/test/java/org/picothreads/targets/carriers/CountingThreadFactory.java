package org.picothreads.targets.carriers;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** A thread factory of the program's own for the pool targets: makes threads named with a prefix and counts them. */
final class CountingThreadFactory implements ThreadFactory {
    private final String prefix;
    private final AtomicInteger made = new AtomicInteger();

    CountingThreadFactory(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable task) {
        return new Thread(task, prefix + made.incrementAndGet());
    }

    /** How many threads it made. */
    int made() {
        return made.get();
    }
}
