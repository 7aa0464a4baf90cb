package org.picothreads.targets.callbacks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Lambdas that sleep while JDK code is calling them back (Iterable.forEach, a stream's map, a sort
 * comparator, Map.computeIfAbsent): the JDK frames in between are not rewritten, so these sleeps cannot be
 * captured and must block for real (pin) without disturbing the JDK's work. The same threads also suspend
 * normally between the callbacks.
 */
public final class JdkCallbacks {
    private JdkCallbacks() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = callBack(seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static String callBack(int seed) {
        List<Integer> numbers = new ArrayList<>(List.of(5, 3, 9, 1, seed));
        StringBuilder visited = new StringBuilder();
        numbers.forEach(number -> {
            sleep(1);
            visited.append(number);
        });
        sleep(1);
        String mapped = numbers.stream().map(number -> {
            sleep(1);
            return number * 2;
        }).map(String::valueOf).collect(Collectors.joining(","));
        sleep(1);
        numbers.sort((left, right) -> {
            sleep(1);
            return Integer.compare(left, right);
        });
        Map<String, Integer> lengths = new HashMap<>();
        int computed = lengths.computeIfAbsent("key" + seed, key -> {
            sleep(1);
            return key.length() * 10;
        });
        sleep(1);
        return visited + "|" + mapped + "|" + numbers + "|" + computed + "|" + lengths;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
