package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.picothreads.targets.net.acceptors.SharedServerSocketAcceptors;
import org.picothreads.targets.net.callbacks.ReadsInsideCallbacks;
import org.picothreads.targets.net.direct.DirectSocketReads;
import org.picothreads.targets.net.direct.ProgramDirectStream;
import org.picothreads.targets.net.echo.EchoConnections;
import org.picothreads.targets.net.failures.SocketFailures;
import org.picothreads.targets.net.halfclose.HalfClose;
import org.picothreads.targets.net.serverclose.ServerSocketClose;
import org.picothreads.targets.net.http.HttpServerAndClient;
import org.picothreads.targets.net.sharedreader.SharedSocketReaders;
import org.picothreads.targets.net.sharedwriter.SharedSocketWriters;
import org.picothreads.targets.net.throttle.SlowWriter;
import org.picothreads.targets.net.readsizes.MixedReadSizes;
import org.picothreads.targets.net.replies.RepliesThenBursts;
import org.picothreads.targets.net.rewait.RewaitingWriter;
import org.picothreads.targets.net.states.StreamSocketStates;
import org.picothreads.transform.testing.RuntimeStatistics;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;
import org.picothreads.transform.testing.ValidationAssertions;

class SocketValidationTest {
    @Test
    void echo_over_two_hundred_connections_gives_the_same_replies_on_pico_threads() throws Exception {
        ValidationAssertions.assertSameResult(EchoConnections.class);
    }

    @Test
    void echo_over_five_thousand_connections_runs_on_one_carrier_and_every_reply_is_correct() throws Exception {
        String result = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            TransformingClassLoader loader = TransformingClassLoader.forPackages(
                    EchoConnections.class.getPackageName() + ".");
            Class<?> transformed = loader.transformedCopyOf(EchoConnections.class);
            return (String) TargetRunner.callStatic(transformed, "echo", new Class<?>[] {int.class}, 5000);
        });
        assertEquals("5000 connections, 5000 correct echoes, 113890 bytes, first hello from client 0,"
                + " last hello from client 4999", result);
    }

    @Test
    void read_timeout_refused_reset_and_close_while_blocked_fail_as_with_java_net() throws Exception {
        ValidationAssertions.assertSameResult(SocketFailures.class);
    }

    @Test
    void after_a_server_socket_closes_its_port_refuses_connects_and_can_be_bound_again_as_with_java_net()
            throws Exception {
        ValidationAssertions.assertSameResult(ServerSocketClose.class);
        String served = String.join("\n",
                "  served: [read 42]",
                "  connect right after close: java.net.ConnectException: Connection refused",
                "  accept after close: java.net.SocketException: Socket is closed",
                "  rebind right after close: bound, same port true, read 7",
                "  second close: closed true");
        assertEquals(String.join("\n",
                "main closes after a thread served a connection:", served,
                "a thread closes after it served a connection:", served,
                "main closes while a thread accepts:",
                "  blocked accept: [java.net.SocketException: Socket closed]",
                "  connect: java.net.ConnectException: Connection refused",
                "  rebind: bound, same port true, read 7",
                "a thread closes while main accepts:",
                "  main's blocked accept: java.net.SocketException: Socket closed",
                "  closing thread: [closed true]",
                "  connect: java.net.ConnectException: Connection refused",
                "  rebind: bound, same port true, read 7"), ServerSocketClose.run());
    }

    @Test
    void half_close_delivers_end_of_stream_each_way_as_with_java_net() throws Exception {
        ValidationAssertions.assertSameResult(HalfClose.class);
    }

    @Test
    void a_slow_writer_serves_forty_readers_the_same_bytes_as_with_java_net() throws Exception {
        ValidationAssertions.assertSameResult(SlowWriter.class);
    }

    @Test
    void reads_of_every_size_from_single_bytes_to_arrays_larger_than_the_buffer_give_the_same_bytes_as_java_net()
            throws Exception {
        ValidationAssertions.assertSameResult(MixedReadSizes.class);
        String result = MixedReadSizes.run();
        assertTrue(result.contains("reader 11: 192000 bytes"), result);
        assertTrue(result.endsWith("large read with nothing sent: Read timed out; after it: 3 bytes, 5,6,7"), result);
    }

    @Test
    void reads_of_replies_then_of_data_sent_unasked_timeouts_closes_and_shutdowns_give_the_same_results_as_java_net()
            throws Exception {
        String expected = RepliesThenBursts.run();
        assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> ValidationAssertions.assertSameResult(RepliesThenBursts.class));
        long checksum = 0; // of the 30 messages of 100 bytes each client is sent unasked, in order
        for (int message = 0; message < 30; message++) {
            for (int position = 0; position < 100; position++) {
                checksum = checksum * 31 + ((message * 17 + position) & 0xff);
            }
        }
        for (int client = 0; client < 6; client++) {
            assertTrue(expected.contains("client " + client + ": replies 7260, 3000 bytes unasked, checksum " + checksum
                    + "; nothing sent: Read timed out; then 3 bytes 5,6,7; last 5 bytes, then -1 and -1"), expected);
        }
        assertTrue(expected.endsWith("\nclosed while waiting, after replies 36: Socket closed\n"
                + "input shut down after replies 36: -1, -1"), expected);
    }

    @Test
    void a_pico_thread_reading_replies_waits_for_the_poller_before_reading_after_two_empty_reads_but_one_time_in_sixteen()
            throws Exception {
        TransformingClassLoader loader = TransformingClassLoader.forPackages(
                RepliesThenBursts.class.getPackageName() + ".");
        Class<?> transformed = loader.transformedCopyOf(RepliesThenBursts.class);
        Object stream = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> TargetRunner.callStatic(transformed, "afterReplies", new Class<?>[] {int.class}, 64));
        int waitedFirst = ((PicoSocketInputStream) stream).refillsThatWaitedFirst();
        // 64 replies: the first read of a reply, two that find nothing, then 61 that may wait first, of which one in
        // sixteen reads first: 58 at most, fewer when a reply was there already (the replier ran on the other carrier)
        assertTrue(waitedFirst >= 40 && waitedFirst <= 58, "refills that waited first: " + waitedFirst);
        Object plain = RepliesThenBursts.afterReplies(64);
        assertFalse(plain instanceof PicoSocketInputStream, plain.getClass().getName());
    }

    @Test
    void threads_reading_one_socket_stream_at_once_get_distinct_bytes_and_available_does_not_wait_as_with_java_net()
            throws Exception {
        // an available() that waited for the blocked reader would never return: fail instead of hanging the suite
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int run = 0; run < 5; run++) {
                ValidationAssertions.assertSameResult(SharedSocketReaders.class);
            }
        });
        assertEquals("200000 bytes read by 4 readers of one stream, each value as often as sent: true, failures: [null,"
                + " null, null, null]; available while a reader waits: 0, then the reader read 5 bytes",
                SharedSocketReaders.run());
    }

    @Test
    void a_write_that_waits_again_in_its_resumed_activation_gives_the_same_bytes_and_needs_no_frame_check()
            throws Exception {
        ValidationAssertions.assertSameResult(RewaitingWriter.class);
        RuntimeStatistics before = RuntimeStatistics.now();
        String transformed = TargetRunner.runTransformed(RewaitingWriter.class);
        RuntimeStatistics growth = RuntimeStatistics.now().since(before);
        assertEquals(RewaitingWriter.run(), transformed);
        // The one write waits for a writable channel many times; after the first, each wait is made by the write's
        // resumed activation in pico-net, which passes its caller token to the wait, so no capture walks the stack but
        // (now and then) a thread's first.
        assertTrue(growth.suspensions() >= 20, () -> "captures: " + growth);
        assertTrue(growth.framesChecked() <= 4, () -> "captures that walked: " + growth);
    }

    @Test
    void threads_writing_one_socket_at_once_never_interleave_their_writes_as_with_java_net() throws Exception {
        ValidationAssertions.assertSameResult(SharedSocketWriters.class);
    }

    @Test
    void a_thread_per_connection_http_server_answers_every_keep_alive_request_as_with_java_net() throws Exception {
        ValidationAssertions.assertSameResult(HttpServerAndClient.class);
    }

    @Test
    void four_threads_accepting_on_one_server_socket_serve_every_client_and_all_end_at_its_close_on_pico_threads()
            throws Exception {
        ValidationAssertions.assertSameResult(SharedServerSocketAcceptors.class);
    }

    @Test
    void four_threads_accepting_on_one_server_socket_serve_every_client_when_run_as_compiled() throws Exception {
        StringBuilder expected = new StringBuilder("40 clients, 40 correct replies, 40 connections served");
        for (int acceptor = 0; acceptor < 4; acceptor++) {
            expected.append("\nacceptor ").append(acceptor)
                    .append(" ended by java.net.SocketException: Socket closed");
        }
        assertEquals(expected.toString(), SharedServerSocketAcceptors.run());
    }

    @Test
    void reads_and_joins_inside_a_jdk_callback_block_for_real_and_give_the_same_answers_as_on_platform_threads()
            throws Exception {
        ValidationAssertions.assertSameResultAllowingPinnedBlocks(ReadsInsideCallbacks.class);
        RuntimeStatistics before = RuntimeStatistics.now();
        TargetRunner.runTransformed(ReadsInsideCallbacks.class);
        RuntimeStatistics growth = RuntimeStatistics.now().since(before);
        // the three reads inside forEach wait for the server, and the join of the helper that sleeps longer waits
        assertTrue(growth.foreignFramePins() >= 4, () -> "blocks under forEach that pinned: " + growth);
        assertTrue(growth.suspensions() >= 1, () -> "blocks outside forEach that suspended: " + growth);
    }

    @Test
    void reads_a_resumed_thread_makes_directly_on_a_socket_stream_skip_the_frame_check_unless_the_socket_is_a_subclass()
            throws Exception {
        ValidationAssertions.assertSameResult(DirectSocketReads.class);
        Class<?> rewritten = TransformingClassLoader.forPackages(DirectSocketReads.class.getPackageName() + ".")
                .transformedCopyOf(DirectSocketReads.class);
        RuntimeStatistics before = RuntimeStatistics.now();
        String direct = (String) rewritten.getMethod("run").invoke(null);
        RuntimeStatistics directGrowth = RuntimeStatistics.now().since(before);
        before = RuntimeStatistics.now();
        String subclass = (String) rewritten.getMethod("runWithSocketSubclass").invoke(null);
        RuntimeStatistics subclassGrowth = RuntimeStatistics.now().since(before);

        assertEquals(DirectSocketReads.run(), direct);
        assertEquals(direct, subclass);
        // Both threads block in a direct read about every round, from the second on as a resumed activation; with
        // the client's socket a subclass, only the server's reads are spared the walk.
        int rounds = DirectSocketReads.ROUNDS;
        assertTrue(directGrowth.framesTrustedByCaller() >= rounds, () -> "direct reads: " + directGrowth);
        assertTrue(subclassGrowth.framesTrustedByCaller() <= directGrowth.framesTrustedByCaller() - rounds / 2,
                () -> "direct reads: " + directGrowth + "; with a socket subclass: " + subclassGrowth);
        assertTrue(subclassGrowth.framesChecked() >= rounds / 2, () -> "with a socket subclass: " + subclassGrowth);
    }

    @Test
    void a_program_stream_that_claims_to_be_direct_is_not_believed_and_the_parks_inside_it_are_checked()
            throws Exception {
        ValidationAssertions.assertSameResult(ProgramDirectStream.class);
        RuntimeStatistics before = RuntimeStatistics.now();
        TargetRunner.runTransformed(ProgramDirectStream.class);
        RuntimeStatistics growth = RuntimeStatistics.now().since(before);
        // every read parks once inside the stream's own read(), a fresh activation: none is spared the walk
        assertTrue(growth.framesChecked() >= ProgramDirectStream.LENGTH, () -> "reads: " + growth);
        assertTrue(growth.framesTrustedByCaller() < ProgramDirectStream.LENGTH / 2, () -> "reads: " + growth);
    }

    @Test
    void stream_sockets_answer_their_state_and_fail_on_unconnected_closed_and_shut_down_sockets_as_on_platform_threads()
            throws Exception {
        ValidationAssertions.assertSameResult(StreamSocketStates.class);
    }

    @Test
    void a_closed_socket_still_answers_its_addresses_and_a_read_after_the_end_of_stream_when_run_as_compiled()
            throws Exception {
        // java.net.Socket's message for a second connect is capitalised from JDK 24 on
        String alreadyConnected = Runtime.version().feature() >= 24 ? "Already connected" : "already connected";
        assertEquals("""
                unconnected: bound false, connected false, closed false, input shut down false, \
                output shut down false, local address 0.0.0.0/0.0.0.0, local port -1, \
                has local socket address false, remote null, remote port 0, \
                has remote socket address false
                unconnected getInputStream: java.net.SocketException: Socket is not connected
                unconnected getOutputStream: java.net.SocketException: Socket is not connected
                unconnected shutdownInput: java.net.SocketException: Socket is not connected
                unconnected getSoTimeout: 0
                unconnected, closed: bound false, connected false, closed true, input shut down false, \
                output shut down false, local address 0.0.0.0/0.0.0.0, local port -1, \
                has local socket address false, remote null, remote port 0, \
                has remote socket address false
                closed connect: java.net.SocketException: Socket is closed
                closed bind: java.net.SocketException: Socket is closed
                server, unbound: bound false, closed false, address null, port -1, \
                has local socket address false
                unbound accept: java.net.SocketException: Socket is not bound yet
                closed accept: java.net.SocketException: Socket is closed
                server, closed: bound true, closed true, address /127.0.0.1, port ephemeral, \
                has local socket address true
                server: bound true, closed false, address /127.0.0.1, port ephemeral, \
                has local socket address true
                client: bound true, connected true, closed false, input shut down false, \
                output shut down false, local address /127.0.0.1, local port ephemeral, \
                has local socket address true, remote /127.0.0.1, remote port ephemeral, \
                has remote socket address true
                accepted: bound true, connected true, closed false, input shut down false, \
                output shut down false, local address /127.0.0.1, local port ephemeral, \
                has local socket address true, remote /127.0.0.1, remote port ephemeral, \
                has remote socket address true
                client, output shut down: bound true, connected true, closed false, input shut down false, \
                output shut down true, local address /127.0.0.1, local port ephemeral, \
                has local socket address true, remote /127.0.0.1, remote port ephemeral, \
                has remote socket address true
                write after shutdownOutput: java.net.SocketException: Socket output is shutdown
                shutdownOutput twice: java.net.SocketException: Socket output is already shutdown
                read at the end of stream: -1
                read after shutdownInput: java.net.SocketException: Socket input is shutdown
                shutdownInput twice: java.net.SocketException: Socket input is already shutdown
                client, both shut down: bound true, connected true, closed false, input shut down true, \
                output shut down true, local address /127.0.0.1, local port ephemeral, \
                has local socket address true, remote /127.0.0.1, remote port ephemeral, \
                has remote socket address true
                accepted, closed: bound true, connected true, closed true, input shut down false, \
                output shut down false, local address 0.0.0.0/0.0.0.0, local port ephemeral, \
                has local socket address true, remote /127.0.0.1, remote port ephemeral, \
                has remote socket address true
                closed getInputStream: java.net.SocketException: Socket is closed
                read after the end of stream and close: -1
                closed setTcpNoDelay: java.net.SocketException: Socket is closed
                connect twice: java.net.SocketException: %s
                bind a connected socket: java.net.SocketException: Already bound
                read one of two bytes: 1
                read the other: 2
                read one of two more, written later: 3
                read after close with a byte left: java.net.SocketException: Socket closed
                connect with a negative timeout: java.lang.IllegalArgumentException: connect: timeout can't be negative
                connect to an unresolved address: java.net.UnknownHostException: nowhere.invalid
                setSoTimeout(-1): java.lang.IllegalArgumentException: timeout can't be negative
                """.formatted(alreadyConnected), StreamSocketStates.run());
    }
}
