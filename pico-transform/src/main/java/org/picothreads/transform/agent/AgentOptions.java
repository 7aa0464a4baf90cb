package org.picothreads.transform.agent;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.picothreads.transform.io.ClassNameFilter;

/**
 * The agent's options, parsed from the text after {@code -javaagent:pico-agent.jar=}: settings separated by
 * {@code ;}, each {@code name=value}, for example {@code includes=com.example.*;excludes=com.example.legacy.*}.
 *
 * @param filter   which classes to rewrite, from {@code includes} and {@code excludes} (patterns separated by commas)
 * @param report   where to write the JSON report of the classes rewritten at startup, from {@code report}, or null
 * @param verbose  whether to print one line at startup saying how many classes were rewritten, from {@code verbose}
 * @param carriers the number of carriers to run PicoThreads on, from {@code carriers}, or null to leave it to the
 *                 runtime (or to {@code -Dpicothreads.carriers})
 * @param cache    the directory of the persistent cache of rewritten classes ({@link RewriteCache}), from
 *                 {@code cache}, or null when {@code cache=off}; by default {@code $XDG_CACHE_HOME/picothreads/agent},
 *                 or {@code ~/.cache/picothreads/agent} without that variable. The cache is not used when a report or
 *                 the verbose line is asked for, which need every class's analysis.
 */
public record AgentOptions(ClassNameFilter filter, Path report, boolean verbose, Integer carriers, Path cache) {
    /** The option names, in the order the usage message gives them. */
    private static final List<String> NAMES = List.of("includes", "excludes", "report", "verbose", "carriers",
            "cache");
    /** The value of {@code cache} that turns the cache off. */
    private static final String CACHE_OFF = "off";
    /** The system property through which the runtime's Scheduler takes the number of carriers. */
    static final String CARRIERS_PROPERTY = "picothreads.carriers";
    /** The most carriers the runtime accepts. */
    private static final int MOST_CARRIERS = 32_767;

    /**
     * Parses the agent's argument text; null or blank gives the defaults (every class, no report, quiet).
     *
     * @throws IllegalArgumentException for an unknown option, a setting without {@code =} or with an empty value,
     *                                  a second {@code report} or {@code carriers}, a {@code verbose} that is neither
     *                                  {@code true} nor {@code false}, a {@code carriers} that is not a whole number
     *                                  from 1 to 32767, an unusable report path or a bad pattern, with a message that
     *                                  lists the options
     */
    public static AgentOptions parse(String arguments) {
        List<String> includes = new ArrayList<>();
        List<String> excludes = new ArrayList<>();
        Path report = null;
        boolean verbose = false;
        Integer carriers = null;
        Path cache = null;
        boolean cacheGiven = false;
        if (arguments != null) {
            for (String setting : arguments.split(";")) {
                if (setting.isBlank()) {
                    continue;
                }
                int equals = setting.indexOf('=');
                String name = (equals < 0 ? setting : setting.substring(0, equals)).strip();
                String value = equals < 0 ? null : setting.substring(equals + 1).strip();
                if (!NAMES.contains(name) || (value == null && !name.equals("verbose"))) {
                    throw new IllegalArgumentException(usage("'" + setting.strip() + "' is not an option"));
                }
                if (value != null && value.isEmpty()) {
                    throw new IllegalArgumentException(usage("'" + setting.strip() + "' has no value"));
                }
                switch (name) {
                    case "includes" -> includes.addAll(patterns(value));
                    case "excludes" -> excludes.addAll(patterns(value));
                    case "report" -> {
                        if (report != null) {
                            throw new IllegalArgumentException(usage("'report' is given twice"));
                        }
                        report = path("report", value);
                    }
                    case "carriers" -> {
                        if (carriers != null) {
                            throw new IllegalArgumentException(usage("'carriers' is given twice"));
                        }
                        carriers = carriersValue(value);
                    }
                    case "cache" -> {
                        if (cacheGiven) {
                            throw new IllegalArgumentException(usage("'cache' is given twice"));
                        }
                        cacheGiven = true;
                        cache = value.equals(CACHE_OFF) ? null : path("cache", value);
                    }
                    default -> verbose = verboseValue(value);
                }
            }
        }
        try {
            return new AgentOptions(ClassNameFilter.of(includes, excludes), report, verbose, carriers,
                    cacheGiven ? cache : defaultCache());
        } catch (IllegalArgumentException badPattern) {
            throw new IllegalArgumentException(usage(badPattern.getMessage()), badPattern);
        }
    }

    private static Path path(String name, String value) {
        try {
            return Path.of(value);
        } catch (InvalidPathException unusable) {
            throw new IllegalArgumentException(usage("'" + name + "=" + value + "' is not a usable path: "
                    + unusable.getReason()), unusable);
        }
    }

    /** The cache's directory when the options do not name one, or null when there is no home directory to hold it. */
    private static Path defaultCache() {
        try {
            String cacheHome = System.getenv("XDG_CACHE_HOME");
            if (cacheHome != null && !cacheHome.isEmpty() && Path.of(cacheHome).isAbsolute()) {
                return Path.of(cacheHome, "picothreads", "agent");
            }
            String home = System.getProperty("user.home");
            return home == null || home.isEmpty() ? null : Path.of(home, ".cache", "picothreads", "agent");
        } catch (InvalidPathException unusable) {
            return null;
        }
    }

    /** True when the rewritten classes are kept in and taken from the persistent cache. */
    boolean usesCache() {
        return cache != null && report == null && !verbose;
    }

    private static int carriersValue(String value) {
        try {
            int carriers = Integer.parseInt(value);
            if (carriers >= 1 && carriers <= MOST_CARRIERS) {
                return carriers;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException(usage("'carriers=" + value + "' is not a whole number from 1 to "
                + MOST_CARRIERS));
    }

    private static boolean verboseValue(String value) {
        if (value == null || value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(usage("'verbose=" + value + "' is neither verbose=true nor verbose=false"));
    }

    private static List<String> patterns(String value) {
        return Arrays.asList(value.split(","));
    }

    private static String usage(String problem) {
        return "pico-agent: " + problem + "; the options are includes=PATTERN,...;excludes=PATTERN,...;report=FILE;"
                + "verbose;carriers=N;cache=DIR|off, for example -javaagent:pico-agent.jar=includes=com.example.*;"
                + "report=pico-report.json";
    }
}
