package example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StreamsTest {
    @Test
    void threads_round_trip_text_and_numbers_through_java_io_on_pico_threads() throws Exception {
        assertEquals("line 0/line 1 0; total 450 on org.picothreads.runtime.PicoThread", Streams.run(10));
    }
}
