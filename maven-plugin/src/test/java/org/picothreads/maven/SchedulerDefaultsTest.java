package org.picothreads.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchedulerDefaultsTest {
    @TempDir
    Path classes;

    @Test
    void the_policy_and_seed_are_written_where_the_runtime_reads_them_and_only_when_they_change() throws Exception {
        assertTrue(SchedulerDefaults.write(classes, "RANDOM", 7L));
        assertFalse(SchedulerDefaults.write(classes, "random", 7L));

        Properties written = new Properties();
        try (Reader reader = Files.newBufferedReader(classes.resolve("META-INF/picothreads.properties"))) {
            written.load(reader);
        }
        assertEquals("random", written.getProperty("scheduler"));
        assertEquals("7", written.getProperty("seed"));
    }

    @Test
    void an_unknown_policy_is_refused() {
        MojoExecutionException refused = assertThrows(MojoExecutionException.class,
                () -> SchedulerDefaults.write(classes, "round-robin", null));
        assertEquals("PicoThreads: scheduler must be fifo, lifo or random, not 'round-robin'", refused.getMessage());
    }
}
