package org.picothreads.targets.carriers;

/** A hundred threads that each sleep 3 x 100 ms inside {@code List.forEach} (see {@link ForEachSleepers}). */
public final class HundredForEachSleepers {
    private HundredForEachSleepers() {
    }

    public static String run() throws Exception {
        return ForEachSleepers.run(100);
    }
}
