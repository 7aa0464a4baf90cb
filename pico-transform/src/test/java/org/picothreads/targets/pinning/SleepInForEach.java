package org.picothreads.targets.pinning;

import java.util.List;
import org.picothreads.runtime.PicoThreads;

/**
 * A thread whose lambda sleeps inside {@code List.forEach}, a JDK frame that is not rewritten, so that each sleep
 * must pin; run transformed in a child JVM, it prints how many blocks pinned and how many of them a foreign frame
 * forced.
 */
public final class SleepInForEach {
    private SleepInForEach() {
    }

    public static void main(String[] arguments) throws InterruptedException {
        StringBuilder slept = new StringBuilder();
        Thread worker = new Thread(() -> List.of(1, 2, 3).forEach(millis -> slept.append(nap(millis))),
                "for-each-sleeper");
        worker.start();
        worker.join();
        PicoThreads.Statistics statistics = PicoThreads.statistics();
        System.out.println("slept " + slept + ", pinned blocks " + statistics.pinnedBlocks()
                + ", foreign frame pins " + statistics.foreignFramePins());
    }

    static int nap(int millis) {
        try {
            Thread.sleep(millis); // site: nap
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
        return millis;
    }
}
