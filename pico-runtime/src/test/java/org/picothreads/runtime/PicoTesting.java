package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.picothreads.runtime.internal.ThreadCalls;

/** Small helpers shared by the runtime tests: an event log, starting threads from one PicoThread, waiting for them. */
final class PicoTesting {
    private PicoTesting() {
    }

    /** A log the threads append to; written on the carrier, read by the test after joining. */
    /** True when the tests run with one carrier (picothreads.carriers=1), where the policies order threads exactly. */
    static boolean oneCarrier() {
        return Integer.getInteger("picothreads.carriers", Runtime.getRuntime().availableProcessors()) == 1;
    }

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
