package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.PicoThreads;

class SleepersTest {
    @Test
    void the_main_classes_run_twenty_thousand_sleeping_threads_on_a_few_platform_threads() throws Exception {
        long startedBefore = PicoThreads.statistics().threadsStarted();

        String summary = Sleepers.run(20_000, 300);

        assertEquals("woke 20000 of 20000, thread classes [org.picothreads.runtime.PicoThread], "
                + "peak platform threads under 50", summary);
        assertEquals(20_000, PicoThreads.statistics().threadsStarted() - startedBefore);
    }

    @Test
    void the_test_classes_start_twenty_thousand_sleeping_threads_as_pico_threads() throws Exception {
        long startedBefore = PicoThreads.statistics().threadsStarted();
        AtomicInteger picoThreads = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < 20_000; index++) {
            Thread thread = new Thread(() -> {
                if (Thread.currentThread().getClass().getName().equals("org.picothreads.runtime.PicoThread")) {
                    picoThreads.incrementAndGet();
                }
                try {
                    Thread.sleep(300);
                } catch (InterruptedException interrupted) {
                    throw new IllegalStateException(interrupted);
                }
            });
            threads.add(thread);
            thread.start();
        }
        int peak = ManagementFactory.getThreadMXBean().getPeakThreadCount();
        for (Thread thread : threads) {
            thread.join();
        }

        assertEquals(20_000, picoThreads.get());
        assertEquals(20_000, PicoThreads.statistics().threadsStarted() - startedBefore);
        assertTrue(peak < 50, "peak platform threads " + peak);
    }
}
