package org.picothreads.targets.operandstack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Values waiting on the operand stack below a suspending call: the left operand of an addition, earlier
 * arguments of the same call, the receiver of a chained call, an array and its index before an array store,
 * an object before a field store, and nested calls whose inner call suspends.
 */
public final class ValuesUnderArguments {
    /** A per-thread accumulator, for {@code this.total += ...}. */
    private int total;
    /** The receiver's own value, part of every {@link #combine} result. */
    private final int offset;

    private ValuesUnderArguments(int offset) {
        this.offset = offset;
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = new ValuesUnderArguments(seed * 100).compute(seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    String compute(int seed) {
        int base = 10 + seed;
        int other = 3;
        int sum = base + add(sleepThenGet(seed + 1), other);

        StringBuilder builder = new StringBuilder();
        builder.append(seed).append(sleepThenGet(seed + 4)).append('-')
                .append(sleepThenGetText("x" + seed)).append(other);

        int[] numbers = new int[4];
        for (int position = 0; position < numbers.length; position++) {
            numbers[position] = sleepThenGet(position * 10 + seed);
        }
        long[] longs = new long[2];
        longs[1] = sleepThenGetLong(1L << 33);
        double[][] grid = new double[2][2];
        grid[1][seed % 2] = sleepThenGet(7) / 2.0;
        String[] words = new String[2];
        words[seed % 2] = sleepThenGetText("word" + seed);

        this.total += sleepThenGet(5);
        this.total += sleepThenGet(6) * base;
        Holder holder = new Holder();
        holder.value = sleepThenGetText("held");
        holder.count = base + sleepThenGet(2);

        int nested = add(add(sleepThenGet(1), sleepThenGet(2)), add(base, sleepThenGet(3)));
        int chosen = seed % 2 == 0 ? sleepThenGet(40) : other + sleepThenGet(50);
        int maximum = Math.max(base, sleepThenGet(11));
        int receiverCall = this.combine(base, sleepThenGet(8), other);
        boolean compared = base < sleepThenGet(11);
        List<Integer> list = new ArrayList<>();
        list.add(sleepThenGet(9));
        list.add(0, base + sleepThenGet(1));
        String indexed = List.of("a", "b", "c", "d").get(sleepThenGet(seed + 1));

        return sum + "|" + builder + "|" + Arrays.toString(numbers) + "|" + Arrays.toString(longs)
                + "|" + Arrays.deepToString(grid) + "|" + Arrays.toString(words) + "|" + total
                + "|" + holder.value + holder.count + "|" + nested + "|" + chosen + "|" + maximum + "|" + receiverCall
                + "|" + compared + "|" + list + "|" + indexed;
    }

    int combine(int first, int second, int third) {
        return offset + first * 10000 + second * 100 + third;
    }

    static int add(int first, int second) {
        return first + second;
    }

    static int sleepThenGet(int value) {
        sleep(1);
        return value;
    }

    static long sleepThenGetLong(long value) {
        sleep(1);
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

    /** A mutable object for field stores whose value suspends. */
    static final class Holder {
        String value;
        int count;
    }
}
