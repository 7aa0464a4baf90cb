package org.picothreads.runtime.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The platform threads blocked, without a timeout, until a PicoThread does something (a platform thread joining a
 * PicoThread, awaiting a runtime latch...): the deadlock detector counts them as unable to wake anyone.
 *
 * <p>Every runtime primitive that blocks a platform thread without a timeout for the sake of PicoThreads brackets
 * the wait:
 * <pre>
 *   PlatformWaits.enter();
 *   try { ...wait... } finally { PlatformWaits.exit(); }
 * </pre>
 * A timed wait must not be bracketed: its thread continues on its own and may then wake a PicoThread.
 */
public final class PlatformWaits {
    /** The platform threads inside a bracketed wait. */
    private static final Set<Thread> WAITING = ConcurrentHashMap.newKeySet();

    private PlatformWaits() {
    }

    /** Called by a platform thread about to block, without a timeout, until a PicoThread acts. */
    public static void enter() {
        WAITING.add(Thread.currentThread());
    }

    /** Called by the same thread when that wait is over, however it ended. */
    public static void exit() {
        WAITING.remove(Thread.currentThread());
    }

    /** True while {@code thread} is inside such a wait. */
    static boolean isWaiting(Thread thread) {
        return WAITING.contains(thread);
    }
}
