package example.legacy;

/** Excluded from the rewrite: the thread it starts is a platform thread. */
public final class Legacy {
    private Legacy() {
    }

    /** The class of the thread a started thread runs as. */
    public static String threadClass() throws InterruptedException {
        String[] seen = new String[1];
        Thread thread = new Thread(() -> seen[0] = Thread.currentThread().getClass().getName());
        thread.start();
        thread.join();
        return seen[0];
    }
}
