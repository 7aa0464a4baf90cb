package example.library;

import java.util.ArrayList;
import java.util.List;

/** A library that does its work on threads of its own, each of which sleeps. */
public final class Workers {
    private Workers() {
    }

    /** Runs {@code count} workers that each sleep, and returns the classes of the threads they ran as. */
    public static List<String> runSleepingWorkers(int count) throws InterruptedException {
        List<String> threadClasses = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            Thread worker = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    return;
                }
                synchronized (threadClasses) {
                    threadClasses.add(Thread.currentThread().getClass().getName());
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return threadClasses;
    }
}
