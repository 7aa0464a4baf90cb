package org.picothreads.targets.primitives;

/**
 * Every primitive type kept across a suspension, both in local variables and on the operand stack under the
 * suspending call: long and double (two slots each), int, float, char, byte, short and boolean, including
 * extreme values and the raw bits of a NaN and of negative zero.
 */
public final class PrimitiveValues {
    private PrimitiveValues() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = locals(seed) + " | " + stack(seed) + " | " + wide(seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    /** Locals of every primitive type, written before and read after a suspension. */
    static String locals(int seed) {
        long big = (1L << 40) + seed;
        double ratio = 0.1 * (seed + 1);
        int count = seed * 7 - 3;
        float scale = 1.25f * (seed + 1);
        char letter = (char) ('a' + seed);
        byte small = (byte) (-100 - seed);
        short medium = (short) (30000 + seed);
        boolean even = seed % 2 == 0;
        long minimum = Long.MIN_VALUE + seed;
        double negativeZero = -0.0;
        double payloadNaN = Double.longBitsToDouble(0x7ff8_0000_0000_0123L + seed);
        float tiny = Float.MIN_VALUE;
        sleep(1 + seed);
        return big + "," + ratio + "," + count + "," + scale + "," + letter + "," + small + "," + medium + ","
                + even + "," + minimum + "," + Double.doubleToRawLongBits(negativeZero) + ","
                + Long.toHexString(Double.doubleToRawLongBits(payloadNaN)) + "," + Float.floatToRawIntBits(tiny);
    }

    /** Values of every primitive type on the operand stack while the call that computes the other operand suspends. */
    static String stack(int seed) {
        long big = (1L << 40) + seed;
        long sum = big + sleepThenGetLong(seed + 1_000_000_000_000L);
        double product = 1.5 * sleepThenGetDouble(seed + 0.25);
        int count = seed * 7 + sleepThenGetInt(seed + 11);
        float scaled = 1.25f * sleepThenGetFloat(seed + 0.5f);
        char letter = (char) ('a' + sleepThenGetInt(seed + 2));
        byte small = (byte) (-100 - seed);
        int fromByte = small * sleepThenGetInt(3);
        short medium = (short) (30000 + seed);
        int fromShort = medium - sleepThenGetInt(29_000);
        boolean even = seed % 2 == 0;
        boolean both = even & sleepThenGetBoolean(true);
        boolean either = !even | sleepThenGetBoolean(false);
        long shifted = (big << 3) ^ sleepThenGetLong(0x5555_5555_5555L);
        double quotient = (product + seed) / sleepThenGetDouble(4.0);
        return sum + "," + product + "," + count + "," + scaled + "," + letter + "," + fromByte + "," + fromShort + ","
                + both + "," + either + "," + shifted + "," + quotient;
    }

    /** Two-slot values as arguments before a suspending argument, and mixed with one-slot values. */
    static String wide(int seed) {
        long first = 1234567890123L * (seed + 1);
        double second = Math.PI * (seed + 1);
        long combined = combine(first, second, sleepThenGetInt(seed + 5), (short) 7, sleepThenGetLong(99L));
        double mixed = second * first + sleepThenGetFloat(0.75f) - sleepThenGetInt(2);
        return combined + "," + mixed;
    }

    static long combine(long first, double second, int third, short fourth, long fifth) {
        return first ^ Double.doubleToLongBits(second) ^ ((long) third << 32) ^ fourth ^ fifth;
    }

    static long sleepThenGetLong(long value) {
        sleep(2);
        return value;
    }

    static double sleepThenGetDouble(double value) {
        sleep(1);
        return value;
    }

    static int sleepThenGetInt(int value) {
        sleep(1);
        return value;
    }

    static float sleepThenGetFloat(float value) {
        sleep(1);
        return value;
    }

    static boolean sleepThenGetBoolean(boolean value) {
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
}
