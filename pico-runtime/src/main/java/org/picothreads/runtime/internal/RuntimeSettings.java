package org.picothreads.runtime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.picothreads.runtime.SchedulingPolicy;

/**
 * Every setting of the runtime: the system properties it reads, each with its default, and the build's defaults
 * resource that the Maven plugin writes. A value out of range makes the first {@code start()} throw
 * {@link IllegalArgumentException}, naming the setting and the value (docs/runtime.md lists them all).
 *
 * <p>Settings are read once: the scheduler's and the watchdog's when the scheduler boots, the others when the class
 * that uses them is initialized, into a {@code static final} field that the JIT folds.
 */
final class RuntimeSettings {
    /** The scheduling policy: {@code fifo}, {@code lifo} or {@code random}. */
    static final String SCHEDULER = "picothreads.scheduler";
    /** The RANDOM policy's seed. */
    static final String SEED = "picothreads.seed";
    /** How many carriers run PicoThreads when none is blocked. */
    static final String CARRIERS = "picothreads.carriers";
    /** The most carriers there may be at once, compensation included. */
    static final String MOST_CARRIERS = "picothreads.maxCarriers";
    /** The stack size of a carrier. */
    static final String CARRIER_STACK_SIZE = "picothreads.carrierStackSize";
    /** Whether the watchdog runs. */
    static final String WATCHDOG = "picothreads.watchdog";
    /** How often the watchdog looks at the carriers. */
    static final String WATCHDOG_PERIOD = "picothreads.watchdogPeriodMillis";
    /** How long a carrier must be seen blocked before the watchdog compensates for it. */
    static final String WATCHDOG_THRESHOLD = "picothreads.watchdogThresholdMillis";
    /** Whether the frame check runs before a capture. */
    static final String CHECK_FRAMES = "picothreads.checkFrames";
    /** Whether a call site that pins because of a frame prints the stack once. */
    static final String TRACE_PINNED = "picothreads.tracePinned";
    /** Whether a capture that a restored caller spares the frame check walks all the same, to verify the trust. */
    static final String VERIFY_TRUSTED_CAPTURES = "picothreads.verifyTrustedCaptures";
    /** Whether the deadlock detector runs. */
    static final String DEADLOCK_DETECTION = "picothreads.deadlockDetection";
    /** The exit status after a deadlock dump. */
    static final String DEADLOCK_EXIT_STATUS = "picothreads.deadlockExitStatus";
    /** Whether the dump of the live PicoThreads is printed when the JVM shuts down. */
    static final String DUMP_ON_EXIT = "picothreads.dumpOnExit";
    /** Every how many seconds the dump is printed. */
    static final String DUMP_INTERVAL = "picothreads.dumpIntervalSeconds";

    /** The class path resource with the build's defaults (keys scheduler, seed, carriers), which the system properties override. */
    static final String DEFAULTS_RESOURCE = "META-INF/picothreads.properties";
    /** Default of {@code picothreads.carrierStackSize}: a carrier runs deep rewritten recursion, 256 MiB. */
    static final long DEFAULT_CARRIER_STACK_SIZE = 256L << 20;
    /** Default of {@code picothreads.maxCarriers}: the JDK's virtual thread scheduler's bound. */
    static final int DEFAULT_MOST_CARRIERS = 256;
    /** The largest number of carriers any setting may ask for. */
    static final int MOST_CARRIERS_LIMIT = 32_767;
    /** Default of {@code picothreads.watchdogPeriodMillis}. */
    static final long DEFAULT_WATCHDOG_PERIOD_MILLIS = 10;
    /** Default of {@code picothreads.watchdogThresholdMillis}. */
    static final long DEFAULT_WATCHDOG_THRESHOLD_MILLIS = 20;
    /** Default of {@code picothreads.deadlockExitStatus}. */
    static final int DEFAULT_DEADLOCK_EXIT_STATUS = 1;

    private RuntimeSettings() {
    }

    /**
     * The scheduler's settings.
     *
     * @param policy           {@code picothreads.scheduler}, else the defaults resource's {@code scheduler}, else FIFO
     * @param seed             {@code picothreads.seed}, else the defaults resource's {@code seed}, else 0
     * @param carriers         {@code picothreads.carriers}, else the defaults resource's {@code carriers}, else one per
     *                         available processor; from 1 to {@link #MOST_CARRIERS_LIMIT}
     * @param mostCarriers     {@code picothreads.maxCarriers}, else {@link #DEFAULT_MOST_CARRIERS}, never fewer than
     *                         {@code carriers}
     * @param carrierStackSize {@code picothreads.carrierStackSize} in bytes, with an optional k, m or g suffix, else
     *                         {@link #DEFAULT_CARRIER_STACK_SIZE}
     */
    record SchedulerSettings(SchedulingPolicy policy, long seed, int carriers, int mostCarriers,
            long carrierStackSize) {
    }

    /**
     * The scheduler's settings from the system properties and the build's defaults resource.
     *
     * @param configuredPolicy the policy set through {@code PicoThreads.configure}, which takes the place of the
     *                         policy and seed settings, or null
     * @param configuredSeed   the seed set with it
     */
    static SchedulerSettings scheduler(SchedulingPolicy configuredPolicy, long configuredSeed) {
        BuildDefaults defaults = BuildDefaults.read();
        SchedulingPolicy policy = configuredPolicy != null ? configuredPolicy : policy(defaults);
        long seed = configuredPolicy != null ? configuredSeed : seed(defaults);
        int carriers = carriers(defaults);
        return new SchedulerSettings(policy, seed, carriers, mostCarriers(carriers), carrierStackSize());
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
        return new WatchdogSettings(onUnlessFalse(WATCHDOG),
                TimeUnit.MILLISECONDS.toNanos(positiveMillis(WATCHDOG_PERIOD, DEFAULT_WATCHDOG_PERIOD_MILLIS)),
                TimeUnit.MILLISECONDS.toNanos(positiveMillis(WATCHDOG_THRESHOLD, DEFAULT_WATCHDOG_THRESHOLD_MILLIS)));
    }

    /** {@code picothreads.checkFrames}: whether the frame check runs before a capture; default {@code true}. */
    static boolean checkFrames() {
        return onUnlessFalse(CHECK_FRAMES);
    }

    /** {@code picothreads.tracePinned}: whether a frame that pins prints its stack once per site; default false. */
    static boolean tracePinned() {
        return Boolean.getBoolean(TRACE_PINNED);
    }

    /**
     * {@code picothreads.verifyTrustedCaptures}: whether a capture that the frame check is spared (its caller was a
     * restored activation that called the runtime directly, or a runtime queue, lock or {@link DirectStream} of
     * such a caller) walks the frames all the same and throws IllegalStateException, naming the frame, when one
     * cannot be captured; a check of the runtime's own claims, for its tests. Default false.
     */
    static boolean verifyTrustedCaptures() {
        return Boolean.getBoolean(VERIFY_TRUSTED_CAPTURES);
    }

    /** {@code picothreads.deadlockDetection}: whether the deadlock detector runs; default {@code true}. */
    static boolean deadlockDetection() {
        return onUnlessFalse(DEADLOCK_DETECTION);
    }

    /** {@code picothreads.deadlockExitStatus}: the exit status after a deadlock dump; default 1. */
    static int deadlockExitStatus() {
        return Integer.getInteger(DEADLOCK_EXIT_STATUS, DEFAULT_DEADLOCK_EXIT_STATUS);
    }

    /** {@code picothreads.dumpOnExit}: whether the dump is printed when the JVM shuts down; default false. */
    static boolean dumpOnExit() {
        return Boolean.getBoolean(DUMP_ON_EXIT);
    }

    /**
     * {@code picothreads.dumpIntervalSeconds}: every how many seconds the dump is printed; 0 (the default, and any
     * number below 1) prints none.
     */
    static long dumpIntervalSeconds() {
        String value = System.getProperty(DUMP_INTERVAL);
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("PicoThreads: " + DUMP_INTERVAL + " must be a whole number"
                    + " of seconds, not '" + value + "'", e);
        }
    }

    /** True unless the system property {@code name} is {@code false}, in any case. */
    private static boolean onUnlessFalse(String name) {
        return !"false".equalsIgnoreCase(System.getProperty(name));
    }

    /** The policy from picothreads.scheduler, else from the defaults resource's scheduler, else FIFO. */
    private static SchedulingPolicy policy(BuildDefaults defaults) {
        String value = System.getProperty(SCHEDULER);
        boolean fromResource = value == null && defaults.scheduler() != null;
        if (fromResource) {
            value = defaults.scheduler();
        }
        value = value == null ? "fifo" : value.trim();
        switch (value.toLowerCase(Locale.ROOT)) {
            case "fifo":
                return SchedulingPolicy.FIFO;
            case "lifo":
                return SchedulingPolicy.LIFO;
            case "random":
                return SchedulingPolicy.RANDOM;
            default:
                String setting = fromResource ? "scheduler in " + defaults.origin() : SCHEDULER;
                throw new IllegalArgumentException(
                        "PicoThreads: " + setting + " must be fifo, lifo or random, not '" + value + "'");
        }
    }

    /** The RANDOM policy's seed from picothreads.seed, else from the defaults resource's seed, else 0. */
    private static long seed(BuildDefaults defaults) {
        String value = defaults.seed();
        if (System.getProperty(SEED) != null || value == null) {
            return Long.getLong(SEED, 0L);
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("PicoThreads: seed in " + defaults.origin()
                    + " must be a whole number, not '" + value + "'", e);
        }
    }

    /**
     * The number of carriers from picothreads.carriers, else from the defaults resource's carriers, else one per
     * available processor.
     */
    private static int carriers(BuildDefaults defaults) {
        String value = System.getProperty(CARRIERS);
        boolean fromResource = value == null && defaults.carriers() != null;
        if (fromResource) {
            value = defaults.carriers();
        }
        if (value == null || value.isBlank()) {
            return Runtime.getRuntime().availableProcessors();
        }
        return carrierCount(value, fromResource ? "carriers in " + defaults.origin() : CARRIERS);
    }

    /**
     * The most carriers there may be at once, compensation included, from picothreads.maxCarriers, else 256 (as the
     * JDK's virtual thread scheduler), and never fewer than {@code carriers}.
     */
    private static int mostCarriers(int carriers) {
        String value = System.getProperty(MOST_CARRIERS);
        if (value == null || value.isBlank()) {
            return Math.max(carriers, DEFAULT_MOST_CARRIERS);
        }
        return Math.max(carriers, carrierCount(value, MOST_CARRIERS));
    }

    /** A number of carriers given by {@code setting}: a whole number from 1 to {@link #MOST_CARRIERS_LIMIT}. */
    private static int carrierCount(String value, String setting) {
        try {
            int count = Integer.parseInt(value.trim());
            if (count >= 1 && count <= MOST_CARRIERS_LIMIT) {
                return count;
            }
        } catch (NumberFormatException e) {
            // reported below, as a number out of range is
        }
        throw new IllegalArgumentException("PicoThreads: " + setting + " must be a whole number from 1 to "
                + MOST_CARRIERS_LIMIT + ", not '" + value + "'");
    }

    /** The carrier stack size from picothreads.carrierStackSize, in bytes or with a k, m or g suffix. */
    private static long carrierStackSize() {
        String value = System.getProperty(CARRIER_STACK_SIZE);
        if (value == null || value.isBlank()) {
            return DEFAULT_CARRIER_STACK_SIZE;
        }
        String digits = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        char suffix = digits.charAt(digits.length() - 1);
        if (suffix == 'k' || suffix == 'm' || suffix == 'g') {
            unit = suffix == 'k' ? 1L << 10 : suffix == 'm' ? 1L << 20 : 1L << 30;
            digits = digits.substring(0, digits.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(digits), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("PicoThreads: " + CARRIER_STACK_SIZE + " must be a size in bytes,"
                    + " optionally with a k, m or g suffix, not '" + value + "'", e);
        }
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

    /**
     * The build's defaults from {@link #DEFAULTS_RESOURCE} on the class path, as the Maven plugin writes it: found
     * through the booting thread's context class loader, else the runtime's own, each searched parents first as
     * {@link ClassLoader#getResource} does.
     *
     * <p>On the class path, each loader is asked through its unnamed module, which searches only that loader's own
     * class path: {@code getResource} would first search the JDK's modules through the boot loader, whose first
     * resource lookup opens the runtime image (10 to 20 ms before the first PicoThread could run). A program
     * started from a module path, where the resource may be in a named module, is searched with getResource.
     *
     * @param scheduler the {@code scheduler} value, or null
     * @param seed      the {@code seed} value, or null
     * @param carriers  the {@code carriers} value, or null
     * @param source    the class loader that found the resource, or null when there is none
     */
    private record BuildDefaults(String scheduler, String seed, String carriers, ClassLoader source) {
        static BuildDefaults read() {
            ClassLoader contextLoader = Thread.currentThread().getContextClassLoader();
            ClassLoader runtimeLoader = RuntimeSettings.class.getClassLoader();
            for (ClassLoader loader : new ClassLoader[] {contextLoader,
                    runtimeLoader != null ? runtimeLoader : ClassLoader.getSystemClassLoader()}) {
                BuildDefaults found = loader == null ? null : readThrough(loader);
                if (found != null) {
                    return found;
                }
            }
            return new BuildDefaults(null, null, null, null);
        }

        /** The defaults that {@code loader} or one of its parents finds, searched parents first; null if none. */
        private static BuildDefaults readThrough(ClassLoader loader) {
            if (System.getProperty("jdk.module.path") != null) {
                URL resource = loader.getResource(DEFAULTS_RESOURCE);
                if (resource == null) {
                    return null;
                }
                try {
                    return load(resource.openStream(), loader);
                } catch (IOException e) {
                    throw new UncheckedIOException("PicoThreads: cannot read " + resource, e);
                }
            }
            List<ClassLoader> rootFirst = new ArrayList<>();
            for (ClassLoader each = loader; each != null; each = each.getParent()) {
                rootFirst.add(0, each);
            }
            for (ClassLoader each : rootFirst) {
                try {
                    InputStream in = each.getUnnamedModule().getResourceAsStream(DEFAULTS_RESOURCE);
                    if (in != null) {
                        return load(in, each);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("PicoThreads: cannot read " + DEFAULTS_RESOURCE + " of " + each, e);
                }
            }
            return null;
        }

        private static BuildDefaults load(InputStream resource, ClassLoader source) throws IOException {
            Properties values = new Properties();
            try (InputStream in = resource) {
                values.load(in);
            }
            return new BuildDefaults(values.getProperty("scheduler"), values.getProperty("seed"),
                    values.getProperty("carriers"), source);
        }

        /** The resource's URL, for messages. */
        String origin() {
            URL resource = source.getResource(DEFAULTS_RESOURCE);
            return resource != null ? resource.toString() : DEFAULTS_RESOURCE;
        }
    }
}
