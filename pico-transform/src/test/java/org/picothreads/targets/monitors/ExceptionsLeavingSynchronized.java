package org.picothreads.targets.monitors;

import java.util.ArrayList;
import java.util.List;

/**
 * Exceptions thrown out of synchronized methods and blocks that can suspend, on PicoThreads and on the calling
 * platform thread: the exception reaches the caller, and the monitor is free afterwards for everyone.
 */
public final class ExceptionsLeavingSynchronized {
    private boolean closed;
    private int reads;

    private ExceptionsLeavingSynchronized() {
    }

    private synchronized int read() throws java.io.IOException, InterruptedException {
        if (closed) {
            throw new java.io.IOException("Stream closed");
        }
        Thread.sleep(1);
        return ++reads;
    }

    private static synchronized void failStatically(int value) throws InterruptedException {
        Thread.sleep(1);
        if (value > 0) {
            throw new IllegalArgumentException("value " + value);
        }
    }

    private synchronized void close() {
        closed = true;
    }

    public static String run() throws Exception {
        List<String> events = new ArrayList<>();
        ExceptionsLeavingSynchronized stream = new ExceptionsLeavingSynchronized();
        events.add("caller read " + stream.read());
        Thread reader = new Thread(() -> {
            try {
                int value = stream.read();
                stream.close();
                stream.read();
                events.add("thread read " + value + " and then did not fail");
            } catch (Exception e) {
                events.add("thread: " + e.getMessage() + ", still holding: " + Thread.holdsLock(stream));
            }
        });
        reader.start();
        reader.join();
        try {
            stream.read();
        } catch (java.io.IOException e) {
            events.add("caller: " + e.getMessage() + ", still holding: " + Thread.holdsLock(stream));
        }
        Thread[] failing = new Thread[3];
        for (int index = 0; index < failing.length; index++) {
            int value = index;
            failing[index] = new Thread(() -> {
                try {
                    failStatically(value);
                    synchronized (events) {
                        events.add("static " + value + " returned");
                    }
                } catch (IllegalArgumentException | InterruptedException e) {
                    synchronized (events) {
                        events.add("static " + value + " threw " + e.getMessage());
                    }
                }
            });
        }
        for (Thread thread : failing) {
            thread.start();
            thread.join();
        }
        Thread later = new Thread(stream::close);
        later.start();
        later.join();
        events.add("the monitor is free afterwards: " + !Thread.holdsLock(stream) + ", reads " + stream.reads);
        return String.join("\n", events);
    }
}
