package org.picothreads.targets.threads;

/**
 * Subclasses of Thread: a constructor passing a name to {@code super(name)}, {@code this.getName()} and
 * {@code Thread.currentThread() == this} after a sleep, the inherited static {@code sleep} and
 * {@code currentThread} called without qualification (javac names the subclass as their owner), a subclass
 * of a subclass calling {@code super.run()}, and a subclass given a Runnable that {@code super.run()} calls.
 */
public final class ThreadSubclasses {
    private ThreadSubclasses() {
    }

    /** A named thread that reports on itself after sleeping. */
    static class NamedWorker extends Thread {
        /** Where this thread writes its report. */
        protected final String[] results;
        /** Its slot in {@link #results}. */
        protected final int slot;

        NamedWorker(String name, String[] results, int slot) {
            super(name);
            this.results = results;
            this.slot = slot;
        }

        @Override
        public void run() {
            String before = getName();
            long wide = (1L << 40) + slot;
            try {
                sleep(1 + slot);
            } catch (InterruptedException exception) {
                results[slot] = "interrupted";
                return;
            }
            results[slot] = before + "/" + this.getName() + "/" + (currentThread() == this) + "/"
                    + (Thread.currentThread() == this) + "/" + wide;
        }
    }

    /** A subclass of a subclass that sleeps, calls {@code super.run()} and adds to the report. */
    static final class CountingWorker extends NamedWorker {
        private final int count;

        CountingWorker(String name, String[] results, int slot, int count) {
            super("counting-" + name, results, slot);
            this.count = count;
        }

        @Override
        public void run() {
            int sum = 0;
            for (int step = 1; step <= count; step++) {
                ThreadSubclasses.sleep(1);
                sum += step;
            }
            super.run();
            results[slot] += "/sum " + sum;
        }
    }

    /** A subclass constructed with a Runnable target, which {@code super.run()} runs. */
    static final class TargetThread extends Thread {
        private final String[] results;
        private final int slot;

        TargetThread(Runnable target, String name, String[] results, int slot) {
            super(target, name);
            this.results = results;
            this.slot = slot;
        }

        @Override
        public void run() {
            ThreadSubclasses.sleep(1);
            super.run();
            results[slot] = results[slot] + " then " + getName();
        }
    }

    public static String run() throws Exception {
        String[] results = new String[4];
        Thread[] threads = {
            new NamedWorker("first", results, 0),
            new NamedWorker("second", results, 1),
            new CountingWorker("third", results, 2, 4),
            new TargetThread(() -> {
                sleep(2);
                results[3] = "target of " + Thread.currentThread().getName();
            }, "fourth", results, 3),
        };
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
