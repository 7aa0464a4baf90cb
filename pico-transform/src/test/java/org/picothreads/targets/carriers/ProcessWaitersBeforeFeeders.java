package org.picothreads.targets.carriers;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Threads that wait for {@code cat} processes to exit, started before the threads that feed the processes their input
 * and close it: {@code Process.waitFor} waits inside the JDK (a monitor wait or a park, as the JDK version has it),
 * where the runtime does not see it, so each waiter blocks its carrier for real, and a process ends only once its
 * feeder has run. With as many waiters as carriers, only a carrier that something else starts can run the feeders.
 * Each wait gives up after {@link #LIMIT_SECONDS}, and the processes are then destroyed, so that the program ends
 * either way, and says so.
 */
public final class ProcessWaitersBeforeFeeders {
    /** Waiters, feeders and processes: more than the carriers of any test run. */
    private static final int PROCESSES = 8;
    /** How long a waiter waits for its process. */
    private static final long LIMIT_SECONDS = 10;

    private ProcessWaitersBeforeFeeders() {
    }

    public static String run() throws Exception {
        Process[] processes = new Process[PROCESSES];
        String[] waited = new String[PROCESSES];
        String[] fed = new String[PROCESSES];
        Thread[] waiters = new Thread[PROCESSES];
        Thread[] feeders = new Thread[PROCESSES];
        for (int index = 0; index < PROCESSES; index++) {
            int number = index;
            processes[number] = new ProcessBuilder("cat").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            waiters[number] = new Thread(() -> waited[number] = awaitExit(processes[number]), "waiter-" + number);
            feeders[number] = new Thread(() -> {
                Pause.sleep(1);
                fed[number] = feed(processes[number].getOutputStream(), "line " + number + "\n");
            }, "feeder-" + number);
        }
        for (Thread waiter : waiters) {
            waiter.start();
        }
        for (Thread feeder : feeders) {
            feeder.start();
        }
        StringBuilder result = new StringBuilder();
        for (int index = 0; index < PROCESSES; index++) {
            waiters[index].join();
            feeders[index].join();
            processes[index].destroy();
            result.append("process ").append(index).append(' ').append(waited[index]).append(", its feeder ")
                    .append(fed[index]).append('\n');
        }
        return result.toString().trim();
    }

    /** Waits for the process to exit, at most {@link #LIMIT_SECONDS}; what happened. */
    private static String awaitExit(Process process) {
        try {
            return process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)
                    ? "exited with " + process.exitValue()
                    : "was still running after " + LIMIT_SECONDS + " s";
        } catch (InterruptedException exception) {
            return "wait interrupted";
        }
    }

    /** Writes a line to the process and closes its input; what happened. */
    private static String feed(OutputStream input, String line) {
        try (OutputStream out = input) {
            out.write(line.getBytes(StandardCharsets.UTF_8));
            return "fed it";
        } catch (IOException exception) {
            return "failed: " + exception.getMessage();
        }
    }
}
