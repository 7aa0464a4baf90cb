package org.picothreads.net.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs the same steps against a JDK decorator and a Pico one and compares what each step gave or threw. */
final class Outcomes {
    /** One step on a decorator, which may throw. */
    interface Step<T> {
        Object apply(T decorator) throws Exception;
    }

    private Outcomes() {
    }

    /** What a step gave: its value as text, or the class and message of what it threw. */
    static <T> String outcome(T decorator, Step<T> step) {
        try {
            Object value = step.apply(decorator);
            if (value instanceof byte[] bytes) {
                return java.util.Arrays.toString(bytes);
            }
            if (value instanceof char[] characters) {
                return new String(characters);
            }
            return String.valueOf(value);
        } catch (Exception failure) {
            return failure.getClass().getName() + ": " + failure.getMessage();
        }
    }

    /** Asserts that each step gives the same outcome on both decorators, in order, and returns the outcomes. */
    @SafeVarargs
    static <T> String assertSameOutcomes(T jdk, T pico, Step<T>... steps) {
        assertEquals(false, jdk.getClass() == pico.getClass(), "compare a JDK decorator with a Pico one");
        StringBuilder outcomes = new StringBuilder();
        for (int index = 0; index < steps.length; index++) {
            String expected = outcome(jdk, steps[index]);
            String actual = outcome(pico, steps[index]);
            assertEquals(expected, actual, "step " + index + " of " + pico.getClass().getSimpleName());
            outcomes.append(actual).append('\n');
        }
        return outcomes.toString();
    }
}
