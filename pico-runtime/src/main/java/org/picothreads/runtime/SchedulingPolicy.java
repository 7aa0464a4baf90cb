package org.picothreads.runtime;

/**
 * The order in which the scheduler takes ready PicoThreads from its run queue; the paper tried all three.
 * Chosen with {@link PicoThreads#configure} or the system properties {@code picothreads.scheduler} and
 * {@code picothreads.seed}, before the first PicoThread starts.
 */
public enum SchedulingPolicy {
    /** First in, first out: threads run in the order they became ready (the default). */
    FIFO,
    /** Last in, first out: the thread that became ready last runs first; a yielding thread goes to the bottom. */
    LIFO,
    /** A ready thread drawn at random from a generator seeded with the configured seed, so runs are reproducible. */
    RANDOM
}
