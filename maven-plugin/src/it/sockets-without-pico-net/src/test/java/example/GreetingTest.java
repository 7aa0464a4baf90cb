package example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GreetingTest {
    @Test
    void a_pico_thread_sends_a_line_through_the_jdk_s_sockets() throws Exception {
        assertEquals("hello from org.picothreads.runtime.PicoThread", Greeting.run());
    }
}
