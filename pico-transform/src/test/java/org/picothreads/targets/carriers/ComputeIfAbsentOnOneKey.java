package org.picothreads.targets.carriers;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two threads call {@code ConcurrentHashMap.computeIfAbsent} on one key with a mapping function that sleeps: the
 * sleep, under the map's own frames, cannot be captured; the second caller must wait for the first one's mapping to
 * finish (on platform threads it blocks on the map's bin lock), so both get the same value, the function runs once,
 * and nothing is thrown.
 */
public final class ComputeIfAbsentOnOneKey {
    private static final int THREADS = 2;

    private ComputeIfAbsentOnOneKey() {
    }

    public static String run() throws Exception {
        ConcurrentHashMap<String, Integer> map = new ConcurrentHashMap<>();
        AtomicInteger mappings = new AtomicInteger();
        String[] outcomes = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int slot = index;
            threads[index] = new Thread(() -> {
                Pause.sleep(1 + 10L * slot);
                try {
                    Integer value = map.computeIfAbsent("key", key -> {
                        mappings.incrementAndGet();
                        Pause.sleep(50);
                        return key.length() * 14;
                    });
                    outcomes[slot] = "thread " + slot + " got " + value;
                } catch (RuntimeException exception) {
                    outcomes[slot] = "thread " + slot + " threw " + exception;
                }
            });
        }
        Pause.startAndJoin(threads);
        return String.join("; ", outcomes) + "; the mapping function ran " + mappings.get() + " time(s); map " + map;
    }
}
