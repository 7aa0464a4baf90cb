package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.runtime.PicoThreads;
import org.picothreads.targets.dump.OwnDumpAfterResume;
import org.picothreads.targets.dump.RunningThreadDumped;
import org.picothreads.targets.dump.SleepingCrowd;
import org.picothreads.transform.testing.SourceLines;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;

/** {@link PicoThreads#dump()} on a live transformed program: what each of its many threads is doing, and where. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ThreadDumpTest {
    private static final int SLEEPERS = 2_000;

    @Test
    void the_dump_of_two_thousand_sleeping_threads_shows_each_sleeping_at_its_source_line() throws Exception {
        Class<?> crowd = TransformingClassLoader.forPackages(SleepingCrowd.class.getPackageName() + ".")
                .transformedCopyOf(SleepingCrowd.class);
        String napFrame = "\tat " + SleepingCrowd.class.getName() + ".nap(SleepingCrowd.java:"
                + SourceLines.lineOf(SleepingCrowd.class, "frame: nap") + ")\n";
        Object threads = TargetRunner.callStatic(crowd, "start", new Class<?>[] {int.class}, SLEEPERS);
        try {
            String dump = awaitSleepers(napFrame);

            for (int index : new int[] {0, 1, SLEEPERS / 2, SLEEPERS - 1}) {
                assertTrue(dump.contains("\n\"sleeper-" + index + "\" TIMED_WAITING sleeping\n" + napFrame), dump);
            }
            assertEquals(SLEEPERS, occurrences(dump, "\" TIMED_WAITING sleeping\n" + napFrame));
        } finally {
            TargetRunner.callStatic(crowd, "stop", new Class<?>[] {Thread[].class}, threads);
        }
    }

    @Test
    void a_thread_taking_the_dump_after_a_lazy_resume_shows_its_running_frames_then_its_saved_ones() throws Exception {
        Class<?> dumper = TransformingClassLoader.forPackages(OwnDumpAfterResume.class.getPackageName() + ".")
                .transformedCopyOf(OwnDumpAfterResume.class);
        String owner = OwnDumpAfterResume.class.getName();
        String expected = "\"dumper\" RUNNABLE running\n"
                + "\tat " + owner + ".inner(OwnDumpAfterResume.java:" + lineOf("frame: inner") + ")\n"
                + "\tat " + owner + ".middle(OwnDumpAfterResume.java:" + lineOf("frame: middle") + ")\n"
                + "\tat " + owner + ".outer(OwnDumpAfterResume.java:" + lineOf("frame: outer") + ")\n";

        String entry = (String) TargetRunner.callStatic(dumper, "run", new Class<?>[0]);

        // below outer: the thread's lambda, saved with it, at the line that starts the thread
        assertTrue(entry.startsWith(expected), entry);
        assertTrue(entry.contains("\tat " + owner + ".lambda$run$0(OwnDumpAfterResume.java:"), entry);
    }

    @Test
    void a_thread_running_on_a_carrier_shows_its_running_frames_then_its_saved_ones() throws Exception {
        Class<?> target = TransformingClassLoader.forPackages(RunningThreadDumped.class.getPackageName() + ".")
                .transformedCopyOf(RunningThreadDumped.class);
        String owner = RunningThreadDumped.class.getName();
        String spin = frame(owner, "descendAndSpin", "frame: spin");
        String descend = frame(owner, "descendAndSpin", "frame: descendAndSpin");
        String resumed = frame(owner, "sleepThenSpin", "frame: resumed");
        String sleep = frame(owner, "sleepThenSpin", "frame: sleepThenSpin");

        String entry = (String) TargetRunner.callStatic(target, "run", new Class<?>[0]);

        assertTrue(entry.startsWith("\"spinner\" RUNNABLE running\n"), entry);
        // the JDK's frames may stand on top of the spinning one, as in a platform thread's trace
        String own = entry.substring(entry.indexOf(spin));
        assertTrue(own.startsWith(spin + descend + descend + resumed + sleep + sleep + "\tat " + owner + ".lambda$run$0("
                + "RunningThreadDumped.java:" + SourceLines.lineOf(RunningThreadDumped.class, "frame: lambda") + ")\n"),
                entry);
    }

    private static String frame(String owner, String method, String marker) throws Exception {
        return "\tat " + owner + "." + method + "(RunningThreadDumped.java:"
                + SourceLines.lineOf(RunningThreadDumped.class, marker) + ")\n";
    }

    private static int lineOf(String marker) throws Exception {
        return SourceLines.lineOf(OwnDumpAfterResume.class, marker);
    }

    /**
     * Takes dumps until every sleeper sleeps with its saved frame shown, for at most 30 seconds, and returns the
     * last. A thread is already sleeping while its capture still unwinds on its carrier, and its frames are shown once
     * that is done, so waiting for the state alone raced with the last captures.
     */
    private static String awaitSleepers(String napFrame) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String dump = PicoThreads.dump();
        while (occurrences(dump, "\" TIMED_WAITING sleeping\n" + napFrame) < SLEEPERS && System.nanoTime() < deadline) {
            Thread.sleep(20);
            dump = PicoThreads.dump();
        }
        return dump;
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
