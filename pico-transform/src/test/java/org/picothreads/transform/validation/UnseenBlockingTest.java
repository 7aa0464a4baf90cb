package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.carriers.InterruptsOfJdkWaits;
import org.picothreads.targets.carriers.JdkMonitorHeldByPinnedThread;
import org.picothreads.targets.carriers.NativePipeReadersBeforeWriters;
import org.picothreads.targets.carriers.PipedStreamReadersBeforeWriters;
import org.picothreads.targets.carriers.ProcessWaitersBeforeFeeders;
import org.picothreads.targets.carriers.ScheduledThreadPoolExecutorWithProgramFactory;
import org.picothreads.transform.testing.RuntimeStatistics;

/**
 * Threads that block their carriers where the runtime does not see it (inside the JDK's own synchronized code and
 * waits, in {@code Process.waitFor}, in a blocking native read) while the threads they wait for are still ready:
 * more of them than carriers, so that without the watchdog's compensation the others starve and each target gives up
 * after its limit; with it, each target gives the result worked out for it on platform threads, and the watchdog
 * counts what it compensated.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class UnseenBlockingTest {
    private static final int PAIRS = 8;

    @Test
    void readers_waiting_inside_piped_input_stream_let_the_writers_they_wait_for_run() throws Exception {
        assertGivenAndCompensated(PipedStreamReadersBeforeWriters.class, pairsReadInFull());
    }

    @Test
    void readers_blocked_in_a_native_pipe_read_let_the_writers_they_wait_for_run() throws Exception {
        assertGivenAndCompensated(NativePipeReadersBeforeWriters.class, pairsReadInFull());
    }

    @Test
    void threads_waiting_for_a_jdk_monitor_a_pinned_thread_holds_let_the_thread_that_releases_it_run()
            throws Exception {
        assertGivenAndCompensated(JdkMonitorHeldByPinnedThread.class,
                "the holder held the monitor true and was released; the list has 9 elements, the holder's first:"
                        + " holder; [adder 0, adder 1, adder 2, adder 3, adder 4, adder 5, adder 6, adder 7, holder]");
    }

    @Test
    void threads_waiting_for_processes_let_the_threads_that_feed_the_processes_run() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/cat")), "this needs a cat command");
        assertGivenAndCompensated(ProcessWaitersBeforeFeeders.class, IntStream.range(0, PAIRS)
                .mapToObj(index -> "process " + index + " exited with 0, its feeder fed it")
                .collect(Collectors.joining("\n")));
    }

    @Test
    void workers_of_a_scheduled_pool_with_a_program_factory_waiting_in_its_delay_queue_let_the_others_run()
            throws Exception {
        assertGivenAndCompensated(ScheduledThreadPoolExecutorWithProgramFactory.class,
                "tasks run before their due time [], sum of squares 140, periodic task ran 3 times true,"
                        + " cancelled true, terminated true, threads made by the factory 8");
    }

    @Test
    void a_thread_waiting_inside_the_jdk_is_interrupted_as_a_platform_thread_is() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/cat")), "this needs a cat command");
        assertGivenAndCompensated(InterruptsOfJdkWaits.class, "interrupted by another thread: InterruptedException,"
                + " status then false; interrupted by itself: InterruptedException, status then false;"
                + " waiters alive false");
    }

    /** What the pipe targets give when every reader got its writer's message and none had to be rescued. */
    private static String pairsReadInFull() {
        return IntStream.range(0, PAIRS)
                .mapToObj(pair -> "reader " + pair + " got 'message " + pair + "', writer " + pair + " wrote\n")
                .collect(Collectors.joining()) + "readers rescued by the caller 0";
    }

    /**
     * Asserts that a target gives {@code expected} on platform threads and rewritten, and that the watchdog
     * compensated for at least one carrier blocked in code the runtime does not see meanwhile.
     */
    private static void assertGivenAndCompensated(Class<?> target, String expected) throws Exception {
        RuntimeStatistics before = RuntimeStatistics.now();
        ManyCarriersTest.assertGivenOnPlatformThreadsAndRewritten(target, expected);
        RuntimeStatistics growth = RuntimeStatistics.now().since(before);
        assertTrue(growth.unseenBlocks() > 0, () -> target.getName() + " ran without an unseen block: " + growth);
    }
}
