package org.picothreads.targets.io.locks;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The program's own regions on the objects a writer chain locks (a PrintWriter's lock is its BufferedWriter, the
 * BufferedWriter's is its OutputStreamWriter, the OutputStreamWriter's is its stream) against the writers' regions,
 * with threads suspending inside both: a holder of the BufferedWriter that sleeps keeps a printing thread out until it
 * leaves; wait and notifyAll on the OutputStreamWriter; holdsLock; and eight threads printing whole lines through
 * one PrintWriter over a stream that sleeps on every write, each line arriving whole.
 */
public final class SharedWriterLocks {
    private SharedWriterLocks() {
    }

    public static String run() throws Exception {
        return holderKeepsPrinterOut() + "\n" + waitAndNotifyOnTheWriter() + "\n" + printersShareOneWriter();
    }

    /** A thread holding the BufferedWriter across a sleep; another prints through the PrintWriter meanwhile. */
    private static String holderKeepsPrinterOut() throws Exception {
        SlowStream sink = new SlowStream(0);
        BufferedWriter buffered = new BufferedWriter(new OutputStreamWriter(sink, StandardCharsets.UTF_8));
        PrintWriter printer = new PrintWriter(buffered);
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (buffered) {
                events.add("holder in, holds it: " + Thread.holdsLock(buffered));
                held.countDown();
                sleep(100);
                events.add("holder out, bytes written: " + sink.size());
            }
        });
        Thread writer = new Thread(() -> {
            await(held);
            printer.println("printed while the holder slept?");
            printer.flush();
            events.add("printer done, bytes written: " + sink.size());
        });
        holder.start();
        writer.start();
        holder.join();
        writer.join();
        return String.join("\n", events) + "\n" + sink.text().strip();
    }

    /** wait and notifyAll on an OutputStreamWriter that the writers also lock, with a write in between. */
    private static String waitAndNotifyOnTheWriter() throws Exception {
        SlowStream sink = new SlowStream(5);
        OutputStreamWriter writer = new OutputStreamWriter(sink, StandardCharsets.UTF_8);
        boolean[] ready = new boolean[1];
        String[] seen = new String[3];
        Thread[] waiters = new Thread[3];
        for (int index = 0; index < waiters.length; index++) {
            int number = index;
            waiters[index] = new Thread(() -> {
                synchronized (writer) {
                    while (!ready[0]) {
                        try {
                            writer.wait();
                        } catch (InterruptedException e) {
                            seen[number] = "interrupted";
                            return;
                        }
                    }
                    seen[number] = "woken, holds it: " + Thread.holdsLock(writer);
                }
            });
            waiters[index].start();
        }
        sleep(50);
        Thread notifier = new Thread(() -> {
            try {
                writer.write("before the notice ");
                writer.flush();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
            synchronized (writer) {
                ready[0] = true;
                writer.notifyAll();
            }
        });
        notifier.start();
        notifier.join();
        for (Thread waiter : waiters) {
            waiter.join();
        }
        return Arrays.toString(seen) + " " + sink.text() + "holds it after: " + Thread.holdsLock(writer);
    }

    /** Eight threads each print 20 lines through one PrintWriter over a stream that sleeps on every write. */
    private static String printersShareOneWriter() throws Exception {
        SlowStream sink = new SlowStream(1);
        PrintWriter printer = new PrintWriter(new BufferedWriter(new OutputStreamWriter(sink, StandardCharsets.UTF_8),
                16));
        Thread[] printers = new Thread[8];
        for (int index = 0; index < printers.length; index++) {
            int number = index;
            printers[index] = new Thread(() -> {
                for (int line = 0; line < 20; line++) {
                    printer.println("printer " + number + " line " + line + " ends here");
                }
            });
            printers[index].start();
        }
        for (Thread thread : printers) {
            thread.join();
        }
        printer.flush();
        List<String> lines = new ArrayList<>(Arrays.asList(sink.text().split("\n")));
        int whole = 0;
        for (String line : lines) {
            if (line.matches("printer \\d line \\d+ ends here")) {
                whole++;
            }
        }
        Collections.sort(lines);
        return lines.size() + " lines, " + whole + " whole, first " + lines.get(0) + ", last " + lines.get(
                lines.size() - 1);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    /** A stream that sleeps on every write for the given milliseconds and keeps the bytes. */
    static final class SlowStream extends OutputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final long pause;

        SlowStream(long pause) {
            this.pause = pause;
        }

        @Override
        public void write(int value) throws IOException {
            write(new byte[] {(byte) value}, 0, 1);
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            if (pause > 0) {
                sleep(pause);
            }
            synchronized (bytes) {
                bytes.write(buffer, offset, length);
            }
        }

        int size() {
            synchronized (bytes) {
                return bytes.size();
            }
        }

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
