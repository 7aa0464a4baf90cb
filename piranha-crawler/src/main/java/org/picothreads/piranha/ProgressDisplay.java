package org.picothreads.piranha;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Locale;

/**
 * Shows a crawl's progress on a stream: on a terminal one line redrawn in place with carriage returns, otherwise
 * (a file, a pipe, a CI log) a plain line every few seconds, so that the output reads as lines.
 */
final class ProgressDisplay {

    /** How progress is shown. */
    enum Style {
        /** One line redrawn in place about three times a second, for a terminal. */
        BAR,
        /** A plain line every {@link #SECONDS_PER_LINE} seconds, for output that is not a terminal. */
        LINES;

        /** BAR when this JVM's standard streams are a terminal, LINES otherwise. */
        static Style forThisJvm() {
            return isTerminal(System.console()) ? BAR : LINES;
        }

        /** The style named on the command line: bar or lines. */
        static Style parse(String name) {
            try {
                return valueOf(name.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException unknown) {
                throw new IllegalArgumentException("unknown progress style '" + name + "': bar or lines");
            }
        }

        /** The name of this style on the command line. */
        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Seconds between two lines in the LINES style. */
    static final int SECONDS_PER_LINE = 2;
    /** Width of the bar of pages crawled. */
    private static final int BAR_WIDTH = 24;

    private final PrintStream out;
    private final Style style;
    /** The crawl's time (nanoseconds since it started) and bytes at the last line shown; -1 before the first. */
    private long shownNanos = -1;
    private long shownBytes;

    ProgressDisplay(PrintStream out, Style style) {
        this.out = out;
        this.style = style;
    }

    /**
     * Shows the progress {@code elapsedNanos} into the crawl, with the throughput since the last line shown: redraws
     * the line, or in the LINES style prints one when the last is {@link #SECONDS_PER_LINE} seconds old.
     */
    void show(long elapsedNanos, String mode, long pages, long budget, long bytes, long liveThreads) {
        long sinceShown = elapsedNanos - Math.max(0, shownNanos);
        if (style == Style.LINES && shownNanos >= 0 && sinceShown < SECONDS_PER_LINE * 1_000_000_000L) {
            return;
        }
        double kilobytesPerSecond = (bytes - shownBytes) / 1024.0 / Math.max(1e-3, sinceShown / 1e9);
        shownNanos = elapsedNanos;
        shownBytes = bytes;
        double seconds = elapsedNanos / 1e9;
        if (style == Style.LINES) {
            out.printf(Locale.ROOT, "%-8s %7d of %d pages %9.1f KB/s %7d live threads %6.1f s%n", mode, pages, budget,
                    kilobytesPerSecond, liveThreads, seconds);
        } else {
            int filled = (int) Math.min(BAR_WIDTH, pages * BAR_WIDTH / Math.max(1, budget));
            String bar = "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled);
            out.printf(Locale.ROOT, "\r%-8s [%s] %7d pages %9.1f KB/s %7d live threads %6.1f s   ", mode, bar, pages,
                    kilobytesPerSecond, liveThreads, seconds);
        }
        out.flush();
    }

    /** Ends the display: clears the redrawn line; lines stay. */
    void end() {
        if (style == Style.BAR) {
            out.print("\r" + " ".repeat(100) + "\r");
            out.flush();
        }
    }

    /**
     * Whether the console is an interactive terminal: from JDK 22 on, System.console() returns a console for
     * redirected streams too, and Console.isTerminal() tells; before, a console exists only on a terminal.
     */
    private static boolean isTerminal(Console console) {
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException beforeJdk22) {
            return true;
        } catch (ReflectiveOperationException unexpected) {
            return false;
        }
    }
}
