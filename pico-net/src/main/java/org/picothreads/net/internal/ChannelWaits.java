package org.picothreads.net.internal;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;
import org.picothreads.runtime.internal.Parking;

/**
 * The threads waiting on one non-blocking channel, at most one per direction (reading or accepting; writing or
 * connecting), and the channel's key in the selector of the lane it was first waited on in: one per socket, created
 * with it, so that a wait allocates nothing. Any carrier may wait, poll or close concurrently: see {@link NetPoller}.
 */
public class ChannelWaits {
    /** How often a close checks whether a platform thread's wait on the channel has ended: every 0.1 ms. */
    private static final long PLATFORM_WAIT_END_POLL_NANOS = 100_000;

    /** The channel, always in non-blocking mode. */
    final SelectableChannel channel;
    /**
     * Guards the waiting threads, {@link #readerWoken}, the key's registration and its interest set against
     * {@link NetPoller}'s polls and the other waits, each of which may run on another carrier; never held across a
     * select.
     */
    final Object lock = new Object();
    /**
     * Its key in the selector of lane {@link #lane}, registered at the first wait of a PicoThread; null before.
     * Written under the lock.
     */
    volatile SelectionKey key;
    /** The lane whose selector holds {@link #key}; written with it, under the lock. */
    int lane;
    /**
     * The PicoThread waiting to read or accept, or null; written under the lock, read without it by closing
     * threads.
     */
    volatile Thread reader;
    /**
     * True from the poll that woke the reader until it runs again: a ready key meanwhile is the readiness it was
     * woken for, not a reason to withdraw the read interest. Under the lock.
     */
    boolean readerWoken;
    /** The PicoThread waiting to write or connect, or null; written under the lock. */
    volatile Thread writer;
    /**
     * The selector a platform thread waits in for this channel, from before it registers the channel until its key
     * is dropped again; or null.
     */
    volatile Selector platformSelector;
    /**
     * An interrupt status taken from the reader while it waits, to set again when the wait ends; only the waiting
     * thread uses it (its suspension and resumption order its accesses, on whichever carriers they run).
     */
    boolean readerInterruptDeferred;
    /** An interrupt status taken from the writer while it waits, to set again when the wait ends; as above. */
    boolean writerInterruptDeferred;

    /** Prepares the waits of {@code channel}, which it switches to non-blocking mode. */
    public ChannelWaits(SelectableChannel channel) throws IOException {
        this.channel = channel;
        channel.configureBlocking(false);
    }

    /** The channel these waits are for. */
    public SelectableChannel channel() {
        return channel;
    }

    /**
     * Wakes every thread waiting on the channel, after it was closed (by any thread); each then retries its
     * operation and finds the channel closed.
     */
    public void wakeAllAfterClose() {
        Thread waiting = reader;
        if (waiting != null) {
            Parking.unpark(waiting);
        }
        waiting = writer;
        if (waiting != null) {
            Parking.unpark(waiting);
        }
        Selector selector = platformSelector;
        if (selector != null) {
            selector.wakeup();
        }
    }

    /**
     * Returns once the socket of the channel, which the caller has closed, is really closed, so that its port refuses
     * connections and can be bound again, as after java.net's close: a closed channel keeps its socket open while a
     * selector holds its key, the scheduler's until its next select and a platform thread's until that thread's wait
     * ends. This runs a select of the scheduler's selector holding the key itself (waking a blocking one in progress
     * on a carrier) and then waits for a platform thread's wait to end.
     */
    public void awaitSocketClosed() throws IOException {
        SelectionKey registered;
        synchronized (lock) {
            registered = key;
        }
        if (registered != null) {
            NetPoller.get().dropCancelledKeys(this);
        }
        while (platformSelector != null) {
            LockSupport.parkNanos(this, PLATFORM_WAIT_END_POLL_NANOS);
        }
    }

    /** Ends a platform thread's wait, after its selector dropped the channel's key. */
    void endPlatformWait() {
        platformSelector = null;
    }

    /** Throws ClosedChannelException when the channel is closed. */
    void ensureOpen() throws ClosedChannelException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }
}
