package org.picothreads.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.picothreads.targets.net.lookup.ConnectByHostName;
import org.picothreads.targets.net.lookup.NameLookupsInThreads;
import org.picothreads.transform.testing.ValidationAssertions;

class NameLookupValidationTest {
    @Test
    void fifty_threads_resolving_localhost_and_a_literal_get_the_same_addresses_on_pico_threads() throws Exception {
        ValidationAssertions.assertSameResult(NameLookupsInThreads.class);
    }

    @Test
    void every_thread_gets_the_loopback_address_and_its_own_offloaded_result_when_run_as_compiled()
            throws Exception {
        String result = NameLookupsInThreads.run();
        assertEquals("{localhost localhost/127.0.0.1, all [127.0.0.1], literal 127.0.0.1 loopback true,"
                + " offloaded N, disk K unreadable=50}; correct offloads 50; local host ",
                result.substring(0, result.lastIndexOf(' ') + 1));
    }

    @Test
    void thirty_threads_connecting_to_localhost_by_name_suspend_for_the_lookup_instead_of_pinning_with_the_same_answers()
            throws Exception {
        ValidationAssertions.assertSameResult(ConnectByHostName.class);
    }

    @Test
    void every_thread_connecting_by_name_gets_its_answer_and_an_unknown_host_fails_as_compiled() throws Exception {
        assertEquals("30 correct answers {}; UnknownHostException naming the host", ConnectByHostName.run());
    }
}
