package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.deadlock.JoinCycles;
import org.picothreads.transform.testing.SourceLines;
import org.picothreads.transform.testing.TransformedChildJvm;

/**
 * A transformed program whose PicoThreads deadlock is stopped with a dump of their logical stacks and exit status
 * 1, instead of hanging.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DeadlockDetectionTest {
    private static final String OWNER = JoinCycles.class.getName();

    @Test
    void threads_joining_in_a_cycle_are_dumped_with_their_frames_and_lines_and_the_jvm_exits_with_status_1()
            throws Exception {
        TransformedChildJvm.Result run = TransformedChildJvm.run(JoinCycles.class, List.of());

        assertEquals(1, run.exitCode(), run::errors);
        assertEquals("", run.output());
        assertTrue(run.elapsedMillis() < 30_000, () -> "exited after " + run.elapsedMillis() + " ms");
        String dump = run.errors();
        assertTrue(dump.startsWith("PicoThreads: deadlock: 4 threads are blocked and nothing can wake them\n"), dump);
        assertEntry(dump, "first", "joining \"second\"",
                frame("joinQuietly", "joinQuietly"), lambdaFrame("first lambda"));
        assertEntry(dump, "second", "joining \"first\"",
                frame("joinQuietly", "joinQuietly"), lambdaFrame("second lambda"));
        assertEntry(dump, "latch-waiter", "joining \"latch-waiter\"", frame("awaitForever", "awaitForever"));
        assertEntry(dump, "dependent", "joining \"latch-waiter\"",
                frame("joinQuietly", "joinQuietly"), lambdaFrame("dependent lambda"));
    }

    @Test
    void a_deadlock_left_behind_when_main_returns_ends_the_jvm_with_the_configured_status() throws Exception {
        TransformedChildJvm.Result run = TransformedChildJvm.run(JoinCycles.class,
                List.of("-Dpicothreads.deadlockExitStatus=42"), "return");

        assertEquals(42, run.exitCode(), run::errors);
        assertTrue(run.errors().startsWith("PicoThreads: deadlock: 4 threads are blocked and nothing can wake them\n"),
                run::errors);
    }

    /** Asserts that the dump holds a thread's entry: its header line, then its frames, innermost first. */
    private static void assertEntry(String dump, String name, String waitsFor, String... framePatterns) {
        StringBuilder pattern = new StringBuilder(Pattern.quote("\n\"" + name + "\" WAITING " + waitsFor + "\n"));
        for (String frame : framePatterns) {
            pattern.append("\tat ").append(frame).append("\n");
        }
        assertTrue(Pattern.compile(pattern.toString()).matcher(dump).find(),
                () -> "no entry " + pattern + " in\n" + dump);
    }

    /** The pattern of a frame of a named method, at the line that carries the marker. */
    private static String frame(String method, String marker) throws Exception {
        return Pattern.quote(OWNER + "." + method + "(JoinCycles.java:"
                + SourceLines.lineOf(JoinCycles.class, "frame: " + marker) + ")");
    }

    /** The pattern of a frame of a lambda body in main, whose synthetic method javac numbers, at the marked line. */
    private static String lambdaFrame(String marker) throws Exception {
        return Pattern.quote(OWNER + ".lambda$main$") + "\\d+" + Pattern.quote("(JoinCycles.java:"
                + SourceLines.lineOf(JoinCycles.class, "frame: " + marker) + ")");
    }
}
