package org.picothreads.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** What the watchdog takes for a carrier blocked in code the runtime does not see, and its settings. */
class WatchdogTest {
    /** How long a helper thread is given to get where the test looks at it. */
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void the_states_of_a_waiting_thread_count_as_blocked_and_runnable_does_not() {
        assertTrue(Watchdog.isBlockedState(Thread.State.BLOCKED));
        assertTrue(Watchdog.isBlockedState(Thread.State.WAITING));
        assertTrue(Watchdog.isBlockedState(Thread.State.TIMED_WAITING));
        assertFalse(Watchdog.isBlockedState(Thread.State.RUNNABLE), "a thread that computes is RUNNABLE");
        assertFalse(Watchdog.isBlockedState(Thread.State.NEW));
        assertFalse(Watchdog.isBlockedState(Thread.State.TERMINATED));
    }

    @Test
    void a_thread_reading_an_empty_pipe_stands_in_a_native_method_known_to_block() throws Exception {
        Pipe pipe = Pipe.open();
        Thread reader = new Thread(() -> {
            try {
                pipe.source().read(ByteBuffer.allocate(8));
            } catch (Exception closed) {
                // the test closes the pipe to end the read
            }
        }, "pipe-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            String method = awaitBlockingNativeFrame(reader);
            assertEquals(Thread.State.RUNNABLE, reader.getState(), "a native read leaves its thread RUNNABLE");
            assertTrue(method != null && method.endsWith(".read0"), () -> "the reader stands in " + method);
        } finally {
            pipe.sink().close();
            pipe.source().close();
            reader.join(TimeUnit.NANOSECONDS.toMillis(SETTLE_NANOS));
        }
    }

    @Test
    void a_thread_that_computes_stands_in_no_native_method_known_to_block() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        long[] sum = new long[1];
        Thread computing = new Thread(() -> {
            long total = 0;
            while (!stop.get()) {
                total += 1 + Long.numberOfTrailingZeros(total);
            }
            sum[0] = total;
        }, "computing");
        computing.setDaemon(true);
        computing.start();
        try {
            for (int look = 0; look < 100; look++) {
                StackTraceElement[] stack = computing.getStackTrace();
                if (stack.length > 0) {
                    assertNull(Watchdog.blockingNativeMethod(stack[0]), () -> "computing stands in " + stack[0]);
                }
            }
        } finally {
            stop.set(true);
            computing.join(TimeUnit.NANOSECONDS.toMillis(SETTLE_NANOS));
        }
        assertTrue(sum[0] > 0, "the thread computed");
    }

    @Test
    void the_watchdog_runs_by_default_every_ten_ms_with_a_twenty_ms_threshold_and_each_setting_changes_it() {
        RuntimeSettings.WatchdogSettings defaults = withProperty("picothreads.watchdog", null,
                () -> withProperty("picothreads.watchdogPeriodMillis", null,
                        () -> withProperty("picothreads.watchdogThresholdMillis", null, RuntimeSettings::watchdog)));
        assertEquals(new RuntimeSettings.WatchdogSettings(true, TimeUnit.MILLISECONDS.toNanos(10),
                TimeUnit.MILLISECONDS.toNanos(20)), defaults);
        assertFalse(withProperty("picothreads.watchdog", "false", RuntimeSettings::watchdog).enabled());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(3),
                withProperty("picothreads.watchdogPeriodMillis", "3", RuntimeSettings::watchdog).periodNanos());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(5),
                withProperty("picothreads.watchdogThresholdMillis", "5", RuntimeSettings::watchdog).thresholdNanos());
    }

    @Test
    void a_watchdog_period_of_zero_ms_is_refused_with_the_allowed_range() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> withProperty("picothreads.watchdogPeriodMillis", "0", RuntimeSettings::watchdog));
        assertEquals("PicoThreads: picothreads.watchdogPeriodMillis must be a whole number of milliseconds from 1 to"
                + " 86400000, not '0'", refused.getMessage());
    }

    /** Calls {@code read} with the system property {@code name} set to {@code value} (or cleared), then restores it. */
    private static <T> T withProperty(String name, String value, Supplier<T> read) {
        String saved = System.getProperty(name);
        try {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
            return read.get();
        } finally {
            if (saved == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, saved);
            }
        }
    }

    /**
     * The blocking native method the thread's innermost frame stands in, once it stands in one; null when it never
     * gets there within {@link #SETTLE_NANOS}.
     */
    private static String awaitBlockingNativeFrame(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        while (System.nanoTime() - deadline < 0) {
            StackTraceElement[] stack = thread.getStackTrace();
            String method = stack.length == 0 ? null : Watchdog.blockingNativeMethod(stack[0]);
            if (method != null) {
                return method;
            }
            Thread.sleep(5);
        }
        return null;
    }
}
