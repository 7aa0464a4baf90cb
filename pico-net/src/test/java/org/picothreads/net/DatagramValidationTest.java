package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.net.datagram.DatagramEcho;
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
}
