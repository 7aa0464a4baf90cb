package org.picothreads.piranha;

import java.util.Locale;

/** How the crawler's one-thread-per-URL code runs. */
public enum Mode {
    /** The crawler classes pico-maven-plugin rewrote: each thread is a PicoThread on one carrier. */
    PICO,
    /** The untransformed crawler: a platform thread per URL. */
    PLATFORM,
    /** The untransformed crawler with a fixed pool of platform threads over a bounded queue that drops overflow. */
    POOL,
    /** The untransformed crawler with a JDK virtual thread per URL (JDK 21 or later). */
    VIRTUAL;

    /** The mode's name on the command line and in reports. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
