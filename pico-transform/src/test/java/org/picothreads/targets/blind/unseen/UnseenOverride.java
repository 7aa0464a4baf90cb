package org.picothreads.targets.blind.unseen;

import java.util.function.IntUnaryOperator;

/**
 * Interface calls whose blocking override the analysis never saw (it is rewritten separately, see
 * {@code blind.overrides.SleepingStep}, and handed in at run time), so they are not suspension points here. Every
 * class on the way is rewritten: the sleeps below {@link #steps} (a method left without capture code) and below the
 * second loop of {@link #napThenSteps} (a capturing method stopped at a call that is not one of its suspension sites)
 * must block in place (pin) instead of capturing through a frame that would lose its work or run again from its
 * start.
 */
public final class UnseenOverride {
    private UnseenOverride() {
    }

    public static String run(IntUnaryOperator step) throws Exception {
        int[] starts = new int[2];
        String[] results = new String[3];
        Thread caller = new Thread(() -> results[0] = steps(step, starts, 4));
        Thread mixed = new Thread(() -> results[1] = napThenSteps(step, starts, 3)); // suspends in its first nap
        Thread sleeper = new Thread(() -> {
            int naps = 0;
            for (int nap = 0; nap < 5; nap++) {
                naps += nap(1); // suspends
            }
            results[2] = "an ordinary sleeper napped " + naps + " times";
        });
        caller.start();
        mixed.start();
        sleeper.start();
        caller.join();
        mixed.join();
        sleeper.join();
        return results[0] + " after " + starts[0] + " start(s)\n" + results[1] + " after " + starts[1]
                + " start(s)\n" + results[2];
    }

    /** Not a capturing method: the analysis saw no override of applyAsInt that blocks. */
    static String steps(IntUnaryOperator step, int[] starts, int count) {
        starts[0]++;
        int total = 0;
        for (int index = 0; index < count; index++) {
            total += step.applyAsInt(index); // pins: the override is unseen
        }
        return "steps total " + total;
    }

    /** A capturing method (its nap suspends) whose calls of the override are not suspension sites. */
    static String napThenSteps(IntUnaryOperator step, int[] starts, int count) {
        starts[1]++;
        int total = nap(100); // suspends
        for (int index = 0; index < count; index++) {
            total += step.applyAsInt(index); // pins: the override is unseen
        }
        return "nap then steps total " + total;
    }

    static int nap(int value) {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return value;
    }
}
