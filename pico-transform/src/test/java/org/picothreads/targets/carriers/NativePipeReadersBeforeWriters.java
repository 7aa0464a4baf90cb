package org.picothreads.targets.carriers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Readers of {@code java.nio.channels.Pipe}s in blocking mode started before the writers they wait for: a read that
 * finds no bytes blocks in a native method (its thread stays RUNNABLE), which the rewrite does not redirect, so each
 * waiting reader blocks its carrier for real. With as many readers as carriers, only a carrier that something else
 * starts can run the writers. If the readers have not all finished after {@link #RESCUE_AFTER_MILLIS}, the calling
 * thread writes to and closes the pipes of those still waiting, so that the program ends either way, and says so.
 */
public final class NativePipeReadersBeforeWriters {
    /** Readers, and writers: more than the carriers of any test run. */
    private static final int PAIRS = 8;
    /** How long the calling thread waits for the readers before it writes to their pipes itself. */
    private static final long RESCUE_AFTER_MILLIS = 10_000;

    private NativePipeReadersBeforeWriters() {
    }

    public static String run() throws Exception {
        Pipe[] pipes = new Pipe[PAIRS];
        String[] received = new String[PAIRS];
        String[] written = new String[PAIRS];
        Thread[] readers = new Thread[PAIRS];
        Thread[] writers = new Thread[PAIRS];
        for (int index = 0; index < PAIRS; index++) {
            int pair = index;
            pipes[pair] = Pipe.open();
            readers[pair] = new Thread(() -> received[pair] = readAll(pipes[pair].source()), "reader-" + pair);
            writers[pair] = new Thread(() -> {
                Pause.sleep(1);
                written[pair] = write(pipes[pair].sink(), "message " + pair);
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
                write(pipes[index].sink(), "rescue " + index);
            }
        }
        StringBuilder result = new StringBuilder();
        for (int index = 0; index < PAIRS; index++) {
            readers[index].join();
            writers[index].join();
            pipes[index].source().close();
            result.append("reader ").append(index).append(" got '").append(received[index]).append("', writer ")
                    .append(index).append(' ').append(written[index]).append('\n');
        }
        return result.append("readers rescued by the caller ").append(rescued).toString();
    }

    /** Reads the pipe to its end; what was read, or the failure. */
    private static String readAll(Pipe.SourceChannel source) {
        StringBuilder text = new StringBuilder();
        ByteBuffer buffer = ByteBuffer.allocate(64);
        try {
            while (source.read(buffer) >= 0) {
                buffer.flip();
                text.append(StandardCharsets.UTF_8.decode(buffer));
                buffer.clear();
            }
            return text.toString();
        } catch (IOException exception) {
            return "failed: " + exception;
        }
    }

    /** Writes a message and closes the pipe's sink; what happened. */
    private static String write(Pipe.SinkChannel sink, String message) {
        try {
            ByteBuffer bytes = ByteBuffer.wrap(message.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                sink.write(bytes);
            }
            sink.close();
            return "wrote";
        } catch (IOException exception) {
            return "failed: " + exception;
        }
    }
}
