package org.picothreads.targets.interfaces;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Closes made through {@code Closeable}, {@code AutoCloseable}, {@code Channel} and interfaces extending them (a
 * try-with-resources on a variable of such a type, a closeQuietly helper) on objects of the program's classes whose
 * {@code close} blocks: each must suspend where the interface call did before the runtime stood in for it, and each
 * thread must record its closes in order. Four threads close three resources of each kind.
 */
public final class ClosesThroughInterfaces {
    private ClosesThroughInterfaces() {
    }

    /** A resource whose close sleeps and records it. */
    static final class SleepingResource implements Closeable {
        private final List<String> log;
        private final String name;

        SleepingResource(List<String> log, String name) {
            this.log = log;
            this.name = name;
        }

        @Override
        public void close() throws IOException {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            log.add(name);
        }
    }

    /** A byte channel of the program's own whose close sleeps. */
    static final class SleepingChannel implements ByteChannel {
        private final List<String> log;
        private boolean open = true;

        SleepingChannel(List<String> log) {
            this.log = log;
        }

        @Override
        public int read(ByteBuffer destination) {
            return -1;
        }

        @Override
        public int write(ByteBuffer source) {
            int count = source.remaining();
            source.position(source.limit());
            return count;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() throws IOException {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            open = false;
            log.add("channel");
        }
    }

    static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void closeAuto(AutoCloseable closeable) throws Exception {
        closeable.close();
    }

    static String closeAll(int thread) throws Exception {
        List<String> log = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            closeQuietly(new SleepingResource(log, "closeable" + round));
            closeAuto(new SleepingResource(log, "auto" + round));
            try (Closeable resource = new SleepingResource(log, "try" + round)) {
                log.add("body" + round);
            }
            Channel channel = new SleepingChannel(log);
            channel.close();
            ByteChannel bytes = new SleepingChannel(log);
            bytes.close();
            try (Stream<String> stream = Stream.of("a", "b").onClose(() -> log.add("stream"))) {
                log.add("count" + stream.count());
            }
        }
        return "thread " + thread + ": " + String.join(",", log);
    }

    public static String run() throws Exception {
        String[] results = new String[4];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int thread = index;
            threads[index] = new Thread(() -> {
                try {
                    results[thread] = closeAll(thread);
                } catch (Exception e) {
                    results[thread] = "thread " + thread + " failed: " + e;
                }
            });
            threads[index].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }
}
