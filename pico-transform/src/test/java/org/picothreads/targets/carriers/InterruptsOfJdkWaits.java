package org.picothreads.targets.carriers;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Threads interrupted while they wait inside the JDK's own code, where the runtime does not see the wait: one waits
 * in {@code Process.waitFor} for a {@code cat} process that never ends and is interrupted by another thread; one
 * interrupts itself and then calls {@code Process.waitFor}. Each wait must end with InterruptedException and leave
 * the interrupt status clear, as on platform threads. The processes are destroyed at the end, so that the program
 * ends either way, and says so.
 */
public final class InterruptsOfJdkWaits {
    /** How long the interrupted waiter is left waiting before the interrupt. */
    private static final long WAIT_BEFORE_INTERRUPT_MILLIS = 100;
    /** How long the program waits for each waiter to end. */
    private static final long LIMIT_MILLIS = 10_000;

    private InterruptsOfJdkWaits() {
    }

    public static String run() throws Exception {
        String[] outcome = new String[1];
        Thread caller = new Thread(() -> outcome[0] = interruptTheWaiters());
        Pause.startAndJoin(caller);
        return outcome[0];
    }

    private static String interruptTheWaiters() {
        Process[] processes;
        try {
            processes = new Process[] {start(), start()};
        } catch (IOException exception) {
            return "cannot start cat: " + exception.getMessage();
        }
        String[] outcomes = new String[2];
        Thread waiter = new Thread(() -> outcomes[0] = awaitExit(processes[0]), "waiter");
        Thread selfInterrupted = new Thread(() -> {
            Thread.currentThread().interrupt();
            outcomes[1] = awaitExit(processes[1]);
        }, "self-interrupted");
        waiter.start();
        selfInterrupted.start();
        Pause.sleep(WAIT_BEFORE_INTERRUPT_MILLIS);
        waiter.interrupt();
        try {
            waiter.join(LIMIT_MILLIS);
            selfInterrupted.join(LIMIT_MILLIS);
        } catch (InterruptedException exception) {
            return "the caller was interrupted";
        }
        StringBuilder result = new StringBuilder();
        for (Process process : processes) {
            process.destroy();
        }
        return result.append("interrupted by another thread: ").append(outcomes[0])
                .append("; interrupted by itself: ").append(outcomes[1])
                .append("; waiters alive ").append(waiter.isAlive() || selfInterrupted.isAlive()).toString();
    }

    private static Process start() throws IOException {
        return new ProcessBuilder("cat").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Waits for the process to exit, which it does not before it is destroyed; what happened. */
    private static String awaitExit(Process process) {
        try {
            return process.waitFor(LIMIT_MILLIS, TimeUnit.MILLISECONDS) ? "the process exited"
                    : "the wait timed out";
        } catch (InterruptedException exception) {
            return "InterruptedException, status then " + Thread.currentThread().isInterrupted();
        }
    }
}
