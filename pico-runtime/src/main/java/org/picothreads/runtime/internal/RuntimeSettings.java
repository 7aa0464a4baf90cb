package org.picothreads.runtime.internal;

import java.util.concurrent.TimeUnit;

/**
 * The runtime's settings that system properties give, each with its default, read when the scheduler boots; a value
 * out of range makes the first {@code start()} throw {@link IllegalArgumentException}, as the scheduler's own
 * settings do.
 *
 * <p>Only the watchdog's settings live here so far; the scheduler's ({@code picothreads.scheduler}, {@code seed},
 * {@code carriers}, {@code maxCarriers}, {@code carrierStackSize}), the deadlock detector's, the dump reporters' and
 * the frame check's are still read where they are used (docs/runtime.md lists them all).
 */
final class RuntimeSettings {
    /** Default of {@code picothreads.watchdogPeriodMillis}. */
    static final long DEFAULT_WATCHDOG_PERIOD_MILLIS = 10;
    /** Default of {@code picothreads.watchdogThresholdMillis}. */
    static final long DEFAULT_WATCHDOG_THRESHOLD_MILLIS = 20;

    private RuntimeSettings() {
    }

    /**
     * The watchdog's settings (see {@link Watchdog}).
     *
     * @param enabled         {@code picothreads.watchdog}: whether the watchdog runs; default {@code true},
     *                        {@code false} turns it off
     * @param periodNanos     {@code picothreads.watchdogPeriodMillis}: how often the watchdog looks at the carriers
     *                        while PicoThreads are alive, in milliseconds; default 10, at least 1 (while no carrier is
     *                        in a dispatch, it looks up to 16 times less often)
     * @param thresholdNanos  {@code picothreads.watchdogThresholdMillis}: how long a carrier must have been seen
     *                        blocked within one dispatch before the watchdog compensates for it, in milliseconds;
     *                        default 20, at least 1
     */
    record WatchdogSettings(boolean enabled, long periodNanos, long thresholdNanos) {
    }

    /** The watchdog's settings from the system properties. */
    static WatchdogSettings watchdog() {
        return new WatchdogSettings(!"false".equalsIgnoreCase(System.getProperty("picothreads.watchdog")),
                TimeUnit.MILLISECONDS.toNanos(positiveMillis("picothreads.watchdogPeriodMillis",
                        DEFAULT_WATCHDOG_PERIOD_MILLIS)),
                TimeUnit.MILLISECONDS.toNanos(positiveMillis("picothreads.watchdogThresholdMillis",
                        DEFAULT_WATCHDOG_THRESHOLD_MILLIS)));
    }

    /** A whole number of milliseconds, at least 1, from the system property {@code name}, else {@code fallback}. */
    private static long positiveMillis(String name, long fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            long millis = Long.parseLong(value.trim());
            if (millis >= 1 && millis <= TimeUnit.DAYS.toMillis(1)) {
                return millis;
            }
        } catch (NumberFormatException e) {
            // reported below, as a number out of range is
        }
        throw new IllegalArgumentException("PicoThreads: " + name
                + " must be a whole number of milliseconds from 1 to 86400000, not '" + value + "'");
    }
}
