package org.picothreads.targets.carriers;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many threads that each sleep three times inside {@code List.forEach}, a JDK frame that cannot be captured, so that
 * every one of these sleeps blocks for real: on platform threads they all sleep at once. {@link ThousandForEachSleepers}
 * and {@link HundredForEachSleepers} run it with a thousand and a hundred threads. A sleep that would start more than
 * {@link #BUDGET_SECONDS} after the run began is skipped and counted, so that the program ends in bounded time either
 * way (on platform threads the whole run takes well under a second) and says so.
 */
final class ForEachSleepers {
    /** How long each sleep inside the callback lasts. */
    static final long SLEEP_MILLIS = 100;
    /** After this long, no further sleep starts. */
    private static final long BUDGET_SECONDS = 15;
    private static final List<Integer> STEPS = List.of(1, 2, 3);

    private ForEachSleepers() {
    }

    /** Starts {@code count} sleepers, joins them and says how many finished and how many sleeps they made. */
    static String run(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BUDGET_SECONDS);
        AtomicInteger skipped = new AtomicInteger();
        int[] sleeps = new int[count];
        int[] stepSums = new int[count];
        Thread[] threads = new Thread[count];
        for (int index = 0; index < count; index++) {
            int slot = index;
            threads[index] = new Thread(() -> {
                Pause.sleep(1);
                STEPS.forEach(step -> {
                    if (System.nanoTime() - deadline > 0) {
                        skipped.incrementAndGet();
                        return;
                    }
                    Pause.sleep(SLEEP_MILLIS);
                    sleeps[slot]++;
                    stepSums[slot] += step;
                });
            });
        }
        Pause.startAndJoin(threads);
        int finished = 0;
        long totalSleeps = 0;
        for (int slot = 0; slot < count; slot++) {
            if (sleeps[slot] == STEPS.size() && stepSums[slot] == 6) {
                finished++;
            }
            totalSleeps += sleeps[slot];
        }
        return count + " threads, " + finished + " finished all three sleeps, " + totalSleeps + " sleeps in all, "
                + skipped.get() + " skipped after " + BUDGET_SECONDS + " s";
    }
}
