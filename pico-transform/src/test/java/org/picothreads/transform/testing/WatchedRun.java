package org.picothreads.transform.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program on the calling thread while keeping what is needed to explain a failure: everything written
 * to System.err meanwhile (where threads that die of an uncaught exception leave their stack trace), and,
 * when the run does not end in time, a dump of every thread's stack to
 * {@code <build directory>/validation-hangs/<program>.txt}, after which the calling thread is interrupted.
 */
public final class WatchedRun {
    /** How long a run may take before its threads are dumped and the caller is interrupted. */
    static final long TIME_LIMIT_SECONDS = 60;
    /** At most this many characters of System.err are kept. */
    private static final int KEPT_ERROR_OUTPUT = 6000;

    /** What the program returned, or null when it threw. */
    private final String result;
    /** What was written to System.err during the run, tail first cut to {@link #KEPT_ERROR_OUTPUT}. */
    private final String errorOutput;

    private WatchedRun(String result, String errorOutput) {
        this.result = result;
        this.errorOutput = errorOutput;
    }

    /**
     * Runs {@code program} on the calling thread. When it does not end within {@link #TIME_LIMIT_SECONDS},
     * fails with an AssertionError naming the thread dump.
     */
    public static WatchedRun run(String programName, Callable<String> program) throws Exception {
        Thread caller = Thread.currentThread();
        Path[] dump = new Path[1];
        Thread watchdog = new Thread(() -> {
            try {
                TimeUnit.SECONDS.sleep(TIME_LIMIT_SECONDS);
            } catch (InterruptedException finished) {
                return;
            }
            synchronized (dump) {
                dump[0] = writeThreadDump(programName);
            }
            caller.interrupt();
        }, "validation-watchdog");
        watchdog.setDaemon(true);

        PrintStream originalError = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new Tee(originalError, captured), true, StandardCharsets.UTF_8));
        String result;
        watchdog.start();
        try {
            result = program.call();
        } catch (Exception | Error failure) {
            Path dumped = stopWatchdog(watchdog, dump);
            if (dumped != null) {
                throw new AssertionError(programName + " did not finish within " + TIME_LIMIT_SECONDS
                        + " s; every thread's stack is in " + dumped, failure);
            }
            throw failure;
        } finally {
            System.setErr(originalError);
        }
        stopWatchdog(watchdog, dump);
        return new WatchedRun(result, tail(captured.toString(StandardCharsets.UTF_8)));
    }

    /** What the program returned. */
    public String result() {
        return result;
    }

    /** What was written to System.err during the run (at most its last few thousand characters). */
    public String errorOutput() {
        return errorOutput;
    }

    /** Stops the watchdog; when it fired, clears the interrupt it sent and returns the dump it wrote. */
    private static Path stopWatchdog(Thread watchdog, Path[] dump) throws InterruptedException {
        watchdog.interrupt();
        watchdog.join();
        synchronized (dump) {
            if (dump[0] != null) {
                Thread.interrupted();
            }
            return dump[0];
        }
    }

    private static Path writeThreadDump(String programName) {
        StringBuilder text = new StringBuilder(programName).append(" did not finish; the stacks of all threads:\n");
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            Thread thread = entry.getKey();
            text.append("\n\"").append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
            for (StackTraceElement element : entry.getValue()) {
                text.append("    at ").append(element).append('\n');
            }
        }
        Path file = TestClasspath.buildDirectory().resolve("validation-hangs").resolve(programName + ".txt");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException exception) {
            throw new UncheckedIOException("cannot write the thread dump " + file, exception);
        }
        return file;
    }

    private static String tail(String text) {
        return text.length() <= KEPT_ERROR_OUTPUT ? text : "...\n" + text.substring(text.length() - KEPT_ERROR_OUTPUT);
    }

    /** Writes to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int value) throws IOException {
            first.write(value);
            second.write(value);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            first.write(bytes, offset, length);
            second.write(bytes, offset, length);
        }

        @Override
        public synchronized void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
