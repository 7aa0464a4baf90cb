package org.picothreads.targets.pinning;

import java.util.List;
import org.picothreads.runtime.PicoThreads;

/**
 * Shallow threads that each sleep once, so that the frame check's walks learn a first batch of about ten frames,
 * then a thread that sleeps {@value #DEPTH} rewritten frames above a {@code List.forEach}, a JDK frame that is not
 * rewritten and lies far below that first batch, so that each of its sleeps must pin; run transformed in a child
 * JVM, it prints what the threads slept, how many blocks pinned and how many of them a foreign frame forced.
 */
public final class DeepSleepInForEach {
    /** Frames of recursion between the forEach callback and the sleep. */
    static final int DEPTH = 60;

    private DeepSleepInForEach() {
    }

    public static void main(String[] arguments) throws InterruptedException {
        StringBuilder slept = new StringBuilder();
        for (int round = 0; round < 3; round++) {
            Thread shallow = new Thread(() -> slept.append(nap(1)), "shallow-sleeper");
            shallow.start();
            shallow.join();
        }
        slept.append(' ');
        Thread deep = new Thread(() -> List.of(2, 3).forEach(millis -> slept.append(descend(DEPTH, millis))),
                "deep-sleeper");
        deep.start();
        deep.join();
        PicoThreads.Statistics statistics = PicoThreads.statistics();
        System.out.println("slept " + slept + ", pinned blocks " + statistics.pinnedBlocks()
                + ", foreign frame pins " + statistics.foreignFramePins());
    }

    static int descend(int depth, int millis) {
        if (depth > 1) {
            return descend(depth - 1, millis);
        }
        return nap(millis);
    }

    static int nap(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
        return millis;
    }
}
