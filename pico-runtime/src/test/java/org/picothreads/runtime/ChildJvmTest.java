package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildJvmTest {

    private static String runOrder(List<String> jvmOptions, String... arguments)
            throws IOException, InterruptedException {
        String[] all = new String[arguments.length + 1];
        all[0] = "order";
        System.arraycopy(arguments, 0, all, 1, arguments.length);
        List<String> oneCarrier = new ArrayList<>(jvmOptions);
        oneCarrier.add("-Dpicothreads.carriers=1"); // the policies order threads exactly on one carrier
        ChildJvm.Result result = ChildJvm.run(oneCarrier, all);
        assertEquals(0, result.exitCode(), result::errors);
        return result.output().trim();
    }

    @Test
    void fifo_policy_runs_threads_in_start_order() throws IOException, InterruptedException {
        assertEquals("order [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]", runOrder(List.of("-Dpicothreads.scheduler=fifo")));
    }

    @Test
    void lifo_policy_configured_through_the_api_runs_the_last_started_thread_first()
            throws IOException, InterruptedException {
        assertEquals("order [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]", runOrder(List.of(), "LIFO", "0"));
    }

    @Test
    void random_policy_is_reproducible_for_a_seed_and_differs_for_another() throws IOException, InterruptedException {
        String first = runOrder(List.of("-Dpicothreads.scheduler=random", "-Dpicothreads.seed=1"));
        String again = runOrder(List.of("-Dpicothreads.scheduler=random", "-Dpicothreads.seed=1"));
        String otherSeed = runOrder(List.of(), "RANDOM", "2");

        assertEquals(first, again);
        assertNotEquals(first, otherSeed);
        assertNotEquals("order [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]", first);
        for (String order : List.of(first, otherSeed)) {
            for (int number = 0; number < 10; number++) {
                assertTrue(order.contains(String.valueOf(number)), order);
            }
            assertEquals(10, order.split(",").length, order);
        }
    }

    @Test
    void an_unknown_policy_property_fails_the_first_start_with_a_clear_message()
            throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of("-Dpicothreads.scheduler=round-robin"), "order");
        assertEquals(1, result.exitCode());
        assertTrue(result.errors().contains(
                "picothreads.scheduler must be fifo, lifo or random, not 'round-robin'"), result.errors());
    }

    @Test
    void a_live_non_daemon_pico_thread_keeps_the_jvm_running_after_main_returns()
            throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of(), "non-daemon");
        assertEquals(0, result.exitCode(), result::errors);
        assertEquals(List.of("created after the scheduler booted: Thread-1", "main returns", "sleeper Thread-0 woke"),
                result.output().lines().toList());
        assertEquals("", result.errors());
    }

    @Test
    void the_jvm_exits_when_main_returns_and_only_daemon_pico_threads_remain()
            throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of(), "daemon");
        assertEquals(0, result.exitCode(), result::errors);
        assertEquals(List.of("main returns"), result.output().lines().toList());
        assertTrue(result.elapsedMillis() < 20_000);
        assertFalse(result.output().contains("woke"));
    }

    @Test
    void an_uncaught_exception_is_printed_by_the_thread_group_like_the_jvm_does()
            throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of(), "uncaught");
        assertEquals(0, result.exitCode(), result::errors);
        assertEquals("joined", result.output().trim());
        assertTrue(result.errors().startsWith("Exception in thread \"Thread-0\" java.lang.IllegalStateException: boom"),
                result.errors());
    }

    @Test
    void a_suspended_pico_thread_retains_less_than_500_bytes_on_jdk_21_and_later()
            throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of("-Xmx1g", "-XX:+UseSerialGC"), "footprint", "50000");
        assertEquals(0, result.exitCode(), result::errors);
        String line = result.output().lines().filter(each -> each.startsWith("bytes per suspended thread ")).findFirst()
                .orElseThrow();
        long bytes = Long.parseLong(line.substring("bytes per suspended thread ".length()));
        // JDK 17's Thread carries two 128-byte @Contended paddings and an AccessControlContext; see docs/runtime.md.
        long limit = Runtime.version().feature() >= 21 ? 500 : 750;
        assertTrue(bytes > 100 && bytes < limit, line);
    }
}
