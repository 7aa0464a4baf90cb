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
 * Writes the build's default scheduling policy and carrier count as the resource
 * {@code META-INF/picothreads.properties}, which the runtime reads at boot when the system properties
 * {@code picothreads.scheduler}, {@code picothreads.seed} and {@code picothreads.carriers} are not set.
 */
final class SchedulerDefaults {
    /** The resource's path in a classes directory; the runtime's Scheduler reads the same name. */
    static final String RESOURCE = "META-INF/picothreads.properties";
    private static final String[] POLICIES = {"fifo", "lifo", "random"};
    /** The most carriers the runtime accepts, as its Scheduler checks {@code carriers}. */
    static final int MOST_CARRIERS = 32_767;

    private SchedulerDefaults() {
    }

    /**
     * Writes the resource into the classes directory unless it already holds the same text.
     *
     * @param scheduler fifo, lifo or random, in any case, or null to leave the policy (and the seed) to the runtime
     * @param seed      the RANDOM policy's seed, written only with {@code scheduler}, or null for the runtime's default
     * @param carriers  the number of carriers, 1 to {@value #MOST_CARRIERS}, or null for the runtime's default
     * @return whether the file was written
     * @throws MojoExecutionException for another policy name or carrier count, or when the file cannot be written
     */
    static boolean write(Path classesDirectory, String scheduler, Long seed, Integer carriers)
            throws MojoExecutionException {
        String policy = scheduler == null ? null : scheduler.strip().toLowerCase(Locale.ROOT);
        if (policy != null && !Arrays.asList(POLICIES).contains(policy)) {
            throw new MojoExecutionException("PicoThreads: scheduler must be fifo, lifo or random, not '" + scheduler
                    + "'");
        }
        if (carriers != null && (carriers < 1 || carriers > MOST_CARRIERS)) {
            throw new MojoExecutionException("PicoThreads: carriers must be a whole number from 1 to " + MOST_CARRIERS
                    + ", not " + carriers);
        }
        String text = "# Written by pico-maven-plugin: the default scheduling of this build's program;\n"
                + "# -Dpicothreads.scheduler, -Dpicothreads.seed and -Dpicothreads.carriers override it.\n"
                + (policy == null ? "" : "scheduler=" + policy + "\n" + (seed == null ? "" : "seed=" + seed + "\n"))
                + (carriers == null ? "" : "carriers=" + carriers + "\n");
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
