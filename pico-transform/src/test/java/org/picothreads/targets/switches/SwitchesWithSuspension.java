package org.picothreads.targets.switches;

/**
 * Switches that suspend: on strings (hashCode lookupswitch, then equals, then a second switch) and on enums
 * (the synthetic switch-map class), with sleeps inside cases and in the selector itself; dense and sparse int
 * switches with a suspending selector; and switch expressions whose arms suspend while a value waits on the
 * operand stack.
 */
public final class SwitchesWithSuspension {
    private SwitchesWithSuspension() {
    }

    /** The enum switched on. */
    enum Color {
        RED, GREEN, BLUE, BLACK
    }

    private static final String[] WORDS = {"alpha", "beta", "gamma", "Aa", "BB", "other"};

    public static String run() throws Exception {
        String[] results = new String[WORDS.length];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = switchAll(seed));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static String switchAll(int seed) {
        String word = WORDS[seed];
        Color color = Color.values()[seed % Color.values().length];
        return onString(word) + "|" + onStringSelector(word) + "|" + onEnum(color) + "|" + onEnumSelector(seed) + "|"
                + onDenseInt(seed) + "|" + onSparseInt(seed) + "|" + expression(word, seed);
    }

    /** "Aa" and "BB" have the same hash code, so equals decides between them after a suspension. */
    @SuppressWarnings("fallthrough")
    static String onString(String word) {
        int local = word.length();
        switch (word) {
            case "alpha":
                sleep(1);
                local += 100;
                break;
            case "beta":
                sleep(2);
                local += 200;
                // fall through
            case "gamma":
                sleep(1);
                local += 300;
                break;
            case "Aa":
                sleep(1);
                local += 400;
                break;
            case "BB":
                sleep(1);
                local += 500;
                break;
            default:
                sleep(1);
                local = -local;
        }
        return word + "=" + local;
    }

    static String onStringSelector(String word) {
        switch (sleepThenGet(word)) {
            case "alpha":
                return "selected alpha";
            case "Aa":
                return "selected Aa";
            case "BB":
                return "selected BB";
            default:
                return "selected default " + sleepThenGet(word.toUpperCase());
        }
    }

    @SuppressWarnings("fallthrough")
    static String onEnum(Color color) {
        long wide = 1L << 40;
        switch (color) {
            case RED:
                sleep(1);
                wide += 1;
                break;
            case GREEN:
                sleep(1);
                wide += 2;
                break;
            case BLUE:
                sleep(2);
                wide += 3;
                // fall through
            default:
                sleep(1);
                wide *= 2;
        }
        return color + "=" + wide;
    }

    static String onEnumSelector(int seed) {
        switch (sleepThenGet(Color.values()[(seed + 1) % Color.values().length])) {
            case RED:
                return "red selected";
            case BLACK:
                return "black selected";
            default:
                return "another color selected";
        }
    }

    static int onDenseInt(int seed) {
        int result = seed;
        switch (sleepThenGet(seed % 4)) {
            case 0:
                result += sleepThenGet(10);
                break;
            case 1:
                result += 20;
                break;
            case 2:
                result += sleepThenGet(30);
                break;
            default:
                result -= 1;
        }
        return result;
    }

    static int onSparseInt(int seed) {
        int key = seed * 1000;
        int base = 7;
        switch (sleepThenGet(key)) {
            case 0:
                return base + sleepThenGet(1);
            case 2000:
                return base + sleepThenGet(2);
            case 5000:
                return base * sleepThenGet(5);
            default:
                return -base;
        }
    }

    /** Switch expressions whose selectors and arms suspend, their values added to something already on the stack. */
    static String expression(String word, int seed) {
        int base = 1000 * (seed + 1);
        int total = base + switch (word) {
            case "alpha", "beta" -> sleepThenGet(1);
            case "Aa" -> {
                int inner = sleepThenGet(seed);
                yield inner * 3;
            }
            default -> word.length() + sleepThenGet(40);
        };
        String name = "color:" + switch (sleepThenGet(Color.values()[seed % 4])) {
            case RED -> "r" + sleepThenGet(1);
            case GREEN -> "g";
            case BLUE, BLACK -> sleepThenGet("dark");
        };
        return total + name;
    }

    static <T> T sleepThenGet(T value) {
        sleep(1);
        return value;
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
