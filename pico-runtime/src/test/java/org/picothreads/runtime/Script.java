package org.picothreads.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.picothreads.runtime.internal.ThreadCalls;

/**
 * A hand-written resumable Runnable that follows the protocol rewritten code follows: its steps run in order,
 * each exactly once, except that a step which suspends (its blocking call threw the capture signal) runs again
 * when the scheduler restores the thread, so that the blocking call is re-invoked and completes.
 *
 * <p>The index of the next step plays the part of a rewritten frame's saved resume point; a step must therefore
 * do nothing before its blocking call that it would mind repeating.
 */
final class Script implements Runnable {
    /** One step; may call one blocking method, last. */
    interface Step {
        void run() throws Exception;
    }

    private final Step[] steps;
    /** The step to run next, kept across a suspension. */
    private int next;

    private Script(Step[] steps) {
        this.steps = steps;
    }

    static Script of(Step... steps) {
        return new Script(steps.clone());
    }

    static Script of(List<Step> steps) {
        return new Script(steps.toArray(new Step[0]));
    }

    /** The steps {@code body} returns for 0, 1, ... count-1, concatenated. */
    static List<Step> repeat(int count, IntFunction<List<Step>> body) {
        List<Step> steps = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            steps.addAll(body.apply(index));
        }
        return steps;
    }

    static List<Step> steps(Step... steps) {
        return Arrays.asList(steps);
    }

    /** A step that sleeps and, if interrupted, just stops sleeping. */
    static Step sleepUntilInterrupted(long millis) {
        return () -> {
            try {
                ThreadCalls.sleep(millis);
            } catch (InterruptedException woken) {
                return;
            }
        };
    }

    @Override
    public void run() {
        while (next < steps.length) {
            try {
                steps[next].run();
            } catch (RuntimeException failure) {
                throw failure;
            } catch (Exception unexpected) {
                throw new IllegalStateException("step " + next + " failed", unexpected);
            }
            next++;
        }
    }
}
