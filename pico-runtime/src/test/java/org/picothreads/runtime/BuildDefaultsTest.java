package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scheduler reads a build's default policy from META-INF/picothreads.properties, and system properties win. */
class BuildDefaultsTest {
    private static final String LAST_FIRST = "order [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]";
    private static final String FIRST_FIRST = "order [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";

    @TempDir
    Path directory;

    private Path resourceWith(String content) throws IOException {
        Path file = directory.resolve("META-INF/picothreads.properties");
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return directory;
    }

    @Test
    void the_policy_in_the_class_path_resource_is_used_when_no_system_property_is_set()
            throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of(), List.of(resourceWith("scheduler=lifo\ncarriers=1\n")), "order");
        assertEquals(0, result.exitCode(), result::errors);
        assertEquals(LAST_FIRST, result.output().trim());
    }

    @Test
    void the_system_property_wins_over_the_class_path_resource() throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of("-Dpicothreads.scheduler=fifo"),
                List.of(resourceWith("scheduler=lifo\ncarriers=1\n")), "order");
        assertEquals(0, result.exitCode(), result::errors);
        assertEquals(FIRST_FIRST, result.output().trim());
    }

    @Test
    void the_seed_in_the_resource_gives_the_same_order_as_the_same_seed_as_a_system_property()
            throws IOException, InterruptedException {
        ChildJvm.Result fromResource = ChildJvm.run(List.of(),
                List.of(resourceWith("scheduler=random\nseed=1\ncarriers=1\n")), "order");
        ChildJvm.Result fromProperties = ChildJvm.run(List.of("-Dpicothreads.scheduler=random",
                "-Dpicothreads.seed=1", "-Dpicothreads.carriers=1"), "order");
        assertEquals(0, fromResource.exitCode(), fromResource::errors);
        assertEquals(fromProperties.output(), fromResource.output());
    }

    @Test
    void an_unknown_policy_in_the_resource_fails_the_first_start_naming_the_resource()
            throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of(), List.of(resourceWith("scheduler=round-robin\n")), "order");
        assertEquals(1, result.exitCode());
        assertTrue(result.errors().contains("picothreads.properties must be fifo, lifo or random, not 'round-robin'"),
                result.errors());
    }

    @Test
    void a_carrier_count_that_is_not_a_positive_number_fails_the_first_start_naming_the_resource()
            throws IOException, InterruptedException {
        ChildJvm.Result result = ChildJvm.run(List.of(), List.of(resourceWith("carriers=none\n")), "order");
        assertEquals(1, result.exitCode());
        assertTrue(result.errors().contains("picothreads.properties must be a whole number from 1 to 32767, not 'none'"),
                result::errors);
    }
}
