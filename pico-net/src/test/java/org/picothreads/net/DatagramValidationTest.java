package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.net.datagram.DatagramEcho;
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
}
