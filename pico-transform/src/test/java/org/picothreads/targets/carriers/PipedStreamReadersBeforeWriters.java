package org.picothreads.targets.carriers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Readers of {@code PipedInputStream}s started before the writers they wait for: a read that finds no bytes waits
 * inside the JDK's own synchronized {@code read} ({@code Object.wait(1000)} in a loop), where the runtime does not
 * see it, so each waiting reader blocks its carrier for real. With as many readers as carriers, only a carrier that
 * something else starts can run the writers. If the readers have not all finished after {@link #RESCUE_AFTER_MILLIS},
 * the calling thread writes and closes the pipes of those still waiting, so that the program ends either way, and
 * says so.
 */
public final class PipedStreamReadersBeforeWriters {
    /** Readers, and writers: more than the carriers of any test run. */
    private static final int PAIRS = 8;
    /** How long the calling thread waits for the readers before it writes to their pipes itself. */
    private static final long RESCUE_AFTER_MILLIS = 10_000;

    private PipedStreamReadersBeforeWriters() {
    }

    public static String run() throws Exception {
        PipedOutputStream[] outputs = new PipedOutputStream[PAIRS];
        String[] received = new String[PAIRS];
        String[] written = new String[PAIRS];
        Thread[] readers = new Thread[PAIRS];
        Thread[] writers = new Thread[PAIRS];
        for (int index = 0; index < PAIRS; index++) {
            int pair = index;
            PipedInputStream input = new PipedInputStream();
            outputs[pair] = new PipedOutputStream(input);
            readers[pair] = new Thread(() -> received[pair] = readAll(input), "reader-" + pair);
            writers[pair] = new Thread(() -> {
                Pause.sleep(1);
                written[pair] = write(outputs[pair], "message " + pair);
            }, "writer-" + pair);
        }
        for (Thread reader : readers) {
            reader.start();
        }
        for (Thread writer : writers) {
            writer.start();
        }
        int rescued = 0;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RESCUE_AFTER_MILLIS);
        for (int index = 0; index < PAIRS; index++) {
            readers[index].join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (readers[index].isAlive()) {
                rescued++;
                write(outputs[index], "rescue " + index);
            }
        }
        StringBuilder result = new StringBuilder();
        for (int index = 0; index < PAIRS; index++) {
            readers[index].join();
            writers[index].join();
            result.append("reader ").append(index).append(" got '").append(received[index]).append("', writer ")
                    .append(index).append(' ').append(written[index]).append('\n');
        }
        return result.append("readers rescued by the caller ").append(rescued).toString();
    }

    /** Reads the pipe to its end; what was read, or the failure. */
    private static String readAll(PipedInputStream input) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            int next;
            while ((next = input.read()) >= 0) {
                bytes.write(next);
            }
            return bytes.toString(StandardCharsets.UTF_8);
        } catch (IOException exception) {
            return "failed: " + exception.getMessage();
        }
    }

    /** Writes a message and closes the pipe; what happened. */
    private static String write(PipedOutputStream output, String message) {
        try {
            output.write(message.getBytes(StandardCharsets.UTF_8));
            output.close();
            return "wrote";
        } catch (IOException exception) {
            return "failed: " + exception.getMessage();
        }
    }
}
