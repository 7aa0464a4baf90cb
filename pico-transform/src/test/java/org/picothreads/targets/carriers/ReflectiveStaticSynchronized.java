package org.picothreads.targets.carriers;

import java.lang.reflect.Method;

/**
 * Two threads call a {@code static synchronized} method that sleeps through {@code Method.invoke}: the reflective
 * frames cannot be captured, so the sleep blocks for real while the class's monitor is held, and the second caller
 * waits for the monitor. Both calls complete, in some order, and the total is exact.
 */
public final class ReflectiveStaticSynchronized {
    private static final int THREADS = 2;
    /** Read, slept over and written back under the class's monitor. */
    private static int total;

    private ReflectiveStaticSynchronized() {
    }

    /** Adds {@code amount} to the total with a sleep between the read and the write; returns the new total. */
    public static synchronized int addSlowly(int amount) {
        int read = total;
        Pause.sleep(30);
        total = read + amount;
        return total;
    }

    public static String run() throws Exception {
        total = 0;
        Method addSlowly = ReflectiveStaticSynchronized.class.getMethod("addSlowly", int.class);
        int[] returned = new int[THREADS];
        String[] failures = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int slot = index;
            threads[index] = new Thread(() -> {
                Pause.sleep(1 + 5L * slot);
                try {
                    returned[slot] = (Integer) addSlowly.invoke(null, slot + 1);
                } catch (ReflectiveOperationException exception) {
                    failures[slot] = exception.toString();
                }
            });
        }
        Pause.startAndJoin(threads);
        int completed = 0;
        int largest = 0;
        StringBuilder failed = new StringBuilder();
        for (int slot = 0; slot < THREADS; slot++) {
            if (failures[slot] == null) {
                completed++;
                largest = Math.max(largest, returned[slot]);
            } else {
                failed.append("; thread ").append(slot).append(" failed: ").append(failures[slot]);
            }
        }
        return "calls completed " + completed + ", total " + total + ", the later call returned " + largest + failed;
    }
}
