package example;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Plain java.lang.Thread code: starts many threads that each sleep, and reports what they ran as. */
public final class Sleepers {
    private Sleepers() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.println(run(Integer.parseInt(args[0]), Long.parseLong(args[1])));
    }

    /** Starts {@code count} threads that each sleep, waits for them, and sums up what happened. */
    public static String run(int count, long sleepMillis) throws InterruptedException {
        AtomicInteger woke = new AtomicInteger();
        Set<String> threadClasses = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>(count);
        for (int index = 0; index < count; index++) {
            Thread thread = new Thread(() -> {
                threadClasses.add(Thread.currentThread().getClass().getName());
                try {
                    Thread.sleep(sleepMillis);
                } catch (InterruptedException interrupted) {
                    return;
                }
                woke.incrementAndGet();
            });
            threads.add(thread);
            thread.start();
        }
        int peakPlatformThreads = ManagementFactory.getThreadMXBean().getPeakThreadCount();
        for (Thread thread : threads) {
            thread.join();
        }
        return "woke " + woke.get() + " of " + count + ", thread classes " + threadClasses
                + ", peak platform threads " + (peakPlatformThreads < 50 ? "under 50" : peakPlatformThreads);
    }
}
