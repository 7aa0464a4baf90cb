package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.pinning.DeepSleepInForEach;
import org.picothreads.targets.pinning.SleepInForEach;
import org.picothreads.transform.testing.SourceLines;
import org.picothreads.transform.testing.TransformedChildJvm;

/** Blocking under a JDK frame that was not rewritten pins, is counted apart, and is traced once per call site. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PinningTraceTest {

    @Test
    void a_lambda_sleeping_inside_list_for_each_pins_each_time_and_is_traced_once_with_its_stack() throws Exception {
        TransformedChildJvm.Result run = TransformedChildJvm.run(SleepInForEach.class,
                List.of("-Dpicothreads.tracePinned=true"));

        assertEquals(0, run.exitCode(), run::errors);
        assertEquals("slept 123, pinned blocks 3, foreign frame pins 3\n", run.output());
        String site = SleepInForEach.class.getName() + ".nap(SleepInForEach.java:"
                + SourceLines.lineOf(SleepInForEach.class, "site: nap") + ")";
        String trace = run.errors();
        assertTrue(trace.startsWith("PicoThreads: thread \"for-each-sleeper\" pinned at " + site + " because "), trace);
        assertTrue(trace.lines().findFirst().orElseThrow().endsWith(" was not rewritten"), trace);
        assertEquals(1, trace.split("PicoThreads: ", -1).length - 1, trace);
        assertTrue(trace.contains("\tat " + site + "\n"), trace);
        assertTrue(trace.lines().anyMatch(line -> line.startsWith("\tat java.") && line.contains(".forEach(")), trace);
    }

    @Test
    void a_jdk_frame_far_below_the_first_batch_that_shallow_walks_taught_the_check_still_pins() throws Exception {
        TransformedChildJvm.Result run = TransformedChildJvm.run(DeepSleepInForEach.class, List.of());

        assertEquals(0, run.exitCode(), run::errors);
        assertEquals("slept 111 23, pinned blocks 2, foreign frame pins 2\n", run.output());
    }

    @Test
    void without_the_trace_property_pinning_prints_nothing() throws Exception {
        TransformedChildJvm.Result run = TransformedChildJvm.run(SleepInForEach.class, List.of());

        assertEquals(0, run.exitCode(), run::errors);
        assertEquals("slept 123, pinned blocks 3, foreign frame pins 3\n", run.output());
        assertEquals("", run.errors());
    }
}
