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
     * long step(int i, double scale) { Thread.sleep(1); return (long) (i * 10 * scale); }
     * </pre>
     */
    @Rewritten({"run()V", "step(ID)J"})
    static final class RewrittenCounter implements Runnable {
        private static final String OWNER = "org/picothreads/runtime/ContinuationProtocolTest$RewrittenCounter";
        private static final String RUN = OWNER + ".run()V";
        private static final String STEP = OWNER + ".step(ID)J";
        /** This class's own lookup, which lets it reach the entry points for its own methods. */
        private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

        String result;

        @Override
        public void run() {
            String label = "sum";
            long total = 0;
            int i = 0;
            if (Continuation.restoring() != 0) {
                Frame frame = Continuation.resumeChecked(RUN, LOOKUP);
                if (frame != null) {
                    total = frame.popLong();
                    i = frame.popInt();
                    label = (String) frame.popObject();
                }
            }
            for (; i < 3; i++) {
                long value;
                try {
                    value = step(i, 1.5);
                } catch (Capture signal) {
                    Frame frame = Continuation.captureChecked(0, 1, 2, RUN, LOOKUP);
                    frame.pushLong(total);
                    frame.pushInt(i);
                    frame.pushObject(label);
                    throw signal;
                }
                total += value;
            }
            result = label + "=" + total;
        }

        long step(int i, double scale) {
            if (Continuation.restoring() != 0) {
                Frame frame = Continuation.resumeChecked(STEP, LOOKUP);
                if (frame != null) {
                    i = frame.popInt();
                    scale = frame.popDouble();
                }
            }
            try {
                ThreadCalls.sleep(1);
            } catch (Capture signal) {
                Frame frame = Continuation.captureChecked(0, 0, 2, STEP, LOOKUP);
                frame.pushInt(i);
                frame.pushDouble(scale);
                throw signal;
            } catch (InterruptedException interrupted) {
                throw new IllegalStateException(interrupted);
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

        @Override
        public void run() {
            runs++;
            if (Continuation.restoring() != 0 && Continuation.resumeChecked(RUN, LOOKUP) != null) {
                Continuation.resumeChecked(RUN, LOOKUP);
            }
            try {
                ThreadCalls.sleep(1);
            } catch (Capture signal) {
                Continuation.captureChecked(0, 0, 0, RUN, LOOKUP);
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

    @Test
    void a_class_without_the_marker_gets_a_clear_error_from_the_entry_points() {
        IllegalCallerException refused = assertThrows(IllegalCallerException.class,
                () -> Continuation.resumeChecked(RewrittenCounter.RUN, MethodHandles.lookup()));
        assertEquals("PicoThreads: " + ContinuationProtocolTest.class.getName() + " may not call Continuation.resume for "
                + RewrittenCounter.RUN + ": the class was not rewritten by PicoThreads", refused.getMessage());
        assertThrows(IllegalCallerException.class,
                () -> Continuation.captureChecked(0, 0, 0, RewrittenCounter.RUN, MethodHandles.lookup()));
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
    void captured_frames_are_restored_outermost_first_with_their_values() throws InterruptedException {
        RewrittenCounter counter = new RewrittenCounter();
        PicoThread thread = new PicoThread(counter);
        PicoThreads.Statistics before = PicoThreads.statistics();
        runAll(thread);
        PicoThreads.Statistics after = PicoThreads.statistics();

        assertEquals("sum=45", counter.result);
        assertEquals(3, after.suspensions() - before.suspensions());
        assertEquals(3, after.resumes() - before.resumes());
    }

    @Test
    void rewritten_code_called_on_a_platform_thread_runs_without_suspending() {
        RewrittenCounter counter = new RewrittenCounter();
        counter.run();
        assertEquals("sum=45", counter.result);
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
