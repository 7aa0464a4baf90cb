package org.picothreads.demo;

/**
 * A plain Java program with one thread per task: N threads each sleep, then add their index to their own slot;
 * the main thread joins them all and prints two lines, {@code threads: N} and {@code checksum: <sum>}. Nothing
 * in it knows about PicoThreads; transformed, it gives the same output on PicoThreads.
 *
 * <pre>
 * java -cp pico-transform-demo.jar org.picothreads.demo.ManySleepers [threads, default 100000] [sleep ms, default 1000]
 * </pre>
 */
public final class ManySleepers {
    private ManySleepers() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threadCount = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        long sleepMillis = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        System.out.print(sleepAll(threadCount, sleepMillis));
        System.out.flush();
    }

    /** Runs the threads and returns the two lines of the report, each ending with a line separator. */
    public static String sleepAll(int threadCount, long sleepMillis) throws InterruptedException {
        long[] slots = new long[threadCount];
        Thread[] threads = new Thread[threadCount];
        for (int index = 0; index < threadCount; index++) {
            int slot = index;
            threads[index] = new Thread(() -> {
                try {
                    Thread.sleep(sleepMillis);
                } catch (InterruptedException exception) {
                    return;
                }
                slots[slot] += slot;
            });
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        long checksum = 0;
        for (long slot : slots) {
            checksum += slot;
        }
        String newline = System.lineSeparator();
        return "threads: " + threadCount + newline + "checksum: " + checksum + newline;
    }
}
