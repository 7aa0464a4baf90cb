package org.picothreads.targets.dump;

import java.util.concurrent.atomic.AtomicBoolean;
import org.picothreads.runtime.PicoThreads;

/**
 * A thread named {@code spinner} that spins five calls deep after a sleep two calls above, while the thread that
 * calls {@link #run} takes the dump of the PicoThreads: the spinner's entry must show the frames its carrier runs
 * for it and, below them, the activations still saved since its lazy resume, at the lines the comments
 * {@code frame: NAME} mark.
 */
public final class RunningThreadDumped {
    private RunningThreadDumped() {
    }

    /** The spinner's entry in a dump taken while it spins, from its name line to the line before the next entry. */
    public static String run() throws Exception {
        AtomicBoolean spinning = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        Thread spinner = new Thread(() -> sleepThenSpin(2, spinning, stop), "spinner"); // frame: lambda
        spinner.start();
        try {
            while (!spinning.get()) {
                Thread.sleep(1);
            }
            return entry(PicoThreads.dump());
        } finally {
            stop.set(true);
            spinner.join();
        }
    }

    static void sleepThenSpin(int depth, AtomicBoolean spinning, AtomicBoolean stop) {
        if (depth > 0) {
            sleepThenSpin(depth - 1, spinning, stop); // frame: sleepThenSpin
            return;
        }
        try {
            Thread.sleep(1); // suspends: after it, only this activation runs again on the carrier
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        descendAndSpin(2, spinning, stop); // frame: resumed
    }

    static void descendAndSpin(int depth, AtomicBoolean spinning, AtomicBoolean stop) {
        if (depth > 0) {
            descendAndSpin(depth - 1, spinning, stop); // frame: descendAndSpin
            return;
        }
        spinning.set(true);
        while (!stop.get()) { Thread.onSpinWait(); } // frame: spin
    }

    static String entry(String dump) {
        int start = dump.indexOf("\"spinner\"");
        int end = dump.indexOf("\n\n", start);
        return end < 0 ? dump.substring(start) : dump.substring(start, end + 1);
    }
}
