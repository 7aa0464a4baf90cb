package org.picothreads.targets.dump;

import org.picothreads.runtime.PicoThreads;

/**
 * A thread named {@code dumper} that takes the dump of the PicoThreads three calls deep, after its innermost
 * activation was resumed lazily (the activations below it are still saved): its own entry must show the frames it
 * runs and the saved ones below, at the lines the comments {@code frame: NAME} mark.
 */
public final class OwnDumpAfterResume {
    private OwnDumpAfterResume() {
    }

    /** The dumper's own entry in the dump, from its name line to the line before the next entry. */
    public static String run() throws Exception {
        String[] entry = new String[1];
        Thread thread = new Thread(() -> entry[0] = outer(), "dumper");
        thread.start();
        thread.join();
        return entry[0];
    }

    static String outer() {
        return middle(); // frame: outer
    }

    static String middle() {
        return inner(); // frame: middle
    }

    static String inner() {
        try {
            Thread.sleep(1); // suspends: after it, only this activation runs again on the carrier
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return ownEntry(PicoThreads.dump()); // frame: inner
    }

    static String ownEntry(String dump) {
        int start = dump.indexOf("\"dumper\"");
        int end = dump.indexOf("\n\n", start);
        return end < 0 ? dump.substring(start) : dump.substring(start, end + 1);
    }
}
