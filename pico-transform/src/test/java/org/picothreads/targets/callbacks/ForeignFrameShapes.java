package org.picothreads.targets.callbacks;

import java.util.Iterator;
import java.util.TreeMap;

/**
 * Blocking calls reached through frames that were not rewritten, other than the JDK callbacks of
 * {@link JdkCallbacks}: a method called by reflection, a class initializer, an Iterator driven by JDK code
 * (String.join), and a comparator called by a TreeMap. Each must block in place (pin) and give the same
 * result as on platform threads, never run a frame twice, while an ordinary thread goes on suspending.
 */
public final class ForeignFrameShapes {
    private static int initializations;

    private ForeignFrameShapes() {
    }

    /** Sleeps in its static initializer, which runs exactly once. */
    static final class SlowlyInitialized {
        static final int VALUE;

        static {
            initializations++;
            sleepQuietly(5);
            VALUE = 42;
        }

        private SlowlyInitialized() {
        }
    }

    public static int slowTwice(int value) throws InterruptedException {
        Thread.sleep(2);
        return value * 2;
    }

    /** An iterable whose iterator sleeps in next(), counting how often next() ran. */
    static final class SlowIterable implements Iterable<String> {
        int nextCalls;

        @Override
        public Iterator<String> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < 3;
                }

                @Override
                public String next() {
                    nextCalls++;
                    sleepQuietly(1);
                    return "item" + next++;
                }
            };
        }
    }

    public static String run() throws Exception {
        String[] results = new String[5];
        SlowIterable iterable = new SlowIterable();
        int[] comparisons = new int[1];
        Thread[] threads = {
            new Thread(() -> {
                try {
                    results[0] = "reflection " + ForeignFrameShapes.class.getMethod("slowTwice", int.class)
                            .invoke(null, 21);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }),
            new Thread(() -> results[1] = "class initializer " + SlowlyInitialized.VALUE + " after "
                    + initializations + " initialization"),
            new Thread(() -> results[2] = "iterator " + String.join(",", iterable) + " after " + iterable.nextCalls
                    + " calls of next"),
            new Thread(() -> {
                TreeMap<String, Integer> map = new TreeMap<>((first, second) -> {
                    comparisons[0]++;
                    sleepQuietly(1);
                    return first.compareTo(second);
                });
                map.put("b", 2);
                map.put("a", 1);
                map.put("c", 3);
                results[3] = "comparator " + map + " after " + comparisons[0] + " comparisons";
            }),
            new Thread(() -> {
                int naps = 0;
                for (int nap = 0; nap < 5; nap++) {
                    sleepQuietly(1);
                    naps++;
                }
                results[4] = "an ordinary sleeper suspended " + naps + " times meanwhile";
            }),
        };
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
