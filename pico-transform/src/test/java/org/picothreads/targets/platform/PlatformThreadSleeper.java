package org.picothreads.targets.platform;

/**
 * Blocking calls made directly by the thread that calls {@link #run}, which in the tests is JUnit's platform
 * thread and not a PicoThread: the sleep must block that thread for real, as before, and nothing suspends.
 */
public final class PlatformThreadSleeper {
    /** How long the direct sleep lasts. */
    public static final long SLEEP_MILLIS = 50;

    private PlatformThreadSleeper() {
    }

    public static String run() throws Exception {
        Thread caller = Thread.currentThread();
        long kept = 1L << 50;
        long start = System.nanoTime();
        Thread.sleep(SLEEP_MILLIS);
        long sleptMillis = (System.nanoTime() - start) / 1_000_000;
        Thread.yield();
        boolean sameThread = Thread.currentThread() == caller;
        caller.interrupt();
        boolean interruptedSleepThrew;
        try {
            Thread.sleep(SLEEP_MILLIS);
            interruptedSleepThrew = false;
        } catch (InterruptedException exception) {
            interruptedSleepThrew = true;
        }
        return "slept at least " + SLEEP_MILLIS + " ms: " + (sleptMillis >= SLEEP_MILLIS)
                + ", same thread: " + sameThread
                + ", thread class: " + caller.getClass().getName()
                + ", interrupted sleep threw: " + interruptedSleepThrew
                + ", flag cleared: " + !Thread.currentThread().isInterrupted() + ", kept " + kept;
    }
}
