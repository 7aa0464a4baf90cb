package org.picothreads.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.picothreads.transform.io.ContainerException;
import org.picothreads.transform.io.StagedOutput;

/**
 * Writes the build's default scheduling policy as the resource {@code META-INF/picothreads.properties}, which the
 * runtime reads at boot when the system properties {@code picothreads.scheduler} and {@code picothreads.seed} are
 * not set.
 */
final class SchedulerDefaults {
    /** The resource's path in a classes directory; the runtime's Scheduler reads the same name. */
    static final String RESOURCE = "META-INF/picothreads.properties";
    private static final String[] POLICIES = {"fifo", "lifo", "random"};

    private SchedulerDefaults() {
    }

    /**
     * Writes the resource into the classes directory unless it already holds the same text.
     *
     * @param scheduler fifo, lifo or random, in any case
     * @param seed      the RANDOM policy's seed, or null for the runtime's default
     * @return whether the file was written
     * @throws MojoExecutionException for another policy name, or when the file cannot be written
     */
    static boolean write(Path classesDirectory, String scheduler, Long seed) throws MojoExecutionException {
        String policy = scheduler.strip().toLowerCase(Locale.ROOT);
        if (!Arrays.asList(POLICIES).contains(policy)) {
            throw new MojoExecutionException("PicoThreads: scheduler must be fifo, lifo or random, not '" + scheduler
                    + "'");
        }
        String text = "# Written by pico-maven-plugin: the default scheduling policy of this build's program;\n"
                + "# -Dpicothreads.scheduler and -Dpicothreads.seed override it.\n"
                + "scheduler=" + policy + "\n" + (seed == null ? "" : "seed=" + seed + "\n");
        Path file = classesDirectory.resolve(RESOURCE);
        try {
            if (Files.isRegularFile(file) && Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
                return false;
            }
        } catch (IOException unreadable) {
            // An unreadable file is replaced below.
        }
        try (StagedOutput staged = StagedOutput.ofFile(file, text.getBytes(StandardCharsets.UTF_8))) {
            staged.commit();
            return true;
        } catch (ContainerException unwritable) {
            throw new MojoExecutionException("PicoThreads: " + unwritable.getMessage(), unwritable);
        }
    }
}
