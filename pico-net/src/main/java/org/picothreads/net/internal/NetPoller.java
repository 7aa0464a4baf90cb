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
 *   wait:   waits.reader = thread; add OP_READ to interestOps unless there; pendingWaits++; park (capture)
 *   poll:   each selected key: ready to read, a reader          -&gt; readerWoken = true; unpark(reader)
 *                              ready to read, nobody, not woken -&gt; remove OP_READ from interestOps
 *                              ready to write                   -&gt; remove OP_WRITE; unpark(writer) if any
 *   resume: the primitive is re-invoked: readerWoken = false; it drops a registration a timeout or close left
 * </pre>
 *
 * Read (and accept) interest stays registered across waits, so a thread that reads, answers and reads again
 * changes no epoll registration: the kernel is told (epoll_ctl) only when a ready channel is found with nobody
 * waiting to read it and nobody woken to read it, which disarms it so that select does not spin on it, and again
 * when a thread next waits on it. Write (and connect) interest is dropped as soon as the channel is writable,
 * because a socket's send buffer almost always has room: it is registered only while a writer waits. A poll
 * allocates nothing: the selected keys go to one bound consumer. All methods but {@link #wakeup()} run on the
 * carrier.
 */
public final class NetPoller implements IoPoller {
    /** The operations of a channel's reading side: reading or accepting. */
    private static final int READ_SIDE = SelectionKey.OP_READ | SelectionKey.OP_ACCEPT;
    /** The operations of a channel's writing side: writing or connecting. */
    private static final int WRITE_SIDE = SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT;

    /**
     * The consumer of a select that only drops cancelled keys: it ignores the ready keys, which the carrier's next
     * poll reports again (the selector's readiness is level-triggered).
     */
    private static final Consumer<SelectionKey> IGNORE_READY = key -> { };

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
        int dropped = 0;
        if ((readyOps & READ_SIDE) != 0) {
            Thread reader = waits.reader;
            if (reader != null) {
                waits.reader = null;
                waits.readerWoken = true;
                pendingWaits--;
                wokeAny = true;
                Parking.unpark(reader);
            } else if (!waits.readerWoken) {
                dropped |= interest & READ_SIDE;
            }
        }
        if ((readyOps & WRITE_SIDE) != 0) {
            dropped |= interest & WRITE_SIDE;
            Thread writer = waits.writer;
            if (writer != null) {
                waits.writer = null;
                pendingWaits--;
                wokeAny = true;
                Parking.unpark(writer);
            }
        }
        if (dropped != 0) {
            key.interestOps(interest & ~dropped);
        }
    }

    /**
     * Drops the selector's cancelled keys, the key of a channel just closed among them, so that the channel's socket
     * is closed now: a closed channel keeps its socket open while it is still registered, until the selector's next
     * select. Returns once that is done; any thread may call this, and off the carrier it waits for the carrier.
     */
    void dropCancelledKeys() throws IOException {
        IOException failure = Scheduler.answerOnCarrier(() -> {
            try {
                selector.selectNow(IGNORE_READY);
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        if (failure != null) {
            throw failure;
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
                int interest = key.interestOps();
                if ((interest & operation) == 0) {
                    key.interestOps(interest | operation);
                }
            }
        } catch (ClosedChannelException | CancelledKeyException e) {
            stopWaiting(waits, operation, thread);
            throw new ClosedChannelException();
        }
    }

    /**
     * Ends {@code thread}'s wait for {@code operation} once it runs again: forgets that a poll woke it, and withdraws
     * its registration when it still holds it (a timeout or a close woke it). Read interest stays registered for
     * the thread's next wait; write interest is withdrawn.
     */
    void stopWaiting(ChannelWaits waits, int operation, Thread thread) {
        boolean reading = isReadSide(operation);
        if (reading) {
            waits.readerWoken = false;
        }
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
        if (!reading && key != null && key.isValid()) {
            try {
                key.interestOps(key.interestOps() & ~operation);
            } catch (CancelledKeyException e) {
                return;
            }
        }
    }

    static boolean isReadSide(int operation) {
        return (operation & READ_SIDE) != 0;
    }
}
