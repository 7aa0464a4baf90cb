package org.picothreads.net.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.Consumer;
import org.picothreads.runtime.internal.IoPoller;
import org.picothreads.runtime.internal.Parking;
import org.picothreads.runtime.internal.Scheduler;

/**
 * The carrier's one selector (epoll on Linux), installed in the scheduler as its {@link IoPoller}: PicoThreads
 * waiting for a channel register interest here, and a poll makes each one whose channel is ready runnable again.
 *
 * <pre>
 *   wait:   waits.reader = thread; key.interestOps |= OP_READ; pendingWaits++; park (capture)
 *   poll:   for each selected key: readyOps & OP_READ and a reader -> interestOps &= ~OP_READ; unpark(reader)
 *   resume: the primitive is re-invoked; if it still holds the registration (timeout, interrupt, close) it drops it
 * </pre>
 *
 * Interest is kept only while a thread waits, so a ready channel nobody waits on never makes select spin. A poll
 * allocates nothing: the selected keys go to one bound consumer. All methods but {@link #wakeup()} run on the
 * carrier.
 */
public final class NetPoller implements IoPoller {
    private static volatile NetPoller instance;

    private final Selector selector;
    /** The one consumer of the selected keys, bound once. */
    private final Consumer<SelectionKey> onReady = this::ready;
    /** Threads registered here and not yet woken or withdrawn. */
    private int pendingWaits;
    /** Whether the last poll woke a thread. */
    private boolean wokeAny;

    private NetPoller(Selector selector) {
        this.selector = selector;
    }

    /** The poller installed in the scheduler, installing it on first use. */
    static NetPoller get() {
        NetPoller poller = instance;
        if (poller != null) {
            return poller;
        }
        synchronized (NetPoller.class) {
            if (instance == null) {
                try {
                    NetPoller candidate = new NetPoller(Selector.open());
                    IoPoller installed = Scheduler.installPoller(candidate);
                    if (installed != candidate) {
                        candidate.selector.close();
                        throw new IllegalStateException("PicoThreads: another I/O poller is installed: " + installed);
                    }
                    instance = candidate;
                } catch (IOException e) {
                    throw new UncheckedIOException("PicoThreads: cannot open the carrier's selector", e);
                }
            }
            return instance;
        }
    }

    @Override
    public boolean poll(long timeoutNanos) {
        wokeAny = false;
        try {
            if (timeoutNanos == 0) {
                selector.selectNow(onReady);
            } else if (timeoutNanos < 0) {
                selector.select(onReady);
            } else {
                long millis = (timeoutNanos + 999_999) / 1_000_000;
                selector.select(onReady, millis);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PicoThreads: the carrier's select failed", e);
        }
        return wokeAny;
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public int pendingWaits() {
        return pendingWaits;
    }

    private void ready(SelectionKey key) {
        ChannelWaits waits = (ChannelWaits) key.attachment();
        int readyOps;
        int interest;
        try {
            readyOps = key.readyOps();
            interest = key.interestOps();
        } catch (CancelledKeyException e) {
            return;
        }
        int remaining = interest;
        if ((readyOps & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0) {
            remaining &= ~(SelectionKey.OP_READ | SelectionKey.OP_ACCEPT);
            Thread reader = waits.reader;
            if (reader != null) {
                waits.reader = null;
                pendingWaits--;
                wokeAny = true;
                Parking.unpark(reader);
            }
        }
        if ((readyOps & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)) != 0) {
            remaining &= ~(SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT);
            Thread writer = waits.writer;
            if (writer != null) {
                waits.writer = null;
                pendingWaits--;
                wokeAny = true;
                Parking.unpark(writer);
            }
        }
        if (remaining != interest) {
            key.interestOps(remaining);
        }
    }

    /** Registers {@code thread} as waiting for {@code operation} on the channel. */
    void startWaiting(ChannelWaits waits, int operation, Thread thread) throws ClosedChannelException {
        boolean reading = isReadSide(operation);
        if (reading) {
            waits.reader = thread;
        } else {
            waits.writer = thread;
        }
        pendingWaits++;
        try {
            SelectionKey key = waits.key;
            if (key == null) {
                waits.key = waits.channel.register(selector, operation, waits);
            } else {
                key.interestOps(key.interestOps() | operation);
            }
        } catch (ClosedChannelException | CancelledKeyException e) {
            stopWaiting(waits, operation, thread);
            throw new ClosedChannelException();
        }
    }

    /** Withdraws {@code thread}'s registration for {@code operation} when it still holds it. */
    void stopWaiting(ChannelWaits waits, int operation, Thread thread) {
        boolean reading = isReadSide(operation);
        if ((reading ? waits.reader : waits.writer) != thread) {
            return;
        }
        if (reading) {
            waits.reader = null;
        } else {
            waits.writer = null;
        }
        pendingWaits--;
        SelectionKey key = waits.key;
        if (key != null && key.isValid()) {
            try {
                key.interestOps(key.interestOps() & ~operation);
            } catch (CancelledKeyException e) {
                return;
            }
        }
    }

    static boolean isReadSide(int operation) {
        return (operation & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0;
    }
}
