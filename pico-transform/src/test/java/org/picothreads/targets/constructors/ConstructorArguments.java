package org.picothreads.targets.constructors;

import java.util.ArrayList;
import java.util.List;

/**
 * An uninitialized object (NEW, DUP) on the operand stack while an argument of its constructor suspends:
 * two suspending arguments, nested constructions, a JDK class, values and receivers under the NEW, and
 * constructions inside an array initializer.
 */
public final class ConstructorArguments {
    private ConstructorArguments() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = construct(seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static String construct(int seed) {
        Point point = new Point(sleepThenGet(seed + 1), sleepThenGet(seed + 2));
        Outer outer = new Outer(new Inner(sleepThenGet(seed + 3)), sleepThenGetLong(seed + 4L));
        StringBuilder builder = new StringBuilder(String.valueOf(sleepThenGet(seed + 5)));
        builder.append('/').append(new StringBuilder(sleepThenGetText("text" + seed)).reverse());
        int base = 100 * seed;
        int sum = base + new Point(sleepThenGet(6), 7).sum();
        List<Point> points = new ArrayList<>();
        points.add(new Point(seed, sleepThenGet(8)));
        Point[] pair = {new Point(sleepThenGet(9), 0), new Point(0, sleepThenGet(10))};
        Point moved = new Point(new Point(sleepThenGet(1), seed).x + point.x, new Inner(sleepThenGet(2)).value);
        Outer deep = new Outer(new Inner(new Point(sleepThenGet(11), sleepThenGet(12)).sum()),
                new Point(seed, 1).sum());
        return point + "|" + outer + "|" + builder + "|" + sum + "|" + points + "|" + pair[0] + pair[1] + "|" + moved
                + "|" + deep;
    }

    static int sleepThenGet(int value) {
        sleep(1);
        return value;
    }

    static long sleepThenGetLong(long value) {
        sleep(2);
        return value;
    }

    static String sleepThenGetText(String value) {
        sleep(1);
        return value;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }

    /** An immutable point. */
    static final class Point {
        final int x;
        final int y;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }

        int sum() {
            return x + y;
        }

        @Override
        public String toString() {
            return "(" + x + "," + y + ")";
        }
    }

    /** The inner part of {@link Outer}. */
    static final class Inner {
        final int value;

        Inner(int value) {
            this.value = value;
        }
    }

    /** An object built around another one. */
    static final class Outer {
        final Inner inner;
        final long tag;

        Outer(Inner inner, long tag) {
            this.inner = inner;
            this.tag = tag;
        }

        @Override
        public String toString() {
            return "Outer[" + inner.value + "," + tag + "]";
        }
    }
}
