package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.awaitTermination;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.lang.invoke.MethodHandles;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.runtime.internal.ThreadCalls;

class ThreadDumpTest {

    /**
     * What the transformer emits for {@code void run() { try { Thread.sleep(600_000); } catch (InterruptedException
     * e) { } }}, written by hand, with the marker naming the line of its one resume point, 77.
     */
    @Rewritten(value = {"run()V"}, lines = {"77"})
    static final class MarkedSleeper implements Runnable {
        private static final String RUN = "org/picothreads/runtime/ThreadDumpTest$MarkedSleeper.run()V";
        /** This class's own lookup, which lets it reach the entry points for its own methods. */
        private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

        @SuppressWarnings("unused")
        private static boolean $picothreads$resume(Object receiver, int method) {
            ((MarkedSleeper) receiver).run();
            return false;
        }

        @Override
        public void run() {
            if (Continuation.restoring() != 0) {
                Continuation.resumeChecked(RUN, LOOKUP);
            }
            try {
                ThreadCalls.sleep(600_000);
            } catch (Capture signal) {
                Continuation.captureChecked(this, 0, 0, RUN, LOOKUP);
                throw signal;
            } catch (InterruptedException interrupted) {
                return;
            }
        }
    }

    /** Like {@link MarkedSleeper}, in a class whose marker has no lines, as classes rewritten before them have. */
    @Rewritten({"run()V"})
    static final class UnmarkedSleeper implements Runnable {
        private static final String RUN = "org/picothreads/runtime/ThreadDumpTest$UnmarkedSleeper.run()V";
        /** This class's own lookup, which lets it reach the entry points for its own methods. */
        private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

        @SuppressWarnings("unused")
        private static boolean $picothreads$resume(Object receiver, int method) {
            ((UnmarkedSleeper) receiver).run();
            return false;
        }

        @Override
        public void run() {
            if (Continuation.restoring() != 0) {
                Continuation.resumeChecked(RUN, LOOKUP);
            }
            try {
                ThreadCalls.sleep(600_000);
            } catch (Capture signal) {
                Continuation.captureChecked(this, 0, 0, RUN, LOOKUP);
                throw signal;
            } catch (InterruptedException interrupted) {
                return;
            }
        }
    }

    @Test
    void the_dump_names_each_thread_its_state_and_its_saved_frames_with_their_lines() throws InterruptedException {
        PicoThread marked = new PicoThread(new MarkedSleeper(), "marked sleeper");
        PicoThread unmarked = new PicoThread(new UnmarkedSleeper(), "unmarked sleeper");
        PicoThread joiner = new PicoThread(Script.of(() -> ThreadCalls.join(marked)), "joiner");
        marked.start();
        unmarked.start();
        joiner.start();
        try {
            awaitDumpContaining("\"joiner\" WAITING joining \"marked sleeper\"\n");
            // A thread's saved frames are shown once its capture has unwound, which another carrier may still be
            // doing when the joiner already waits.
            awaitDumpContaining("\n\"marked sleeper\" TIMED_WAITING sleeping\n"
                    + "\tat org.picothreads.runtime.ThreadDumpTest$MarkedSleeper.run(ThreadDumpTest.java:77)\n");
            String dump = awaitDumpContaining("\n\"unmarked sleeper\" TIMED_WAITING sleeping\n\tat ");

            assertTrue(dump.contains("\n\"unmarked sleeper\" TIMED_WAITING sleeping\n"
                    + "\tat org.picothreads.runtime.ThreadDumpTest$UnmarkedSleeper.run(Unknown Source)\n"), dump);
        } finally {
            marked.interrupt();
            unmarked.interrupt();
            awaitTermination(marked, unmarked, joiner);
        }
    }

    @Test
    void a_pico_thread_asking_for_the_dump_sees_itself_running() throws InterruptedException {
        String[] dump = new String[1];
        PicoThread asking = new PicoThread(() -> dump[0] = PicoThreads.dump(), "asking");
        runAll(asking);

        assertTrue(dump[0].contains("\n\"asking\" RUNNABLE running\n"), dump[0]);
    }

    @Test
    void the_dump_header_counts_the_live_threads() throws InterruptedException {
        PicoThread sleeper = new PicoThread(Script.of(Script.sleepUntilInterrupted(600_000)), "counted sleeper");
        sleeper.start();
        try {
            String dump = awaitDumpContaining("\"counted sleeper\" TIMED_WAITING sleeping\n");
            long live = PicoThreads.statistics().liveThreads();

            assertEquals("PicoThreads: " + live + (live == 1 ? " live thread" : " live threads"),
                    dump.substring(0, dump.indexOf('\n')));
        } finally {
            sleeper.interrupt();
            awaitTermination(sleeper);
        }
    }

    /** Asks for the dump until it contains the text, for at most 20 seconds, and returns it. */
    private static String awaitDumpContaining(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String dump = PicoThreads.dump();
        while (!dump.contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            dump = PicoThreads.dump();
        }
        assertTrue(dump.contains(text), dump);
        return dump;
    }
}
