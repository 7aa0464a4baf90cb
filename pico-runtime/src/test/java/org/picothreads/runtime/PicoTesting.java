package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.ThreadCalls;

/** Small helpers shared by the runtime tests: an event log, starting threads from one PicoThread, waiting for them. */
public final class PicoTesting {
    private PicoTesting() {
    }

    /** How long a spare carrier may stay after the blocks it compensated for: its keep-alive (5 s) and a margin. */
    private static final long SPARE_RETIREMENT_MILLIS = 15_000;

    /** The configured number of carriers, as the scheduler reads it (picothreads.carriers, else one per processor). */
    public static int configuredCarriers() {
        return Integer.getInteger("picothreads.carriers", Runtime.getRuntime().availableProcessors());
    }

    /**
     * True when the tests run with one carrier (picothreads.carriers=1), where the policies order threads exactly;
     * then first waits until the spare carriers that an earlier test's pinned or unseen blocks started have retired,
     * so that one carrier runs the threads, and fails if one stays past its keep-alive.
     */
    static boolean oneCarrier() {
        boolean one = configuredCarriers() == 1;
        if (one) {
            awaitSparesRetired(1);
        }
        return one;
    }

    /**
     * Waits until no more than {@code configured} carriers run, the spare carriers an earlier test's pinned or unseen
     * blocks started having retired; fails if one stays past its keep-alive.
     */
    public static void awaitSparesRetired(int configured) {
        long deadline = System.nanoTime() + SPARE_RETIREMENT_MILLIS * 1_000_000;
        while (PicoThreads.statistics().carriers() > configured) {
            assertTrue(System.nanoTime() - deadline < 0, "a spare carrier did not retire within "
                    + SPARE_RETIREMENT_MILLIS + " ms: " + PicoThreads.statistics());
            try {
                Thread.sleep(50);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
        }
    }

    /** A Runnable that runs its body in a pinned region, as rewritten code does around a frame it cannot capture. */
    static Runnable pinned(Script.Step body) {
        return () -> {
            Continuation.pin();
            try {
                body.run();
            } catch (Exception unexpected) {
                throw new IllegalStateException(unexpected);
            } finally {
                Continuation.unpin();
            }
        };
    }

    /** A log the threads append to; written on the carrier, read by the test after joining. */
    static List<Object> events() {
        return Collections.synchronizedList(new ArrayList<>());
    }

    /**
     * Starts the threads from one launching PicoThread, so that they enter the run queue in this order with
     * nothing in between, and waits until they have all terminated.
     */
    static void runAll(Thread... threads) throws InterruptedException {
        PicoThread launcher = new PicoThread(() -> {
            for (Thread thread : threads) {
                thread.start();
            }
        }, "launcher");
        launcher.start();
        awaitTermination(launcher);
        awaitTermination(threads);
    }

    /** Joins each thread from this platform thread, failing if one is still alive after 20 seconds. */
    static void awaitTermination(Thread... threads) throws InterruptedException {
        for (Thread thread : threads) {
            ThreadCalls.join(thread, 20_000);
            assertFalse(ThreadCalls.isAlive(thread), () -> thread + " is still alive");
        }
    }
}
