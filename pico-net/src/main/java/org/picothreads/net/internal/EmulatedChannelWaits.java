package org.picothreads.net.internal;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SelectableChannel;
import org.picothreads.net.TransferLock;

/**
 * The waits of a channel whose blocking mode pico-net emulates for the program ({@link BlockingChannels}), with the
 * two locks that serialize its blocking calls as the JDK's channel locks do. pico-net's own sockets serialize their
 * transfers themselves and use plain {@link ChannelWaits}, without these locks.
 */
public final class EmulatedChannelWaits extends ChannelWaits {
    /**
     * Held by the program's blocking read, receive, accept or connect of the channel until it returns, as the JDK's
     * read lock is: at most one thread waits to read at a time.
     */
    public final TransferLock readLock = new TransferLock();
    /** Held by a blocking write, send or connect until it returns, as the JDK's write lock is. */
    public final TransferLock writeLock = new TransferLock();

    EmulatedChannelWaits(SelectableChannel channel) throws IOException {
        super(channel);
    }

    /**
     * Throws AsynchronousCloseException when the channel was closed while the caller waited on it, as the JDK's
     * blocking calls throw it to a thread blocked in them when another thread closes the channel.
     */
    public void ensureOpenAfterWait() throws AsynchronousCloseException {
        if (!channel.isOpen()) {
            throw new AsynchronousCloseException();
        }
    }
}
