package org.picothreads.targets.records;

import java.util.List;

/**
 * Records whose methods block: an instance method, a static factory, a method of an interface the record
 * implements, and an accessor overridden to sleep; their generated equals, hashCode and toString
 * (invokedynamic ObjectMethods) used across suspensions.
 */
public final class BlockingRecords {
    private BlockingRecords() {
    }

    /** Something that can describe itself slowly. */
    interface Describable {
        String describe() throws InterruptedException;
    }

    /** A record with blocking methods. */
    record Measurement(String name, int value, long stamp) implements Describable {
        static Measurement slowlyOf(String name, int value) throws InterruptedException {
            Thread.sleep(1);
            return new Measurement(name, value, 1L << 33);
        }

        int slowDouble() throws InterruptedException {
            Thread.sleep(2);
            return value * 2;
        }

        Measurement plus(Measurement other) throws InterruptedException {
            Thread.sleep(1);
            return new Measurement(name + "+" + other.name, value + other.slowDouble(), stamp ^ other.stamp);
        }

        @Override
        public String describe() throws InterruptedException {
            Thread.sleep(1);
            return name + "#" + slowDouble();
        }
    }

    /** A record whose accessor is overridden to sleep. */
    record Lazy(String text) {
        @Override
        public String text() {
            try {
                Thread.sleep(1);
            } catch (InterruptedException exception) {
                return "interrupted";
            }
            return text.toUpperCase();
        }
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> {
                try {
                    results[seed] = useRecords(seed);
                } catch (InterruptedException exception) {
                    results[seed] = "interrupted";
                }
            });
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static String useRecords(int seed) throws InterruptedException {
        Measurement first = Measurement.slowlyOf("m" + seed, seed + 1);
        int doubled = first.slowDouble();
        Measurement second = new Measurement("n", 5, seed);
        Measurement sum = first.plus(second);
        Describable describable = sum;
        String description = describable.describe();
        Measurement copy = Measurement.slowlyOf("m" + seed, seed + 1);
        boolean equal = first.equals(copy) && first.hashCode() == copy.hashCode();
        String lazy = new Lazy("lazy" + seed).text();
        List<Measurement> list = List.of(first, second);
        return first + ";" + doubled + ";" + sum + ";" + description + ";" + equal + ";" + lazy + ";" + list;
    }
}
