package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.picothreads.runtime.PicoTesting.runAll;

import org.junit.jupiter.api.Test;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
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
    static final class RewrittenCounter implements Runnable {
        private static final String OWNER = "org/picothreads/runtime/ContinuationProtocolTest$RewrittenCounter";
        private static final String RUN = OWNER + ".run()V";
        private static final String STEP = OWNER + ".step(ID)J";

        String result;

        @Override
        public void run() {
            String label = "sum";
            long total = 0;
            int i = 0;
            if (Continuation.restoring != 0) {
                Frame frame = Continuation.resume(RUN);
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
                    Frame frame = Continuation.capture(RUN, 0, 1, 2);
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
            if (Continuation.restoring != 0) {
                Frame frame = Continuation.resume(STEP);
                if (frame != null) {
                    i = frame.popInt();
                    scale = frame.popDouble();
                }
            }
            try {
                ThreadCalls.sleep(1);
            } catch (Capture signal) {
                Frame frame = Continuation.capture(STEP, 0, 0, 2);
                frame.pushInt(i);
                frame.pushDouble(scale);
                throw signal;
            } catch (InterruptedException interrupted) {
                throw new IllegalStateException(interrupted);
            }
            return (long) (i * 10 * scale);
        }
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
