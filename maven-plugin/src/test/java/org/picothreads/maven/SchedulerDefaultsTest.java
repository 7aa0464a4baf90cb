package org.picothreads.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.picothreads.runtime.PicoThread;
import org.picothreads.runtime.PicoThreads;

class SchedulerDefaultsTest {
    @TempDir
    Path classes;

    private Properties written() throws Exception {
        Properties written = new Properties();
        try (Reader reader = Files.newBufferedReader(classes.resolve("META-INF/picothreads.properties"))) {
            written.load(reader);
        }
        return written;
    }

    @Test
    void the_policy_and_seed_are_written_where_the_runtime_reads_them_and_only_when_they_change() throws Exception {
        assertTrue(SchedulerDefaults.write(classes, "RANDOM", 7L, null));
        assertFalse(SchedulerDefaults.write(classes, "random", 7L, null));

        Properties written = written();
        assertEquals("random", written.getProperty("scheduler"));
        assertEquals("7", written.getProperty("seed"));
        assertNull(written.getProperty("carriers"));
    }

    @Test
    void an_unknown_policy_is_refused() {
        MojoExecutionException refused = assertThrows(MojoExecutionException.class,
                () -> SchedulerDefaults.write(classes, "round-robin", null, null));
        assertEquals("PicoThreads: scheduler must be fifo, lifo or random, not 'round-robin'", refused.getMessage());
    }

    @Test
    void carriers_alone_are_written_without_a_policy_and_only_when_they_change() throws Exception {
        assertTrue(SchedulerDefaults.write(classes, null, null, 4));
        assertFalse(SchedulerDefaults.write(classes, null, null, 4));

        Properties written = written();
        assertEquals("4", written.getProperty("carriers"));
        assertNull(written.getProperty("scheduler"));
        assertNull(written.getProperty("seed"));
    }

    @Test
    void carriers_are_written_beside_the_policy_and_a_change_of_either_rewrites_the_file() throws Exception {
        assertTrue(SchedulerDefaults.write(classes, "lifo", null, 2));
        assertTrue(SchedulerDefaults.write(classes, "lifo", null, 3));
        assertTrue(SchedulerDefaults.write(classes, "fifo", null, 3));
        assertFalse(SchedulerDefaults.write(classes, "fifo", null, 3));

        Properties written = written();
        assertEquals("fifo", written.getProperty("scheduler"));
        assertEquals("3", written.getProperty("carriers"));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 32768})
    void carriers_outside_1_to_32767_are_refused_naming_the_parameter_and_nothing_is_written(int carriers) {
        MojoExecutionException refused = assertThrows(MojoExecutionException.class,
                () -> SchedulerDefaults.write(classes, "lifo", null, carriers));
        assertEquals("PicoThreads: carriers must be a whole number from 1 to 32767, not " + carriers,
                refused.getMessage());
        assertFalse(Files.exists(classes.resolve("META-INF/picothreads.properties")));
    }

    @Test
    void the_runtime_boots_with_the_written_number_of_carriers() throws Exception {
        int carriers = Runtime.getRuntime().availableProcessors() + 1;
        SchedulerDefaults.write(classes, null, null, carriers);

        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                classes + File.pathSeparator + System.getProperty("java.class.path"), Spinners.class.getName(),
                Integer.toString(carriers));
        Path output = classes.resolve("output.txt");
        Process process = new ProcessBuilder(command).redirectOutput(output.toFile()).redirectErrorStream(true)
                .start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM did not exit within 60 s");
        assertEquals(carriers + " of " + carriers + " threads ran at once on " + carriers + " carriers",
                Files.readString(output, StandardCharsets.UTF_8).trim());
    }

    /**
     * Starts as many PicoThreads as its argument says, each spinning without ever blocking until all of them run at
     * once (or 10 s pass), which they do only on as many carriers; prints how many saw that and the carriers started.
     * The class is not rewritten, so it waits for them with a latch (an unrewritten Thread.join does not see them).
     */
    static final class Spinners {
        private Spinners() {
        }

        public static void main(String[] arguments) throws InterruptedException {
            int count = Integer.parseInt(arguments[0]);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger sawAllRunning = new AtomicInteger();
            CountDownLatch finished = new CountDownLatch(count);
            for (int index = 0; index < count; index++) {
                new PicoThread(() -> {
                    running.incrementAndGet();
                    while (running.get() < count && System.nanoTime() - deadline < 0) {
                        // no yield: the thread keeps its carrier
                    }
                    if (running.get() == count) {
                        sawAllRunning.incrementAndGet();
                    }
                    finished.countDown();
                }).start();
            }
            finished.await();
            System.out.println(sawAllRunning.get() + " of " + count + " threads ran at once on "
                    + PicoThreads.statistics().carriers() + " carriers");
        }
    }
}
