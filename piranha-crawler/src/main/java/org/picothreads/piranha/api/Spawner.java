package org.picothreads.piranha.api;

/** Starts the task that crawls one URL, on whatever kind of thread a mode uses. */
@FunctionalInterface
public interface Spawner {

    /**
     * Starts the task.
     *
     * @param task the crawl of one URL
     * @return false when the task was discarded instead (a full queue), true when it will run
     */
    boolean start(Runnable task);
}
