package org.picothreads.targets.carriers;

/** A thousand threads that each sleep 3 x 100 ms inside {@code List.forEach} (see {@link ForEachSleepers}). */
public final class ThousandForEachSleepers {
    private ThousandForEachSleepers() {
    }

    public static String run() throws Exception {
        return ForEachSleepers.run(1_000);
    }
}
