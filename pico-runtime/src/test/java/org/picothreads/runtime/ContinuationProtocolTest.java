package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.lang.invoke.MethodHandles;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.runtime.internal.ThreadCalls;

class ContinuationProtocolTest {

    /**
     * What the transformer emits, written by hand, for
     * <pre>
     * void run() {
     *     String label = "sum";
     *     long total = 0;
     *     for (int i = 0; i &lt; 3; i++) total += step(i, 1.5);
     *     result = label + "=" + total;
     * }
     * long step(int i, double scale) { for (int n = 0; n &lt; naps; n++) Thread.sleep(1); return (long) (i * 10 * scale); }
     * </pre>
     */
    @Rewritten({"run()V", "step(ID)J"})
    static final class RewrittenCounter implements Runnable {
        private static final String OWNER = "org/picothreads/runtime/ContinuationProtocolTest$RewrittenCounter";
        private static final String RUN = OWNER + ".run()V";
        private static final String STEP = OWNER + ".step(ID)J";
        /** This class's own lookup, which lets it reach the entry points for its own methods. */
        private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
        /** run() saves one reference and two primitives at its call; step() three primitives at its own. */
        private static final long RUN_SAVES = 1L << 48 | 2L << 32;
        private static final long STEP_SAVES = 3L << 32;
        private static final int STEP_INDEX = 1;

        private final int naps;
        String result;

        RewrittenCounter(int naps) {
            this.naps = naps;
        }

        /**
         * The resume entry: re-enters run() (method 0) or step() (method 1) with default arguments; stops the capture
         * signal and answers true when the method is captured again, as the transformer's entries do.
         */
        @SuppressWarnings("unused")
        private static boolean $picothreads$resume(Object receiver, int method) {
            RewrittenCounter counter = (RewrittenCounter) receiver;
            try {
                if (method == 0) {
                    counter.run();
                } else {
                    Continuation.returned(counter.step(0, 0), 'J');
                }
                return false;
            } catch (Capture signal) {
                return true;
            }
        }

        @Override
        public void run() {
            String label = "sum";
            long total = 0;
            int i = 0;
            Frame frame = null;
            if (Continuation.restoring() != 0) {
                frame = Continuation.resumeChecked(RUN, LOOKUP);
                if (frame != null) {
                    total = frame.popLong();
                    i = frame.popInt();
                    label = (String) frame.popObject();
                }
            }
            for (; i < 3; i++) {
                long value;
                try {
                    value = frame != null ? Continuation.resultLong() : step(i, 1.5);
                } catch (Capture signal) {
                    Frame saved = Continuation.captureChecked(this, 0, RUN_SAVES, RUN, LOOKUP);
                    saved.pushLong(total);
                    saved.pushInt(i);
                    saved.pushObject(label);
                    throw signal;
                }
                frame = null;
                total += value;
            }
            result = label + "=" + total;
        }

        long step(int i, double scale) {
            int nap = 0;
            if (Continuation.restoring() != 0) {
                Frame frame = Continuation.resumeChecked(STEP, LOOKUP);
                if (frame != null) {
                    i = frame.popInt();
                    scale = frame.popDouble();
                    nap = frame.popInt();
                }
            }
            for (; nap < naps; nap++) {
                try {
                    ThreadCalls.sleep(1);
                } catch (Capture signal) {
                    Frame saved = Continuation.captureChecked(this, STEP_INDEX << 16, STEP_SAVES, STEP, LOOKUP);
                    saved.pushInt(i);
                    saved.pushDouble(scale);
                    saved.pushInt(nap);
                    throw signal;
                } catch (InterruptedException interrupted) {
                    throw new IllegalStateException(interrupted);
                }
            }
            return (long) (i * 10 * scale);
        }
    }

    /** Follows the protocol by hand, but resumes its one saved activation twice. */
    @Rewritten({"run()V"})
    static final class ResumesTwice implements Runnable {
        private static final String RUN = "org/picothreads/runtime/ContinuationProtocolTest$ResumesTwice.run()V";
        /** This class's own lookup, which lets it reach the entry points for its own methods. */
        private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

        int runs;

        /** The resume entry: re-enters run(), and lets the capture signal through, which the runtime stops. */
        @SuppressWarnings("unused")
        private static boolean $picothreads$resume(Object receiver, int method) {
            ((ResumesTwice) receiver).run();
            return false;
        }

        @Override
        public void run() {
            runs++;
            if (Continuation.restoring() != 0 && Continuation.resumeChecked(RUN, LOOKUP) != null) {
                Continuation.resumeChecked(RUN, LOOKUP);
            }
            try {
                ThreadCalls.sleep(1);
            } catch (Capture signal) {
                Continuation.captureChecked(this, 0, 0, RUN, LOOKUP);
                throw signal;
            } catch (InterruptedException interrupted) {
                throw new IllegalStateException(interrupted);
            }
        }

        /** Asks for the entry point on behalf of another method, with this class's own lookup. */
        static Frame resumeFor(String method) {
            return Continuation.resumeChecked(method, LOOKUP);
        }
    }

    /**
     * Sleeps once; resumed, throws the capture signal without arranging a wake-up, as a frame that was not rewritten
     * lets it through. Its resume entry stops the signal and answers true, as the transformer's do, or lets it
     * through to the runtime, as a hand-written one may.
     */
    @Rewritten({"run()V"})
    static final class EscapesAfterResume implements Runnable {
        private static final String RUN = "org/picothreads/runtime/ContinuationProtocolTest$EscapesAfterResume.run()V";
        /** This class's own lookup, which lets it reach the entry points for its own methods. */
        private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

        /** Whether the resume entry stops the signal. */
        private final boolean entryStopsSignal;
        int runs;

        EscapesAfterResume(boolean entryStopsSignal) {
            this.entryStopsSignal = entryStopsSignal;
        }

        @SuppressWarnings("unused")
        private static boolean $picothreads$resume(Object receiver, int method) {
            EscapesAfterResume escaping = (EscapesAfterResume) receiver;
            if (!escaping.entryStopsSignal) {
                escaping.run();
                return false;
            }
            try {
                escaping.run();
                return false;
            } catch (Capture signal) {
                return true;
            }
        }

        @Override
        public void run() {
            runs++;
            if (Continuation.restoring() != 0 && Continuation.resumeChecked(RUN, LOOKUP) != null) {
                throw Capture.SIGNAL;
            }
            try {
                ThreadCalls.sleep(1);
            } catch (Capture signal) {
                Continuation.captureChecked(this, 0, 0, RUN, LOOKUP);
                throw signal;
            } catch (InterruptedException interrupted) {
                throw new IllegalStateException(interrupted);
            }
        }
    }

    @Test
    void a_class_without_the_marker_gets_a_clear_error_from_the_entry_points() {
        IllegalCallerException refused = assertThrows(IllegalCallerException.class,
                () -> Continuation.resumeChecked(RewrittenCounter.RUN, MethodHandles.lookup()));
        assertEquals("PicoThreads: " + ContinuationProtocolTest.class.getName() + " may not call Continuation.resume for "
                + RewrittenCounter.RUN + ": the class was not rewritten by PicoThreads", refused.getMessage());
        assertThrows(IllegalCallerException.class,
                () -> Continuation.captureChecked(null, 0, 0, RewrittenCounter.RUN, MethodHandles.lookup()));
    }

    @Test
    void a_marked_class_reaches_only_the_saved_activations_of_its_own_methods() {
        IllegalCallerException refused = assertThrows(IllegalCallerException.class,
                () -> ResumesTwice.resumeFor(RewrittenCounter.STEP));
        assertEquals("PicoThreads: " + ResumesTwice.class.getName() + " may not call Continuation.resume for "
                + RewrittenCounter.STEP + ": a class reaches only the saved activations of its own rewritten methods",
                refused.getMessage());
    }

    @Test
    void a_saved_activation_is_restored_at_most_once() throws InterruptedException {
        ResumesTwice twice = new ResumesTwice();
        Throwable[] failure = new Throwable[1];
        PicoThread thread = new PicoThread(twice, "resumes twice");
        thread.setUncaughtExceptionHandler((dying, exception) -> failure[0] = exception);
        runAll(thread);
        assertEquals(2, twice.runs);
        assertEquals(IllegalStateException.class, failure[0].getClass());
        assertTrue(failure[0].getMessage().startsWith("PicoThreads: " + ResumesTwice.RUN
                + " was entered while restoring, but every saved frame of "), failure[0].getMessage());
        assertTrue(failure[0].getMessage().endsWith(" was already restored"), failure[0].getMessage());
    }

    @Test
    void a_resume_reenters_the_innermost_frame_and_hands_its_value_to_the_next() throws InterruptedException {
        RewrittenCounter counter = new RewrittenCounter(1);
        PicoThread thread = new PicoThread(counter);
        PicoThreads.Statistics before = PicoThreads.statistics();
        runAll(thread);
        PicoThreads.Statistics after = PicoThreads.statistics();

        assertEquals("sum=45", counter.result);
        assertEquals(3, after.suspensions() - before.suspensions());
        assertEquals(3, after.resumes() - before.resumes());
        // Each suspension saved step() and run(), and each resume re-entered step(), then continued run() with its value.
        assertEquals(6, after.activationsSaved() - before.activationsSaved());
        assertEquals(6, after.activationsRestored() - before.activationsRestored());
    }

    @Test
    void a_capture_saves_only_the_frames_that_ran_since_the_resume() throws InterruptedException {
        RewrittenCounter counter = new RewrittenCounter(4);
        PicoThread thread = new PicoThread(counter);
        PicoThreads.Statistics before = PicoThreads.statistics();
        runAll(thread);
        PicoThreads.Statistics after = PicoThreads.statistics();

        assertEquals("sum=45", counter.result);
        assertEquals(12, after.suspensions() - before.suspensions());
        // Per step: the first nap saves step() and run(); the three others only step(), run() staying saved; the
        // resumes re-enter step() four times and run() once.
        assertEquals(3 * (2 + 3), after.activationsSaved() - before.activationsSaved());
        assertEquals(3 * (4 + 1), after.activationsRestored() - before.activationsRestored());
    }

    @Test
    void rewritten_code_called_on_a_platform_thread_runs_without_suspending() {
        RewrittenCounter counter = new RewrittenCounter(2);
        counter.run();
        assertEquals("sum=45", counter.result);
    }

    @Test
    void a_signal_a_resume_entry_stops_or_lets_through_is_never_taken_for_a_return() throws InterruptedException {
        for (boolean entryStopsSignal : new boolean[] {true, false}) {
            EscapesAfterResume escaping = new EscapesAfterResume(entryStopsSignal);
            Throwable[] failure = new Throwable[1];
            PicoThread thread = new PicoThread(escaping, "escaping after a resume");
            thread.setUncaughtExceptionHandler((dying, exception) -> failure[0] = exception);
            runAll(thread);
            assertEquals(2, escaping.runs);
            assertEquals(IllegalStateException.class, failure[0] == null ? null : failure[0].getClass(),
                    "entry stops the signal: " + entryStopsSignal);
            assertEquals("PicoThreads: thread \"escaping after a resume\" threw the capture signal without arranging"
                    + " to be woken; a frame that was not rewritten let it through", failure[0].getMessage());
        }
    }

    @Test
    void a_capture_signal_without_a_wake_up_ends_the_thread_with_a_clear_error() throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        PicoThread thread = new PicoThread(() -> {
            throw Capture.SIGNAL;
        }, "escaping");
        thread.setUncaughtExceptionHandler((dying, exception) -> failure[0] = exception);
        runAll(thread);
        assertEquals(IllegalStateException.class, failure[0].getClass());
        assertEquals("PicoThreads: thread \"escaping\" threw the capture signal without arranging to be woken;"
                + " a frame that was not rewritten let it through", failure[0].getMessage());
    }
}
