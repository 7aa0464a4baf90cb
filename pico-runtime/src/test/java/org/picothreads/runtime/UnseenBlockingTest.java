package org.picothreads.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.picothreads.runtime.PicoTesting.awaitTermination;
import static org.picothreads.runtime.PicoTesting.events;
import static org.picothreads.runtime.PicoTesting.runAll;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * PicoThreads that block their carriers where the runtime does not see it: the tests' own code is not rewritten, so a
 * JDK {@code CountDownLatch} awaited by a PicoThread blocks its carrier for real, as JDK code would. The watchdog
 * finds such a carrier, counts it, shows it in the dump and compensates, so that the thread that opens the latch runs;
 * a native read that waits counts too, while a thread that only computes, or calls a native method that could block
 * again and again without ever waiting in it, is never taken for blocked.
 */
class UnseenBlockingTest {
    /** How long a waiter waits for its latch, and the test for the watchdog, before giving up. */
    private static final long LIMIT_SECONDS = 20;
    private static final Pattern WAITER_ENTRY = Pattern.compile("\"jdk-latch-waiter\" TIMED_WAITING running\n"
            + "\t\\(on pico-carrier-\\d+, blocked in code the runtime does not see: TIMED_WAITING for \\d+ ms; a spare"
            + " carrier runs the others\\)\n");

    /** The spare carriers these tests' blocks started retire before the next test class runs, as it expects. */
    @AfterAll
    static void spare_carriers_retire_once_their_blocks_have_ended() {
        PicoTesting.awaitSparesRetired(PicoTesting.configuredCarriers());
    }

    @Test
    void a_carrier_waiting_on_a_jdk_latch_is_counted_and_shown_in_the_dump_until_its_thread_goes_on()
            throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        List<Object> events = events();
        long unseenBefore = PicoThreads.statistics().unseenBlocks();
        PicoThread waiter = new PicoThread(() -> events.add("opened " + awaitQuietly(gate)), "jdk-latch-waiter");
        waiter.start();
        boolean found = within(() -> PicoThreads.statistics().unseenBlocks() > unseenBefore);
        String dump = PicoThreads.dump();
        gate.countDown();
        awaitTermination(waiter);

        assertTrue(found, "the watchdog found the waiter's carrier blocked");
        assertEquals(List.of("opened true"), events);
        assertTrue(dump.contains("blocked in code the runtime does not see; spare carriers run the others)"), dump);
        assertTrue(WAITER_ENTRY.matcher(dump).find(), dump);
        // below the note, the frames the blocked carrier runs for the thread, read from the carrier's stack
        assertTrue(dump.contains("\tat java.util.concurrent.CountDownLatch.await(")
                && dump.contains("\tat " + UnseenBlockingTest.class.getName() + ".awaitQuietly("), dump);
        assertTrue(within(() -> !PicoThreads.dump().contains("does not see")),
                "once its thread has ended, the carrier is no longer counted as blocked: " + PicoThreads.dump());
    }

    @Test
    void threads_waiting_on_a_jdk_latch_on_every_carrier_let_the_thread_that_opens_it_run()
            throws InterruptedException {
        int waiters = PicoTesting.configuredCarriers() + 2;
        CountDownLatch gate = new CountDownLatch(1);
        List<Object> events = events();
        long unseenBefore = PicoThreads.statistics().unseenBlocks();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < waiters; index++) {
            threads.add(new PicoThread(() -> events.add("opened " + awaitQuietly(gate))));
        }
        threads.add(new PicoThread(() -> {
            gate.countDown();
            events.add("opener ran");
        }));
        runAll(threads.toArray(new Thread[0]));

        List<Object> expected = new ArrayList<>(Collections.nCopies(waiters, "opened true"));
        expected.add("opener ran");
        List<Object> sorted = new ArrayList<>(events);
        sorted.sort((first, second) -> first.toString().compareTo(second.toString()));
        assertEquals(expected, sorted);
        assertTrue(PicoThreads.statistics().unseenBlocks() > unseenBefore, "the watchdog compensated");
    }

    @Test
    void a_thread_computing_for_ten_thresholds_is_not_taken_for_blocked() throws InterruptedException {
        long[] total = new long[1];
        PicoThreads.Statistics before = PicoThreads.statistics();
        PicoThread computing = new PicoThread(() -> {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            long sum = 0;
            while (System.nanoTime() - end < 0) {
                for (int step = 0; step < 1_000; step++) {
                    sum += Long.numberOfTrailingZeros(sum + step + 1);
                }
            }
            total[0] = sum;
        }, "computing");
        computing.start();
        awaitTermination(computing);
        PicoThreads.Statistics after = PicoThreads.statistics();

        assertTrue(total[0] > 0, "the thread computed");
        assertEquals(0, after.unseenBlocks() - before.unseenBlocks(), "a RUNNABLE computation is not a block");
        assertEquals(0, after.spareCarriersStarted() - before.spareCarriersStarted());
    }

    @Test
    void a_thread_reading_a_file_that_is_all_there_for_ten_thresholds_is_not_taken_for_blocked()
            throws InterruptedException {
        Path zeros = Path.of("/dev/zero");
        assumeTrue(Files.isReadable(zeros), "a file that always has bytes to read");
        long[] bytesRead = new long[1];
        PicoThreads.Statistics before = PicoThreads.statistics();
        // Its carrier stands in FileInputStream.readBytes, a native method that blocks on a pipe, at nearly every
        // look; but the read never waits, and the carrier's CPU time grows as the watchdog looks.
        PicoThread reading = new PicoThread(() -> {
            byte[] buffer = new byte[1 << 20];
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            try (FileInputStream in = new FileInputStream(zeros.toFile())) {
                while (System.nanoTime() - end < 0) {
                    bytesRead[0] += in.read(buffer);
                }
            } catch (IOException unexpected) {
                bytesRead[0] = -1;
            }
        }, "reading-zeros");
        reading.start();
        awaitTermination(reading);
        PicoThreads.Statistics after = PicoThreads.statistics();

        assertTrue(bytesRead[0] > 0, "the thread read " + bytesRead[0] + " bytes");
        assertEquals(0, after.unseenBlocks() - before.unseenBlocks(),
                "a native read that returns at once is not a block");
        assertEquals(0, after.spareCarriersStarted() - before.spareCarriersStarted());
    }

    @Test
    void a_carrier_blocked_in_a_native_read_of_an_empty_pipe_is_counted_until_the_read_returns()
            throws IOException, InterruptedException {
        Pipe pipe = Pipe.open();
        List<Object> events = events();
        long unseenBefore = PicoThreads.statistics().unseenBlocks();
        PicoThread reader = new PicoThread(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(1);
            try {
                events.add("read " + pipe.source().read(buffer) + " byte " + buffer.get(0));
            } catch (IOException unexpected) {
                events.add(unexpected);
            }
        }, "pipe-reader");
        reader.start();
        try {
            boolean found = within(() -> PicoThreads.statistics().unseenBlocks() > unseenBefore);
            pipe.sink().write(ByteBuffer.wrap(new byte[] {42}));
            awaitTermination(reader);

            assertTrue(found, "the watchdog found the reader's carrier blocked in read0, using no CPU time");
            assertEquals(List.of("read 1 byte 42"), events);
            assertTrue(within(() -> !PicoThreads.dump().contains("does not see")),
                    "once the read has returned, the carrier is no longer counted as blocked: " + PicoThreads.dump());
        } finally {
            pipe.sink().close();
            pipe.source().close();
        }
    }

    /** Awaits the latch for at most {@link #LIMIT_SECONDS}; whether it opened, or "interrupted". */
    private static Object awaitQuietly(CountDownLatch gate) {
        try {
            return gate.await(LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            return "interrupted";
        }
    }

    /** Waits until the condition holds, for at most {@link #LIMIT_SECONDS}; whether it held. */
    private static boolean within(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }
}
