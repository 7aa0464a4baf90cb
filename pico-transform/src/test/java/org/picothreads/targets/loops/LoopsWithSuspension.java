package org.picothreads.targets.loops;

import java.util.List;

/**
 * Loops that suspend in their bodies and conditions, their counters kept in locals: for, while, do-while,
 * nested loops with labeled break and continue, enhanced for over an array and over a list (its iterator
 * held in a local), a long counter, a suspending loop condition, and a loop that yields.
 */
public final class LoopsWithSuspension {
    private LoopsWithSuspension() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = loop(seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static String loop(int seed) {
        int forSum = 0;
        for (int counter = 0; counter < 5 + seed; counter++) {
            sleep(1);
            forSum += counter * counter;
        }

        long whileProduct = 1;
        int remaining = 4;
        while (remaining > 0) {
            whileProduct *= sleepThenGet(remaining + seed);
            remaining--;
        }

        int doCount = 0;
        double halving = 1000.0;
        do {
            halving /= 2;
            sleep(1);
            doCount++;
        } while (halving > 100 + seed);

        StringBuilder pairs = new StringBuilder();
        outer:
        for (int row = 0; row < 4; row++) {
            for (int column = 0; column < 4; column++) {
                if (column > row) {
                    continue outer;
                }
                if (row + column == 5) {
                    break outer;
                }
                sleep(1);
                pairs.append(row).append(column).append(' ');
            }
        }

        int arraySum = 0;
        for (int value : new int[] {3, 1, 4, 1, 5, seed}) {
            arraySum += sleepThenGet(value);
        }
        StringBuilder words = new StringBuilder();
        for (String word : List.of("one", "two", "three")) {
            sleep(1);
            words.append(word.charAt(0));
        }

        long wideCounter = 1L << 40;
        for (long step = 0; step < 3; step++) {
            wideCounter += sleepThenGet((int) step) * (1L << 33);
        }

        int conditionCalls = 0;
        while (sleepThenGet(conditionCalls) < 3 + seed) {
            conditionCalls++;
        }

        int yields = 0;
        for (int round = 0; round < 100; round++) {
            Thread.yield();
            yields++;
        }

        return "for " + forSum + ", while " + whileProduct + ", do " + doCount + " " + halving
                + ", pairs " + pairs.toString().trim() + ", array " + arraySum + ", list " + words
                + ", wide " + wideCounter + ", condition " + conditionCalls + ", yields " + yields;
    }

    static int sleepThenGet(int value) {
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
