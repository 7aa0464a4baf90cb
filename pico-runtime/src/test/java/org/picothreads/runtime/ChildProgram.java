package org.picothreads.runtime;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.picothreads.runtime.internal.ThreadCalls;

/**
 * The main program the child-JVM tests run: scenarios that need a fresh JVM, because they depend on the
 * scheduler's boot-time policy, on thread numbering from zero, or on when the JVM exits.
 */
public final class ChildProgram {
    private ChildProgram() {
    }

    public static void main(String[] args) throws InterruptedException {
        switch (args[0]) {
            case "order":
                printRunOrder(args);
                break;
            case "non-daemon":
                startNonDaemonSleeperAndReturn();
                break;
            case "daemon":
                startDaemonSleeperAndReturn();
                break;
            case "uncaught":
                failWithoutHandler();
                break;
            case "start-latency":
                printStartLatency();
                break;
            case "footprint":
                printFootprint(Integer.parseInt(args[1]));
                if (args.length > 2) {
                    System.out.println("pid " + ProcessHandle.current().pid() + ", alive for " + args[2] + " s");
                    Thread.sleep(Long.parseLong(args[2]) * 1000);
                }
                break;
            default:
                throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
    }

    /** When the first PicoThread's run() began (System.nanoTime), written by it, read after the join. */
    private static long firstRunAt;

    /**
     * Prints how long the JVM's first PicoThread takes from {@code start()} to the first line of its {@code run()}:
     * the scheduler's boot and the first dispatch. A measuring program for docs/runtime.md, not a test.
     */
    private static void printStartLatency() throws InterruptedException {
        PicoThread thread = new PicoThread(new Runnable() {
            @Override
            public void run() {
                firstRunAt = System.nanoTime();
            }
        });
        long started = System.nanoTime();
        thread.start();
        ThreadCalls.join(thread);
        System.out.printf("start to run %.1f ms%n", (firstRunAt - started) / 1e6);
    }

    /** Starts ten threads from one PicoThread and prints the order they ran in; args: order [POLICY SEED]. */
    private static void printRunOrder(String[] args) throws InterruptedException {
        if (args.length == 3) {
            PicoThreads.configure(SchedulingPolicy.valueOf(args[1]), Long.parseLong(args[2]));
        }
        List<Integer> order = new ArrayList<>();
        PicoThread[] threads = new PicoThread[10];
        for (int index = 0; index < threads.length; index++) {
            int number = index;
            threads[index] = new PicoThread(() -> order.add(number));
        }
        PicoThread launcher = new PicoThread(() -> {
            for (PicoThread thread : threads) {
                thread.start();
            }
        });
        launcher.start();
        ThreadCalls.join(launcher);
        for (PicoThread thread : threads) {
            ThreadCalls.join(thread);
        }
        System.out.println("order " + order);
    }

    private static void startNonDaemonSleeperAndReturn() {
        PicoThread sleeper = new PicoThread(Script.of(
                () -> ThreadCalls.sleep(300),
                () -> System.out.println("sleeper " + ThreadCalls.currentThread().getName() + " woke")));
        sleeper.start();
        System.out.println("created after the scheduler booted: " + new PicoThread().getName());
        System.out.println("main returns");
    }

    private static void startDaemonSleeperAndReturn() {
        PicoThread sleeper = new PicoThread(Script.of(
                () -> ThreadCalls.sleep(60_000),
                () -> System.out.println("daemon sleeper woke")));
        ThreadCalls.setDaemon(sleeper, true);
        sleeper.start();
        System.out.println("main returns");
    }

    /**
     * Suspends {@code count} daemon PicoThreads in a long sleep and prints the heap they retain, per thread: the
     * PicoThread with its java.lang.Thread fields, name and lock, its Task, and its share of the timer heap.
     */
    private static void printFootprint(int count) throws InterruptedException {
        PicoThread warmUp = new PicoThread(Script.of(() -> ThreadCalls.sleep(1)));
        warmUp.start();
        ThreadCalls.join(warmUp);
        long before = usedHeapAfterGc();
        // One Runnable for all: the sleep is its first blocking call, so it keeps no state across the suspension.
        Runnable sleep = () -> {
            try {
                ThreadCalls.sleep(600_000);
            } catch (InterruptedException woken) {
                return;
            }
        };
        PicoThread[] threads = new PicoThread[count];
        for (int index = 0; index < count; index++) {
            threads[index] = new PicoThread(sleep);
            ThreadCalls.setDaemon(threads[index], true);
        }
        PicoThread launcher = new PicoThread(() -> {
            for (PicoThread thread : threads) {
                thread.start();
            }
        });
        long suspensionsBefore = PicoThreads.statistics().suspensions();
        launcher.start();
        ThreadCalls.join(launcher);
        while (PicoThreads.statistics().suspensions() - suspensionsBefore < count) {
            Thread.sleep(10);
        }
        long after = usedHeapAfterGc();
        System.out.println("bytes per suspended thread " + (after - before) / count);
        System.out.println(threads.length + " threads");
    }

    private static long usedHeapAfterGc() {
        for (int round = 0; round < 4; round++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void failWithoutHandler() throws InterruptedException {
        PicoThread failing = new PicoThread(Script.of(
                () -> ThreadCalls.sleep(1),
                () -> {
                    throw new IllegalStateException("boom");
                }));
        failing.start();
        ThreadCalls.join(failing);
        System.out.println("joined");
    }
}
