package org.picothreads.runtime.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps the JVM alive while a non-daemon PicoThread is alive, as the JVM does for non-daemon platform threads:
 * the carrier is a daemon thread, so a non-daemon platform thread named "pico-keepalive" exists exactly while
 * the count of live non-daemon PicoThreads is above zero.
 *
 * <p>The count is raised on the thread that starts a PicoThread, before {@code start()} returns, so that a
 * {@code main} that starts a thread and returns cannot let the JVM exit before the keepalive thread exists.
 * Only the transitions to and from zero take the lock.
 */
final class Lifetime {
    private static final AtomicInteger liveNonDaemonThreads = new AtomicInteger();
    private static final Object lock = new Object();
    /** The keepalive thread, or null when none runs; guarded by {@link #lock}. */
    private static Thread keepalive;

    private Lifetime() {
    }

    /**
     * Called when a non-daemon PicoThread starts, on the thread that starts it, before the thread is handed to the
     * scheduler; returns true when the count left zero, and the caller must then call {@link #keepJvmAlive()} before
     * {@code start()} returns.
     */
    static boolean nonDaemonThreadStarted() {
        return liveNonDaemonThreads.getAndIncrement() == 0;
    }

    /**
     * Starts the keepalive thread unless it runs or no non-daemon PicoThread is alive any more. Called after the
     * thread is handed to the scheduler, so that the carrier need not wait for this thread's creation.
     */
    static void keepJvmAlive() {
        if (liveNonDaemonThreads.get() > 0) {
            synchronized (lock) {
                if (keepalive == null && liveNonDaemonThreads.get() > 0) {
                    Thread thread = RuntimeThreads.create(new KeepAlive(), "pico-keepalive", 0, false);
                    keepalive = thread;
                    thread.start();
                }
            }
        }
    }

    /** Called by the carrier when a non-daemon PicoThread terminates. */
    static void nonDaemonThreadTerminated() {
        if (liveNonDaemonThreads.decrementAndGet() == 0) {
            synchronized (lock) {
                lock.notifyAll();
            }
        }
    }

    /** True when {@code thread} is the keepalive thread. */
    static boolean isKeepalive(Thread thread) {
        synchronized (lock) {
            return thread == keepalive;
        }
    }

    /** The keepalive thread's body; a class rather than a lambda, whose first use would delay the first start. */
    private static final class KeepAlive implements Runnable {
        @Override
        public void run() {
            keepAlive();
        }
    }

    private static void keepAlive() {
        synchronized (lock) {
            while (liveNonDaemonThreads.get() > 0) {
                try {
                    lock.wait();
                } catch (InterruptedException ignored) {
                    // An interrupt must not let the JVM exit while non-daemon PicoThreads are alive.
                }
            }
            keepalive = null;
        }
    }
}
