package org.picothreads.net.internal;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import org.picothreads.runtime.internal.CallerToken;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Parking;
import org.picothreads.runtime.internal.Task;
import org.picothreads.runtime.internal.ThreadCalls;

/**
 * pico-net's blocking primitives: wait until a non-blocking channel can probably read, write, accept or finish
 * connecting, or until a deadline. The caller is a retry loop that tries the operation first and calls one of
 * these only when the operation would block; any return may be spurious, so the caller tries again.
 *
 * <p>A PicoThread registers with the selector of its carrier's lane ({@link NetPoller}; a channel stays with the lane
 * of its first wait) and suspends; a poll on any carrier may wake it, even before its suspension has finished, and it
 * may resume on another carrier. When its frames are restored, the primitive is called again from its start, learns
 * from {@link Continuation#resumingPrimitive()} that the wait is over, withdraws a registration that a timeout or close
 * left behind, and returns. Like the runtime's own blocking entries it takes the caller token ({@link CallerToken}): a
 * wait called by a restored activation needs no frame check, and one called by a continuation that tests for a capture
 * under way ends its capture by returning to it. A platform thread waits in a selector of its own. Socket waits are not
 * interruptible, as with java.net: an interrupt status is kept aside during the wait and set again afterwards.
 */
public final class IoWait {
    /** The deadline meaning "no timeout". */
    public static final long NO_DEADLINE = Long.MIN_VALUE;

    private static final ThreadLocal<Selector> PLATFORM_SELECTORS = new ThreadLocal<>();

    private IoWait() {
    }

    /** Waits until the channel can probably be read (or reached end of stream, or failed). */
    public static void awaitReadable(ChannelWaits waits, long deadline) throws IOException {
        await(waits, SelectionKey.OP_READ, deadline);
    }

    /** Waits until the channel can probably be written. */
    public static void awaitWritable(ChannelWaits waits, long deadline) throws IOException {
        await(waits, SelectionKey.OP_WRITE, deadline);
    }

    /** Waits until a connection can probably be accepted. */
    public static void awaitAcceptable(ChannelWaits waits, long deadline) throws IOException {
        await(waits, SelectionKey.OP_ACCEPT, deadline);
    }

    /** Waits until a pending connect can probably be finished. */
    public static void awaitConnectable(ChannelWaits waits, long deadline) throws IOException {
        await(waits, SelectionKey.OP_CONNECT, deadline);
    }

    /**
     * True when the calling thread's waits go through the scheduler's poller, which suspends it (a PicoThread); a
     * platform thread waits in a selector of its own, registering and cancelling its key at each wait, dearer than a
     * read that finds nothing.
     */
    public static boolean waitsByPolling() {
        return Parking.onPicoThread();
    }

    /** True when {@code deadline} (a {@link System#nanoTime()} value, or {@link #NO_DEADLINE}) has passed. */
    public static boolean passed(long deadline) {
        return deadline != NO_DEADLINE && deadline - System.nanoTime() <= 0;
    }

    /** The deadline {@code timeoutMillis} from now, or {@link #NO_DEADLINE} for 0 (no timeout). */
    public static long deadlineAfter(int timeoutMillis) {
        return timeoutMillis <= 0 ? NO_DEADLINE : System.nanoTime() + timeoutMillis * 1_000_000L;
    }

    private static void await(ChannelWaits waits, int operation, long deadline) throws IOException {
        int caller = CallerToken.claimCaller();
        if (!Parking.onPicoThread()) {
            awaitOnPlatformThread(waits, operation, deadline);
            return;
        }
        Thread thread = ThreadCalls.currentThread();
        NetPoller poller = NetPoller.get();
        if (Continuation.resumingPrimitive()) {
            finish(poller, waits, operation, thread);
            return;
        }
        if (passed(deadline)) {
            return;
        }
        waits.ensureOpen();
        boolean reading = NetPoller.isReadSide(operation);
        if (ThreadCalls.interrupted()) {
            if (reading) {
                waits.readerInterruptDeferred = true;
            } else {
                waits.writerInterruptDeferred = true;
            }
        }
        poller.startWaiting(waits, operation, thread);
        // Called by a restored activation, nothing but the runtime's code stands between it and the scheduler.
        Task trusted = caller == CallerToken.NOT_RESTORED ? null : CallerToken.trustRunning();
        try {
            if (deadline == NO_DEADLINE) {
                Parking.parkAfterFrameCheck(waits, false, 0);
            } else {
                Parking.parkAfterFrameCheck(waits, true, Math.max(1, deadline - System.nanoTime()));
            }
        } catch (Capture signal) {
            // suspended: the wait ends when the restore calls this primitive again
            CallerToken.endCaptureByReturn(caller, signal);
            return;
        } finally {
            CallerToken.endTrust(trusted);
        }
        finish(poller, waits, operation, thread);
    }

    private static void finish(NetPoller poller, ChannelWaits waits, int operation, Thread thread) {
        poller.stopWaiting(waits, operation, thread);
        boolean reading = NetPoller.isReadSide(operation);
        boolean deferred = reading ? waits.readerInterruptDeferred : waits.writerInterruptDeferred;
        if (deferred) {
            if (reading) {
                waits.readerInterruptDeferred = false;
            } else {
                waits.writerInterruptDeferred = false;
            }
            thread.interrupt();
        }
    }

    private static void awaitOnPlatformThread(ChannelWaits waits, int operation, long deadline) throws IOException {
        Selector selector = PLATFORM_SELECTORS.get();
        if (selector == null) {
            selector = Selector.open();
            PLATFORM_SELECTORS.set(selector);
        }
        // Named before registering: a close from now on waits until this wait has dropped its key.
        waits.platformSelector = selector;
        SelectionKey key = null;
        boolean interrupted = Thread.interrupted();
        try {
            try {
                key = waits.channel.register(selector, operation);
            } catch (CancelledKeyException e) {
                selector.selectNow();
                key = waits.channel.register(selector, operation);
            }
            if (!waits.channel.isOpen()) {
                throw new ClosedChannelException();
            }
            if (deadline == NO_DEADLINE) {
                selector.select();
            } else {
                long remaining = deadline - System.nanoTime();
                if (remaining > 0) {
                    selector.select(Math.max(1, (remaining + 999_999) / 1_000_000));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            try {
                if (key != null) {
                    key.cancel();
                    selector.selectNow();
                }
            } finally {
                waits.endPlatformWait();
            }
        }
    }
}
