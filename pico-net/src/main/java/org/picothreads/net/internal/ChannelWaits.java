package org.picothreads.net.internal;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import org.picothreads.runtime.internal.Parking;

/**
 * The threads waiting on one non-blocking channel, at most one per direction (reading or accepting; writing or
 * connecting), and the channel's key in the carrier's selector: one per socket, created with it, so that a wait
 * allocates nothing.
 */
public final class ChannelWaits {
    /** The channel, always in non-blocking mode. */
    final SelectableChannel channel;
    /** Its key in the carrier's selector, registered at the first wait of a PicoThread; null before. */
    SelectionKey key;
    /** The PicoThread waiting to read or accept, or null; written on the carrier, read by closing threads. */
    volatile Thread reader;
    /**
     * True from the poll that woke the reader until it runs again: a ready key meanwhile is the readiness it was
     * woken for, not a reason to withdraw the read interest. Carrier only.
     */
    boolean readerWoken;
    /** The PicoThread waiting to write or connect, or null. */
    volatile Thread writer;
    /** The temporary selector a platform thread waits in for this channel, or null. */
    volatile Selector platformSelector;
    /** An interrupt status taken from the reader while it waits, to set again when the wait ends. */
    boolean readerInterruptDeferred;
    /** An interrupt status taken from the writer while it waits, to set again when the wait ends. */
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

    /** Throws ClosedChannelException when the channel is closed. */
    void ensureOpen() throws ClosedChannelException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }
}
