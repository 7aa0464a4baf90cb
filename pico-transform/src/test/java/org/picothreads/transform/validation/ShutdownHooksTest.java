package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.picothreads.targets.shutdown.ShutdownHooksProgram;
import org.picothreads.transform.testing.TransformedChildJvm;

/** Shutdown hooks made with {@code new Thread(...)}, which the JVM runs and waits for when the program ends. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ShutdownHooksTest {

    @Test
    void a_sleeping_shutdown_hook_runs_to_its_end_and_hooks_are_refused_and_removed_as_on_platform_threads()
            throws Exception {
        TransformedChildJvm.Result plain = TransformedChildJvm.runAsCompiled(ShutdownHooksProgram.class, List.of());
        TransformedChildJvm.Result transformed = TransformedChildJvm.run(ShutdownHooksProgram.class, List.of());

        assertEquals(0, plain.exitCode(), plain::errors);
        assertEquals("""
                the same hook again: Hook previously registered
                removing a registered hook: true
                removing it again: false
                removing a hook never registered: false
                a running thread: Hook already running
                main returns
                the sleeping hook ran to its end as sleeping-hook
                adding a hook during shutdown: Shutdown in progress
                removing a hook during shutdown: Shutdown in progress
                """, plain.output(), plain::errors);
        assertEquals(plain.output(), transformed.output(), transformed::errors);
        assertEquals(plain.exitCode(), transformed.exitCode(), transformed::errors);
    }

    @Test
    void a_sleeping_shutdown_hook_runs_to_its_end_when_a_thread_calls_system_exit_as_on_platform_threads()
            throws Exception {
        TransformedChildJvm.Result plain = TransformedChildJvm.runAsCompiled(ShutdownHooksProgram.class, List.of(),
                "exit-from-a-thread");
        TransformedChildJvm.Result transformed = TransformedChildJvm.run(ShutdownHooksProgram.class, List.of(),
                "exit-from-a-thread");

        assertEquals(3, plain.exitCode(), plain::errors);
        assertEquals("""
                a thread calls System.exit(3)
                the sleeping hook ran to its end as sleeping-hook
                adding a hook during shutdown: Shutdown in progress
                removing a hook during shutdown: Shutdown in progress
                """, plain.output(), plain::errors);
        assertEquals(plain.output(), transformed.output(), transformed::errors);
        assertEquals(plain.exitCode(), transformed.exitCode(), transformed::errors);
    }
}
