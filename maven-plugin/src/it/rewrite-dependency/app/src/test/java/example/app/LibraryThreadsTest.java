package example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.library.Workers;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.picothreads.runtime.PicoThreads;

class LibraryThreadsTest {
    @Test
    void the_rewritten_library_runs_its_workers_on_pico_threads() throws InterruptedException {
        long startedBefore = PicoThreads.statistics().threadsStarted();

        List<String> threadClasses = Workers.runSleepingWorkers(1_000);

        assertEquals(Collections.nCopies(1_000, "org.picothreads.runtime.PicoThread"), threadClasses);
        assertEquals(1_000, PicoThreads.statistics().threadsStarted() - startedBefore);
    }
}
