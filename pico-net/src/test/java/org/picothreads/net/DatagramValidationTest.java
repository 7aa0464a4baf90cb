package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.picothreads.targets.net.datagram.DatagramEcho;
import org.picothreads.targets.net.datagram.DatagramSocketStates;
import org.picothreads.targets.net.datagram.ReusedDatagramPackets;
import org.picothreads.targets.net.datagram.SharedDatagramReceivers;
import org.picothreads.transform.testing.ValidationAssertions;

class DatagramValidationTest {
    @Test
    void twenty_datagram_clients_and_a_timed_out_receive_give_the_same_results_on_pico_threads() throws Exception {
        ValidationAssertions.assertSameResult(DatagramEcho.class);
    }

    @Test
    void every_datagram_is_echoed_and_the_quiet_socket_times_out_when_run_as_compiled() throws Exception {
        assertEquals("20 clients, 20 correct echoes, first datagram from client 0, last datagram from client 19,"
                + " quiet socket: SocketTimeoutException Receive timed out after at least 50 ms true",
                DatagramEcho.run());
    }

    @Test
    void four_threads_receiving_on_one_datagram_socket_answer_every_client_and_all_end_at_its_close_on_pico_threads()
            throws Exception {
        ValidationAssertions.assertSameResult(SharedDatagramReceivers.class);
    }

    @Test
    void four_threads_receiving_on_one_datagram_socket_answer_every_client_when_run_as_compiled() throws Exception {
        StringBuilder expected = new StringBuilder("40 clients, 40 correct replies, 40 datagrams answered");
        for (int receiver = 0; receiver < 4; receiver++) {
            expected.append("\nreceiver ").append(receiver)
                    .append(" ended by java.net.SocketException: Socket closed");
        }
        assertEquals(expected.toString(), SharedDatagramReceivers.run());
    }

    @Test
    void a_packet_received_into_again_holds_its_whole_buffer_and_the_lengths_the_program_sets_on_pico_threads() {
        // preemptive: before the fix, sending the empty datagram spun for good on the calling thread
        assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> ValidationAssertions.assertSameResult(ReusedDatagramPackets.class));
    }

    @Test
    void a_packet_received_into_again_holds_its_whole_buffer_when_run_as_compiled() throws Exception {
        assertEquals("""
                received 2 bytes at 0: "hi"
                received 16 bytes at 0: "a longer message"
                received 8 bytes at 0: "mid size"
                received 0 bytes at 0: ""
                received 20 bytes at 0: "the buffer holds twe"
                received 4 bytes at 0: "cut "
                received 2 bytes at 0: "ab"
                received 4 bytes at 0: "agai"
                received 6 bytes at 0: "cut af"
                received 3 bytes at 0: "xyz"
                received 6 bytes at 0: "cut af"
                received 5 bytes at 3: "abcde"
                received 2 bytes at 3: "xy"
                received 5 bytes at 3: "12345"
                a connected send addresses its packet to the peer: true
                a connected send to another address: java.lang.IllegalArgumentException: Connected and packet \
                address differ
                """, ReusedDatagramPackets.run());
    }

    @Test
    void datagram_sockets_answer_their_state_and_fail_on_closed_and_unbound_sockets_as_on_platform_threads()
            throws Exception {
        ValidationAssertions.assertSameResult(DatagramSocketStates.class);
    }

    @Test
    void a_closed_datagram_socket_still_answers_that_it_was_bound_and_connected_when_run_as_compiled()
            throws Exception {
        assertEquals("""
                unbound: bound false, connected false, closed false, local address 0.0.0.0/0.0.0.0, \
                local port 0, has local socket address false, remote null, remote port -1, \
                has remote socket address false
                unbound, closed: bound false, connected false, closed true, local address null, \
                local port -1, has local socket address false, remote null, remote port -1, \
                has remote socket address false
                bound: bound true, connected false, closed false, local address /127.0.0.1, \
                local port ephemeral, has local socket address true, remote null, remote port -1, \
                has remote socket address false
                connected: bound true, connected true, closed false, local address /127.0.0.1, \
                local port ephemeral, has local socket address true, remote /127.0.0.1, \
                remote port the peer's, has remote socket address true
                connected, closed: bound true, connected true, closed true, local address null, \
                local port -1, has local socket address false, remote /127.0.0.1, remote port the peer's, \
                has remote socket address true
                receive: java.net.SocketException: Socket closed
                send: java.net.SocketException: Socket closed
                getSoTimeout: java.net.SocketException: Socket is closed
                bind: java.net.SocketException: Socket is closed
                connect: returned
                disconnect: returned
                connected, closed, disconnected: bound true, connected true, closed true, \
                local address null, local port -1, has local socket address false, remote /127.0.0.1, \
                remote port the peer's, has remote socket address true
                disconnected: bound true, connected false, closed false, local address /127.0.0.1, \
                local port ephemeral, has local socket address true, remote null, remote port -1, \
                has remote socket address false
                bind again: java.net.SocketException: Already bound
                send without an address: java.lang.IllegalArgumentException: Address not set
                connect to null: java.lang.IllegalArgumentException: Address can't be null
                receive with a timeout: java.net.SocketTimeoutException: Receive timed out
                """, DatagramSocketStates.run());
    }
}
