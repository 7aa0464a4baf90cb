package org.picothreads.targets.blind.missing;

import org.picothreads.targets.blindlibrary.Shape;

/**
 * A method that cannot be rewritten because a class its frames need is missing from the transformer's class path
 * ({@link #shapes} merges two {@link Shape} subclasses), called by rewritten code and calling rewritten code that
 * sleeps. Its class carries the marker, since other methods are rewritten; the sleeps below it must block in place
 * (pin) instead of capturing through a frame that would run again from its start: work done twice, and a loop that
 * starts over at each resume never ends.
 */
public final class MissingClassInFrames {
    private MissingClassInFrames() {
    }

    public static String run() throws Exception {
        int[] starts = new int[1];
        String[] results = new String[2];
        Thread walker = new Thread(() -> results[0] = shapes(starts, 4)); // suspends
        Thread sleeper = new Thread(() -> {
            int naps = 0;
            for (int nap = 0; nap < 5; nap++) {
                naps += nap(1);
            }
            results[1] = "an ordinary sleeper napped " + naps + " times";
        });
        walker.start();
        sleeper.start();
        walker.join();
        sleeper.join();
        return results[0] + " after " + starts[0] + " start(s)\n" + results[1];
    }

    /** Left untransformed: its frames need Shape, the common superclass of Circle and Square. */
    static String shapes(int[] starts, int count) {
        starts[0]++;
        StringBuilder text = new StringBuilder();
        for (int step = 0; step < count; step++) {
            Shape shape = step % 2 == 0 ? new Shape.Circle() : new Shape.Square();
            text.append(shape.name()).append(nap(step)).append(' '); // pins: its caller was left untransformed
        }
        return text.toString().trim();
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
