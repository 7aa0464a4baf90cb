package org.picothreads.runtime;

import org.picothreads.runtime.internal.ThreadCalls;

/**
 * Programs for {@link DeadlockDetectionTest}, run in a child JVM: the first argument names one. Their PicoThreads
 * block by hand-written Runnables that follow the protocol of rewritten code (see {@link Script}).
 */
public final class DeadlockProgram {
    private DeadlockProgram() {
    }

    public static void main(String[] arguments) throws InterruptedException {
        switch (arguments[0]) {
            case "self-join" -> ThreadCalls.join(startStuckThread());
            case "self-join-main-returns" -> startStuckThread();
            case "woken-by-main" -> {
                Thread stuck = startStuckThread();
                Thread.sleep(1_000);
                stuck.interrupt();
                ThreadCalls.join(stuck);
            }
            case "woken-by-daemon" -> {
                Thread stuck = startStuckThread();
                Thread waker = new Thread(() -> {
                    try {
                        Thread.sleep(1_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    stuck.interrupt();
                }, "daemon waker");
                waker.setDaemon(true);
                waker.start();
                ThreadCalls.join(stuck);
            }
            case "dump-on-exit" -> {
                PicoThread napper = new PicoThread(Script.of(Script.sleepUntilInterrupted(600_000)), "napper");
                napper.setDaemon(true);
                napper.start();
                PicoThread brief = new PicoThread(Script.of(Script.sleepUntilInterrupted(50)), "brief");
                brief.start();
                ThreadCalls.join(brief);
            }
            case "dump-interval" -> new PicoThread(Script.of(Script.sleepUntilInterrupted(2_500)), "sleeper").start();
            default -> throw new IllegalArgumentException(arguments[0]);
        }
    }

    /** Starts a PicoThread named "stuck" that joins itself, which only an interrupt ends. */
    private static Thread startStuckThread() {
        PicoThread stuck = new PicoThread(() -> {
            try {
                ThreadCalls.join(ThreadCalls.currentThread());
            } catch (InterruptedException e) {
                System.out.println("stuck was interrupted");
            }
        }, "stuck");
        stuck.start();
        return stuck;
    }
}
