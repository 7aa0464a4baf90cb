package org.picothreads.piranha.web;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A distribution of page body sizes, written {@code 20k} (every page that size), {@code uniform:2k-64k}, or
 * {@code mix:1k,4k,16k} (each page one of the sizes, equally likely). Sizes take a {@code k} or {@code m} suffix.
 */
public final class PageSizes {

    private final String text;
    /** The sizes a mix chooses from; null for a uniform range. */
    private final int[] choices;
    private final int minimum;
    private final int maximum;

    private PageSizes(String text, int[] choices, int minimum, int maximum) {
        this.text = text;
        this.choices = choices;
        this.minimum = minimum;
        this.maximum = maximum;
    }

    /** Reads a distribution from its written form; throws IllegalArgumentException for anything else. */
    public static PageSizes parse(String text) {
        String lower = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (lower.startsWith("uniform:")) {
                String[] bounds = lower.substring("uniform:".length()).split("-");
                int minimum = bytes(bounds[0]);
                int maximum = bytes(bounds[1]);
                if (bounds.length != 2 || minimum > maximum) {
                    throw new IllegalArgumentException();
                }
                return new PageSizes(lower, null, minimum, maximum);
            }
            String list = lower.startsWith("mix:") ? lower.substring("mix:".length()) : lower;
            int[] sizes = Arrays.stream(list.split(",")).mapToInt(PageSizes::bytes).toArray();
            return new PageSizes(lower, sizes, 0, 0);
        } catch (RuntimeException malformed) {
            throw new IllegalArgumentException("not a page size distribution: '" + text
                    + "' (examples: 20k, uniform:2k-64k, mix:1k,4k,16k)");
        }
    }

    /** One page's size, drawn from the random generator. */
    public int sample(SplittableRandom random) {
        return choices == null ? random.nextInt(minimum, maximum + 1) : choices[random.nextInt(choices.length)];
    }

    private static int bytes(String size) {
        String trimmed = size.trim();
        int multiplier = 1;
        if (trimmed.endsWith("k")) {
            multiplier = 1024;
        } else if (trimmed.endsWith("m")) {
            multiplier = 1024 * 1024;
        }
        String digits = multiplier == 1 ? trimmed : trimmed.substring(0, trimmed.length() - 1);
        int value = Math.multiplyExact(Integer.parseInt(digits), multiplier);
        if (value < 0) {
            throw new IllegalArgumentException();
        }
        return value;
    }

    @Override
    public String toString() {
        return text;
    }
}
