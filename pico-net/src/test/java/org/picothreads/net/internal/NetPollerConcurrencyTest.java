package org.picothreads.net.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * NetPoller driven from several platform threads at once, as several carriers drive it: one thread polls (blocking
 * or not) while others start and stop waits on loopback connections, without the scheduler (a platform thread named
 * as a waiter is unparked by LockSupport).
 */
class NetPollerConcurrencyTest {
    /** How long any one test may take before it counts as hung. */
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final int WAITER_THREADS = 4;
    private static final int CONNECTIONS_PER_WAITER = 16;

    private Selector selector;
    private NetPoller poller;
    private ServerSocketChannel listener;
    private final List<Connection> connections = new ArrayList<>();
    private PollingThread polling;

    /** A loopback connection: the side whose waits the test registers, and the peer that writes to it. */
    private record Connection(ChannelWaits waits, SocketChannel peer) {
        void send(int value) throws IOException {
            ByteBuffer one = ByteBuffer.allocate(1).put(0, (byte) value);
            while (one.hasRemaining()) {
                peer.write(one);
            }
        }

        /** Reads the one byte sent, waiting for it without the poller (the peer wrote it before). */
        int receive() throws IOException {
            ByteBuffer one = ByteBuffer.allocate(1);
            while (((SocketChannel) waits.channel).read(one) == 0) {
                Thread.onSpinWait();
            }
            return one.get(0) & 0xff;
        }
    }

    /** Polls in a loop until stopped, recording the fewest pending waits it saw after a poll. */
    private final class PollingThread extends Thread {
        private final long timeoutNanos;
        private volatile boolean stopped;
        final AtomicInteger fewestPending = new AtomicInteger(Integer.MAX_VALUE);
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        PollingThread(long timeoutNanos) {
            super("test-poller");
            this.timeoutNanos = timeoutNanos;
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (!stopped) {
                    poller.poll(0, timeoutNanos);
                    fewestPending.accumulateAndGet(poller.pendingWaits(), Math::min);
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }

        void finish() throws InterruptedException {
            stopped = true;
            poller.wakeup(0);
            join(10_000);
            assertEquals(false, isAlive(), "the polling thread ended");
            assertEquals(null, failure.get(), "the polling thread's failure");
        }
    }

    @BeforeEach
    void openSelectorAndConnections() throws IOException {
        selector = Selector.open();
        poller = new NetPoller(selector);
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        for (int index = 0; index < WAITER_THREADS * CONNECTIONS_PER_WAITER; index++) {
            SocketChannel peer = SocketChannel.open(listener.getLocalAddress());
            SocketChannel accepted = listener.accept();
            connections.add(new Connection(new ChannelWaits(accepted), peer));
        }
    }

    @AfterEach
    void closeEverything() throws Exception {
        if (polling != null && polling.isAlive()) {
            polling.finish();
        }
        for (Connection connection : connections) {
            connection.peer.close();
            connection.waits.channel.close();
        }
        listener.close();
        selector.close();
    }

    @Test
    void readers_registering_on_four_threads_during_blocking_polls_are_each_woken_once_per_byte() throws Exception {
        polling = new PollingThread(-1);
        polling.start();
        int rounds = 40;
        AtomicInteger wakes = new AtomicInteger();
        AtomicInteger bytesReceived = new AtomicInteger();
        runWaiters(connectionsOfOneWaiter -> {
            Thread self = Thread.currentThread();
            for (int round = 0; round < rounds; round++) {
                for (Connection connection : connectionsOfOneWaiter) {
                    // Even rounds: the byte is there first, so a poll may disarm the read interest that this
                    // wait must arm again (and wake the blocking select for). Odd rounds: the wait comes first.
                    if (round % 2 == 0) {
                        connection.send(round);
                    }
                    poller.startWaiting(connection.waits, SelectionKey.OP_READ, self);
                    if (round % 2 == 1) {
                        connection.send(round);
                    }
                    awaitTakenByPoll(connection.waits, self);
                    wakes.incrementAndGet();
                    assertEquals(round, connection.receive());
                    bytesReceived.incrementAndGet();
                    poller.stopWaiting(connection.waits, SelectionKey.OP_READ, self);
                }
            }
        });
        polling.finish();
        int expected = rounds * WAITER_THREADS * CONNECTIONS_PER_WAITER;
        assertEquals(expected, wakes.get());
        assertEquals(expected, bytesReceived.get());
        assertEquals(0, poller.pendingWaits());
        assertTrue(polling.fewestPending.get() >= 0, "fewest pending waits seen: " + polling.fewestPending.get());
    }

    @Test
    void waits_that_end_by_themselves_while_polls_find_them_ready_are_counted_off_exactly_once() throws Exception {
        polling = new PollingThread(0);
        polling.start();
        int rounds = 200;
        AtomicInteger takenByPoll = new AtomicInteger();
        AtomicInteger withdrawnByWaiter = new AtomicInteger();
        runWaiters(connectionsOfOneWaiter -> {
            Thread self = Thread.currentThread();
            for (int round = 0; round < rounds; round++) {
                for (Connection connection : connectionsOfOneWaiter) {
                    poller.startWaiting(connection.waits, SelectionKey.OP_READ, self);
                    connection.send(round);
                    // As after a timeout: the wait ends while a poll on the other thread may be taking it.
                    boolean stillRegistered;
                    synchronized (connection.waits.lock) {
                        stillRegistered = connection.waits.reader == self;
                    }
                    poller.stopWaiting(connection.waits, SelectionKey.OP_READ, self);
                    (stillRegistered ? withdrawnByWaiter : takenByPoll).incrementAndGet();
                    assertEquals(round & 0xff, connection.receive());
                }
            }
        });
        polling.finish();
        assertEquals(rounds * WAITER_THREADS * CONNECTIONS_PER_WAITER, takenByPoll.get() + withdrawnByWaiter.get());
        assertEquals(0, poller.pendingWaits());
        assertTrue(polling.fewestPending.get() >= 0, "fewest pending waits seen: " + polling.fewestPending.get());
    }

    @Test
    void writers_registering_during_a_blocking_poll_are_woken_when_their_send_buffer_drains() throws Exception {
        polling = new PollingThread(-1);
        polling.start();
        AtomicInteger wakes = new AtomicInteger();
        runWaiters(connectionsOfOneWaiter -> {
            Thread self = Thread.currentThread();
            ByteBuffer chunk = ByteBuffer.allocateDirect(64 * 1024);
            for (Connection connection : connectionsOfOneWaiter) {
                SocketChannel channel = (SocketChannel) connection.waits.channel;
                long written = 0;
                int count;
                while ((count = channel.write(chunk.clear())) > 0) {
                    written += count; // until the send buffer and the peer's receive buffer are full
                }
                poller.startWaiting(connection.waits, SelectionKey.OP_WRITE, self);
                ByteBuffer sink = ByteBuffer.allocate(256 * 1024);
                long drained = 0;
                while (drained < written) {
                    drained += connection.peer.read(sink.clear());
                }
                awaitTakenByPoll(connection.waits, self);
                wakes.incrementAndGet();
                poller.stopWaiting(connection.waits, SelectionKey.OP_WRITE, self);
            }
        });
        polling.finish();
        assertEquals(WAITER_THREADS * CONNECTIONS_PER_WAITER, wakes.get());
        assertEquals(0, poller.pendingWaits());
        for (Connection connection : connections) {
            assertEquals(0, connection.waits.key.interestOps(),
                    "a writer's interest is dropped once it is writable");
        }
    }

    @Test
    void a_wake_up_made_before_a_close_drops_its_key_still_ends_the_next_blocking_poll() throws Exception {
        Connection connection = connections.get(0);
        poller.startWaiting(connection.waits, SelectionKey.OP_READ, Thread.currentThread());
        poller.stopWaiting(connection.waits, SelectionKey.OP_READ, Thread.currentThread());
        // The order of an idle carrier woken for work just before it blocks, while another thread closes a socket.
        poller.wakeup(0);
        connection.waits.channel.close();
        poller.dropCancelledKeys(connection.waits);
        boolean woke = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> poller.poll(0, -1),
                "a blocking poll after the wake-up and the drop");
        assertEquals(false, woke, "threads made ready by that poll");
        assertEquals(0, poller.pendingWaits());
    }

    @Test
    void a_close_during_a_blocking_poll_on_another_thread_really_closes_the_listening_socket() throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        InetSocketAddress address = (InetSocketAddress) server.getLocalAddress();
        ChannelWaits waits = new ChannelWaits(server);
        Thread self = Thread.currentThread();
        poller.startWaiting(waits, SelectionKey.OP_ACCEPT, self);
        polling = new PollingThread(-1);
        polling.start();
        assertTimeoutPreemptively(BOUND, () -> {
            while (polling.getState() != Thread.State.RUNNABLE || !isSelecting(polling)) {
                Thread.onSpinWait();
            }
            server.close();
            waits.wakeAllAfterClose();
            poller.dropCancelledKeys(waits);
        });
        assertThrows(ConnectException.class, () -> SocketChannel.open(address).close());
        poller.stopWaiting(waits, SelectionKey.OP_ACCEPT, self);
        assertEquals(0, poller.pendingWaits());
        polling.finish();
    }

    /** True when {@code thread} is inside a select, by its stack. */
    private static boolean isSelecting(Thread thread) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.getMethodName().equals("doSelect")) {
                return true;
            }
        }
        return false;
    }

    /** The work of one waiter thread over its share of the connections. */
    private interface WaiterWork {
        void run(List<Connection> connectionsOfOneWaiter) throws Exception;
    }

    /** Runs {@code work} on {@link #WAITER_THREADS} platform threads at once, each over its own connections. */
    private void runWaiters(WaiterWork work) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> waiters = new ArrayList<>();
        for (int index = 0; index < WAITER_THREADS; index++) {
            List<Connection> share = connections.subList(index * CONNECTIONS_PER_WAITER,
                    (index + 1) * CONNECTIONS_PER_WAITER);
            Thread waiter = new Thread(() -> {
                try {
                    work.run(share);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "test-waiter-" + index);
            waiter.setDaemon(true);
            waiters.add(waiter);
        }
        assertTimeoutPreemptively(BOUND, () -> {
            waiters.forEach(Thread::start);
            for (Thread waiter : waiters) {
                waiter.join();
            }
        });
        if (failure.get() != null) {
            throw new AssertionError("a waiter failed", failure.get());
        }
    }

    /** Parks until a poll has taken {@code self} off the channel's waits (the poll unparks it then). */
    private static void awaitTakenByPoll(ChannelWaits waits, Thread self) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (isRegistered(waits, self)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no poll woke the waiter of " + waits.channel);
            }
            LockSupport.parkNanos(waits, 10_000_000);
        }
    }

    private static boolean isRegistered(ChannelWaits waits, Thread self) {
        synchronized (waits.lock) {
            return waits.reader == self || waits.writer == self;
        }
    }
}
