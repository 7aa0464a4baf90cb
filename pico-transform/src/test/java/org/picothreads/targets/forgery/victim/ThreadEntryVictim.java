package org.picothreads.targets.forgery.victim;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A class whose rewrite lists a thread entry, {@link #body()}, for a test in which a class that was not rewritten
 * links a Runnable of it through the runtime's lambda bootstrap.
 */
public final class ThreadEntryVictim {
    /** How many times {@link #body()} has run to its end. */
    public static final AtomicInteger RUNS = new AtomicInteger();

    private ThreadEntryVictim() {
    }

    /** A Runnable of {@link #body()} made by the class itself. */
    public static Runnable own() {
        return ThreadEntryVictim::body;
    }

    public static void body() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException exception) {
            throw new IllegalStateException(exception);
        }
        RUNS.incrementAndGet();
    }
}
