package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.net.channels.ChannelEcho;
import org.picothreads.transform.testing.ValidationAssertions;

class ChannelValidationTest {
    @Test
    void echo_over_blocking_socket_channels_gives_the_same_replies_on_pico_threads() throws Exception {
        ValidationAssertions.assertSameResult(ChannelEcho.class);
    }

    @Test
    void echo_over_blocking_socket_channels_returns_every_message_when_run_as_compiled() throws Exception {
        String result = ChannelEcho.run();
        assertEquals("100 connections, 100 correct echoes, 201690 bytes, server blocking true,"
                + " first hello over a channel from client 0, last hello over a channel from client 99 ",
                result.substring(0, result.indexOf(" 99 ") + 4));
    }
}
