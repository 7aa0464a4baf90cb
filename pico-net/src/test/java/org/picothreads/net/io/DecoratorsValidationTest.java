package org.picothreads.net.io;

import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.io.data.DataStreamsOverSlowStream;
import org.picothreads.targets.io.locks.SharedWriterLocks;
import org.picothreads.targets.io.readers.ReadersOverSlowStream;
import org.picothreads.targets.io.writers.WritersOverSlowStream;

class DecoratorsValidationTest {
    @Test
    void readers_over_a_slow_stream_give_the_same_lines_and_characters_and_never_pin() throws Exception {
        assertSameResult(ReadersOverSlowStream.class);
    }

    @Test
    void writers_and_print_streams_over_a_slow_stream_write_the_same_bytes_and_never_pin() throws Exception {
        assertSameResult(WritersOverSlowStream.class);
    }

    @Test
    void data_pushback_and_buffered_streams_over_a_slow_stream_read_back_every_value_and_never_pin() throws Exception {
        assertSameResult(DataStreamsOverSlowStream.class);
    }

    @Test
    void a_program_locking_the_objects_a_writer_chain_locks_is_excluded_and_woken_as_on_platform_threads()
            throws Exception {
        assertSameResult(SharedWriterLocks.class);
    }
}
