package org.picothreads.runtime.internal;

/**
 * Creates the runtime's own platform threads (the carrier, the keepalive, join watchers, reporters, the offload
 * pool) in a thread group of their own under the system group, so that the program's groups count, enumerate and
 * interrupt only its own threads, as they would without the rewrite.
 */
final class RuntimeThreads {
    /** The group of every platform thread the runtime creates. */
    static final ThreadGroup GROUP = new ThreadGroup(systemGroup(), "picothreads");

    private RuntimeThreads() {
    }

    /** A new, unstarted runtime thread; it inherits no thread-local values. */
    static Thread create(Runnable body, String name, long stackSize, boolean daemon) {
        Thread thread = new Thread(GROUP, body, name, stackSize, false);
        thread.setDaemon(daemon);
        return thread;
    }

    private static ThreadGroup systemGroup() {
        ThreadGroup group = Thread.currentThread().getThreadGroup();
        while (group.getParent() != null) {
            group = group.getParent();
        }
        return group;
    }
}
