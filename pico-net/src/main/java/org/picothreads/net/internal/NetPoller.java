package org.picothreads.net.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * The scheduler's selectors (epoll on Linux), one per lane, installed as its {@link IoPoller}: a channel is registered,
 * at the first wait of a PicoThread on it, with the selector of the lane of the carrier that thread runs on, and stays
 * there; a poll of a lane's selector, by a carrier of that lane between its dispatches or while it idles (by any
 * idle carrier, without waiting, when the lane has no idle carrier of its own), makes each thread whose channel is
 * ready runnable again, on the polling carrier's lane. So a thread, its channels' keys and the wake-ups of its waits
 * keep to one carrier while the lanes stay balanced, and two carriers polling never meet on one selector or one key.
 *
 * <pre>
 *   wait:   under the waits' lock: register with the running carrier's lane's selector at the first wait;
 *           add OP_READ to interestOps unless there; waits.reader = thread; that selector's pendingWaits++
 *           then, when the interest changed and a blocking select of that selector is in progress: wake it; park
 *   poll:   of one lane's selector, by one thread at a time (claimed); each selected key, under its waits' lock:
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
 * allocates nothing: the selected keys go to one bound consumer per selector.
 *
 * <p>Threads: each lane's selector is polled by one thread at a time: {@link #pollNow} claims it or returns at once,
 * {@link #poll} waits for a claim held by a poll that does not block; polls of different lanes run at once. Waits
 * start and stop on any carrier, concurrently with each other and with polls. Each channel's state is guarded by its
 * {@link ChannelWaits}' lock, never held across a select (a poll takes it per ready key, inside the select). A
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

    /** Each lane's selector and what goes with it, by lane index. */
    private final LaneSelector[] lanes;

    /** A poller over {@code selectors}, one per lane, not installed; {@link #get()} installs the scheduler's. */
    NetPoller(Selector... selectors) {
        lanes = new LaneSelector[selectors.length];
        for (int index = 0; index < selectors.length; index++) {
            lanes[index] = new LaneSelector(selectors[index]);
        }
    }

    /** The poller installed in the scheduler, installing it on first use. */
    static NetPoller get() {
        NetPoller poller = instance;
        if (poller != null) {
            return poller;
        }
        synchronized (NetPoller.class) {
            if (instance == null) {
                Selector[] selectors = new Selector[Scheduler.laneCount()];
                try {
                    for (int index = 0; index < selectors.length; index++) {
                        selectors[index] = Selector.open();
                    }
                    NetPoller candidate = new NetPoller(selectors);
                    IoPoller installed = Scheduler.installPoller(candidate);
                    if (installed != candidate) {
                        closeAll(selectors);
                        throw new IllegalStateException("PicoThreads: another I/O poller is installed: " + installed);
                    }
                    instance = candidate;
                } catch (IOException e) {
                    closeAll(selectors);
                    throw new UncheckedIOException("PicoThreads: cannot open the scheduler's selectors", e);
                }
            }
            return instance;
        }
    }

    private static void closeAll(Selector[] selectors) {
        for (Selector selector : selectors) {
            if (selector != null) {
                try {
                    selector.close();
                } catch (IOException ignored) {
                    // nothing was registered with it
                }
            }
        }
    }

    @Override
    public boolean pollNow(int lane) {
        LaneSelector polled = lanes[lane];
        if (!polled.claim()) {
            return false;
        }
        try {
            return polled.select(0);
        } finally {
            polled.release();
        }
    }

    @Override
    public boolean poll(int lane, long timeoutNanos) {
        LaneSelector polled = lanes[lane];
        while (!polled.claim()) {
            Thread.onSpinWait(); // the holder is a poll that does not wait: a moment
        }
        try {
            return polled.select(timeoutNanos);
        } finally {
            polled.release();
        }
    }

    @Override
    public void wakeup(int lane) {
        lanes[lane].selector.wakeup();
    }

    @Override
    public int pendingWaits() {
        int pending = 0;
        for (LaneSelector lane : lanes) {
            pending += lane.pendingWaits.get();
        }
        return pending;
    }

    @Override
    public int pendingWaits(int lane) {
        return lanes[lane].pendingWaits.get();
    }

    /** How many selects that may block (an idle carrier's waits) the selectors have made so far, all lanes. */
    long waitingSelects() {
        long selects = 0;
        for (LaneSelector lane : lanes) {
            selects += lane.waitingSelects;
        }
        return selects;
    }

    /**
     * Drops the cancelled keys of the selector holding the key of {@code waits}' channel, just closed, so that the
     * channel's socket is closed now: a closed channel keeps its socket open while it is still registered,
     * until the selector's next select. Any thread may call this; it wakes a blocking select of that selector in
     * progress, keeps its polls from blocking until it is done, and returns once a select has run after the call
     * began.
     */
    void dropCancelledKeys(ChannelWaits waits) throws IOException {
        lanes[waits.lane].dropCancelledKeys();
    }

    /** Registers {@code thread} as waiting for {@code operation} on the channel; any thread may call this. */
    void startWaiting(ChannelWaits waits, int operation, Thread thread) throws ClosedChannelException {
        startWaiting(waits, operation, thread, Math.max(0, Scheduler.currentLane()));
    }

    /**
     * {@link #startWaiting(ChannelWaits, int, Thread)}, registering a channel not registered yet with lane
     * {@code lane}'s selector.
     */
    void startWaiting(ChannelWaits waits, int operation, Thread thread, int lane) throws ClosedChannelException {
        boolean interestAdded;
        LaneSelector registered;
        synchronized (waits.lock) {
            try {
                SelectionKey key = waits.key;
                if (key == null) {
                    registered = lanes[lane];
                    waits.lane = lane;
                    waits.key = waits.channel.register(registered.selector, operation, waits);
                    interestAdded = true;
                } else {
                    registered = lanes[waits.lane];
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
            registered.pendingWaits.incrementAndGet();
        }
        // The selector queued the change before this read: a select that starts later applies it, and one in
        // progress now is woken to apply it.
        if (interestAdded && registered.selecting) {
            registered.selector.wakeup();
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
            lanes[waits.lane].pendingWaits.decrementAndGet();
        }
    }

    static boolean isReadSide(int operation) {
        return (operation & READ_SIDE) != 0;
    }

    /** One lane's selector, its waits and the state of its polls. */
    private static final class LaneSelector {
        private static final VarHandle POLLING;

        static {
            try {
                POLLING = MethodHandles.lookup().findVarHandle(LaneSelector.class, "polling", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Selector selector;
        /** Threads registered here and not yet woken or withdrawn; changed under the waits' lock of the channel. */
        final AtomicInteger pendingWaits = new AtomicInteger();
        /** True while a thread polls this selector ({@link #claim}); compare-and-set. */
        private volatile boolean polling;
        /** Threads in {@link #dropCancelledKeys()}: while there are any, a poll does not block. */
        private final AtomicInteger cancelledKeyDrops = new AtomicInteger();
        /** True while a poll is in a select that may block (or is about to enter one). */
        volatile boolean selecting;
        /** Whether the poll in progress woke a thread; only the polling thread uses it. */
        private boolean wokeAny;
        /** How many selects that may block this selector has made; only the polling thread writes it. */
        volatile long waitingSelects;
        /** The one consumer of this selector's selected keys, bound once. */
        private final Consumer<SelectionKey> onReady = this::ready;

        LaneSelector(Selector selector) {
            this.selector = selector;
        }

        boolean claim() {
            return !polling && POLLING.compareAndSet(this, false, true);
        }

        void release() {
            polling = false;
        }

        /** A select of the claimed selector, waiting at most {@code timeoutNanos} as {@link IoPoller#poll} says. */
        boolean select(long timeoutNanos) {
            wokeAny = false;
            try {
                if (timeoutNanos == 0) {
                    selector.selectNow(onReady);
                } else {
                    // Read after announcing the select, as a drop announces itself before reading this flag: one
                    // of the two sees the other, so a drop never waits behind a select nobody wakes.
                    selecting = true;
                    waitingSelects++;
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

        /** {@link NetPoller#dropCancelledKeys}, for this selector. */
        void dropCancelledKeys() throws IOException {
            cancelledKeyDrops.incrementAndGet();
            try {
                if (selecting) {
                    selector.wakeup();
                }
                selector.selectNow(IGNORE_READY);
                // That select cleared any wake-up made before it, meant for a select about to begin: an idle
                // carrier's, woken for work between announcing its wait and blocking in it, would sleep on, counted as
                // woken. It is made again, whether or not a select is in progress; at worst a select returns once
                // for nothing.
                selector.wakeup();
            } finally {
                cancelledKeyDrops.decrementAndGet();
            }
        }
    }
}
