package org.picothreads.targets.threads;

/**
 * Waiting on a Thread object until the thread ends, {@code synchronized (t) { while (t.isAlive()) t.wait(); }},
 * which returns because the thread's monitor is notified when it terminates: from another thread, from the thread
 * running the program, and with a timed wait.
 */
public final class WaitOnThreadObjects {
    /** Set by the watcher, holding the sleeper's monitor, just before it first waits. */
    private static volatile boolean watching;

    private WaitOnThreadObjects() {
    }

    public static String run() throws Exception {
        watching = false;
        StringBuilder log = new StringBuilder();
        Thread sleeper = new Thread(() -> {
            try {
                while (!watching) {
                    Thread.sleep(1);
                }
                Thread.sleep(20);
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        Thread watcher = new Thread(() -> {
            try {
                synchronized (sleeper) {
                    int waits = 0;
                    watching = true;
                    while (sleeper.isAlive()) {
                        sleeper.wait();
                        waits++;
                    }
                    log.append("a thread saw the sleeper end, alive ").append(sleeper.isAlive()).append(", woken ")
                            .append(waits > 0);
                }
            } catch (InterruptedException exception) {
                log.append("the watcher was interrupted");
            }
        });
        sleeper.start();
        watcher.start();
        watcher.join();

        Thread second = sleeper(40);
        second.start();
        synchronized (second) {
            while (second.isAlive()) {
                second.wait();
            }
        }
        log.append("; the program's thread saw the second sleeper end, state ").append(second.getState());

        Thread third = sleeper(40);
        third.start();
        long deadline = System.currentTimeMillis() + 60_000;
        synchronized (third) {
            while (third.isAlive() && System.currentTimeMillis() < deadline) {
                third.wait(30_000);
            }
        }
        log.append("; a timed wait saw the third sleeper end before its deadline ")
                .append(System.currentTimeMillis() < deadline && !third.isAlive());
        return log.toString();
    }

    private static Thread sleeper(long millis) {
        return new Thread(() -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
    }
}
