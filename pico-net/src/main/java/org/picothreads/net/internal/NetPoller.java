package org.picothreads.net.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.picothreads.runtime.internal.IoPoller;
import org.picothreads.runtime.internal.Parking;
import org.picothreads.runtime.internal.Scheduler;

/**
 * The scheduler's one selector (epoll on Linux), installed as its {@link IoPoller}: PicoThreads on any carrier
 * register interest here, and a poll, made by one carrier at a time (whichever is idle), makes each one whose
 * channel is ready runnable again.
 *
 * <pre>
 *   wait:   under the waits' lock: add OP_READ to interestOps unless there; waits.reader = thread; pendingWaits++
 *           then, when the interest changed and a blocking select is in progress: wake the selector; park (capture)
 *   poll:   each selected key, under its waits' lock:
 *                              ready to read, a reader          -&gt; reader = null; readerWoken = true; pendingWaits--
 *                              ready to read, nobody, not woken -&gt; remove OP_READ from interestOps
 *                              ready to write                   -&gt; remove OP_WRITE; writer = null, pendingWaits--
 *           then, outside the lock: unpark the reader and the writer taken
 *   resume: the primitive is re-invoked, under the lock: readerWoken = false; it drops a registration a timeout or
 *           close left (the poll that took the thread already dropped it, so exactly one of them counts it)
 * </pre>
 *
 * Read (and accept) interest stays registered across waits, so a thread that reads, answers and reads again
 * changes no epoll registration: the kernel is told (epoll_ctl) only when a ready channel is found with nobody
 * waiting to read it and nobody woken to read it, which disarms it so that select does not spin on it, and again
 * when a thread next waits on it. Write (and connect) interest is dropped as soon as the channel is writable,
 * because a socket's send buffer almost always has room: it is registered only while a writer waits. A poll
 * allocates nothing: the selected keys go to one bound consumer.
 *
 * <p>Threads: {@link #poll(long)} is called by one thread at a time, any carrier; waits start and stop on any
 * carrier, concurrently with each other and with a poll. Each channel's state is guarded by its
 * {@link ChannelWaits}' lock, never held across a select (a poll takes it per ready key, inside the select). The
 * selector applies interest changes at the start of its next select, under a lock of its own, so a change made
 * while a blocking select is in progress would wait for that select to end: the waiting thread wakes the selector
 * then, and only then, so the common path (interest already armed, or no blocking select) costs no system call.
 */
public final class NetPoller implements IoPoller {
    /** The operations of a channel's reading side: reading or accepting. */
    private static final int READ_SIDE = SelectionKey.OP_READ | SelectionKey.OP_ACCEPT;
    /** The operations of a channel's writing side: writing or connecting. */
    private static final int WRITE_SIDE = SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT;

    /**
     * The consumer of a select that only drops cancelled keys: it ignores the ready keys, which the next poll
     * reports again (the selector's readiness is level-triggered).
     */
    private static final Consumer<SelectionKey> IGNORE_READY = key -> { };

    private static volatile NetPoller instance;

    private final Selector selector;
    /** The one consumer of the selected keys, bound once. */
    private final Consumer<SelectionKey> onReady = this::ready;
    /** Threads registered here and not yet woken or withdrawn; changed under the waits' lock of the channel. */
    private final AtomicInteger pendingWaits = new AtomicInteger();
    /** Threads in {@link #dropCancelledKeys()}: while there are any, a poll does not block. */
    private final AtomicInteger cancelledKeyDrops = new AtomicInteger();
    /** True while a poll is in a select that may block (or is about to enter one). */
    private volatile boolean selecting;
    /** Whether the poll in progress woke a thread; only the polling thread uses it. */
    private boolean wokeAny;

    /** A poller over {@code selector}, not installed; {@link #get()} installs the scheduler's. */
    NetPoller(Selector selector) {
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
                    throw new UncheckedIOException("PicoThreads: cannot open the scheduler's selector", e);
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
            } else {
                // Read after announcing the select, as a drop announces itself before reading this flag: one of
                // the two sees the other, so a drop never waits behind a select nobody wakes.
                selecting = true;
                try {
                    if (cancelledKeyDrops.get() > 0) {
                        selector.selectNow(onReady);
                    } else if (timeoutNanos < 0) {
                        selector.select(onReady);
                    } else {
                        long millis = (timeoutNanos + 999_999) / 1_000_000;
                        selector.select(onReady, millis);
                    }
                } finally {
                    selecting = false;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PicoThreads: the scheduler's select failed", e);
        }
        return wokeAny;
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public int pendingWaits() {
        return pendingWaits.get();
    }

    private void ready(SelectionKey key) {
        ChannelWaits waits = (ChannelWaits) key.attachment();
        Thread reader = null;
        Thread writer = null;
        synchronized (waits.lock) {
            int readyOps;
            try {
                readyOps = key.readyOps();
            } catch (CancelledKeyException e) {
                return;
            }
            int dropped = 0;
            if ((readyOps & READ_SIDE) != 0) {
                reader = waits.reader;
                if (reader != null) {
                    waits.reader = null;
                    waits.readerWoken = true;
                    pendingWaits.decrementAndGet();
                } else if (!waits.readerWoken) {
                    dropped |= READ_SIDE;
                }
            }
            if ((readyOps & WRITE_SIDE) != 0) {
                dropped |= WRITE_SIDE;
                writer = waits.writer;
                if (writer != null) {
                    waits.writer = null;
                    pendingWaits.decrementAndGet();
                }
            }
            if (dropped != 0) {
                try {
                    key.interestOpsAnd(~dropped);
                } catch (CancelledKeyException e) {
                    // closed meanwhile: its waiting threads were woken by the close
                }
            }
        }
        if (reader != null) {
            wokeAny = true;
            Parking.unpark(reader);
        }
        if (writer != null) {
            wokeAny = true;
            Parking.unpark(writer);
        }
    }

    /**
     * Drops the selector's cancelled keys, the key of a channel just closed among them, so that the channel's socket
     * is closed now: a closed channel keeps its socket open while it is still registered, until the selector's next
     * select. Any thread may call this; it wakes a blocking select in progress, keeps the polls from blocking until
     * it is done, and returns once a select has run after the call began.
     */
    void dropCancelledKeys() throws IOException {
        cancelledKeyDrops.incrementAndGet();
        try {
            if (selecting) {
                selector.wakeup();
            }
            selector.selectNow(IGNORE_READY);
            // That select cleared any wake-up made before it and meant for a select about to begin: the idle carrier
            // polling I/O, woken for work between taking its role and blocking in the select, would sleep on,
            // counted as woken, so that no waker would wake it again. It is made again, whether or not a select is in
            // progress; at worst a select returns once for nothing.
            selector.wakeup();
        } finally {
            cancelledKeyDrops.decrementAndGet();
        }
    }

    /** Registers {@code thread} as waiting for {@code operation} on the channel; any thread may call this. */
    void startWaiting(ChannelWaits waits, int operation, Thread thread) throws ClosedChannelException {
        boolean interestAdded;
        synchronized (waits.lock) {
            try {
                SelectionKey key = waits.key;
                if (key == null) {
                    waits.key = waits.channel.register(selector, operation, waits);
                    interestAdded = true;
                } else {
                    // Read first: the interest is nearly always armed already (read interest stays armed across
                    // waits), and interestOpsOr writes the key (an atomic or) even then; under this lock nobody
                    // else changes it.
                    interestAdded = (key.interestOps() & operation) == 0
                            && (key.interestOpsOr(operation) & operation) == 0;
                }
            } catch (CancelledKeyException e) {
                throw new ClosedChannelException();
            }
            if (isReadSide(operation)) {
                waits.reader = thread;
            } else {
                waits.writer = thread;
            }
            pendingWaits.incrementAndGet();
        }
        // The selector queued the change before this read: a select that starts later applies it, and one in
        // progress now is woken to apply it.
        if (interestAdded && selecting) {
            selector.wakeup();
        }
    }

    /**
     * Ends {@code thread}'s wait for {@code operation} once it runs again: forgets that a poll woke it, and withdraws
     * its registration when it still holds it (a timeout or close woke it). Read interest stays registered for
     * the thread's next wait; write interest is withdrawn. Any thread may call this.
     */
    void stopWaiting(ChannelWaits waits, int operation, Thread thread) {
        synchronized (waits.lock) {
            if (isReadSide(operation)) {
                waits.readerWoken = false;
                if (waits.reader != thread) {
                    return;
                }
                waits.reader = null;
            } else {
                if (waits.writer != thread) {
                    return;
                }
                waits.writer = null;
                SelectionKey key = waits.key;
                if (key != null) {
                    try {
                        key.interestOpsAnd(~operation);
                    } catch (CancelledKeyException e) {
                        // closed meanwhile: nothing left to withdraw
                    }
                }
            }
            pendingWaits.decrementAndGet();
        }
    }

    static boolean isReadSide(int operation) {
        return (operation & READ_SIDE) != 0;
    }
}
